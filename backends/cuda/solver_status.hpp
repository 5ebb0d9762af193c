// solver_status.hpp — cuSOLVER's `info` codes as kernforge errors, in one place (the cuda
// backend's counterpart of the CPU's lapack_status.hpp, with the same texts).
//
// The cuSOLVER routines write one info per matrix into device memory; the op reads the whole
// array back after the routine (Note [Reading info back] in solver_common.hpp) and hands it here
// with the flags of the matrices that held a NaN or an infinity (the iterative decompositions,
// eigh and svd, refuse those as the CPU does). The first matrix in batch order that failed
// decides the error: KF_INVALID_ARGUMENT naming the op, its batch index and what failed (a
// singular matrix, the order of the leading minor that is not positive-definite, no
// convergence, non-finite input), or KF_INTERNAL for info < 0 (an argument cuSOLVER refused: a
// bug of the plugin). Pure host code: tests/cuda's host unit tests run it without a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kernforge/plugin.h"

namespace kf::cuda {

/// What a failing routine was doing: the meaning of its info > 0.
enum class SolverStep {
  kLu,        // getrf: U[info - 1, info - 1] is exactly zero, the matrix is singular
  kCholesky,  // potrf: the leading minor of order info is not positive-definite
  kEigh,      // syevd / syevBatched: info off-diagonal elements did not converge
  kSvd,       // gesvd / gesvdj: the iteration did not converge
  kQr         // geqrf / orgqr: only argument errors (info < 0)
};

/// One matrix's failure: its batch index and info, or non_finite when it held NaN or inf.
struct SolverFailure {
  int64_t batch = -1;
  int64_t info = 0;
  SolverStep step = SolverStep::kLu;
  bool non_finite = false;
};

/// The first failing matrix of `count` in batch order: non_finite[b] != 0 (when non_finite is
/// not null) or info[b] != 0; nothing when all succeeded. A non-finite matrix reports that
/// rather than its info (the CPU checks its input before it factors).
std::optional<SolverFailure> first_failure(SolverStep step, const int32_t* info,
                                           const int32_t* non_finite, int64_t count);

/// The status of a failure: KF_INTERNAL for info < 0, else KF_INVALID_ARGUMENT.
kf_status_t failure_status(const SolverFailure& f);

/// "linalg_cholesky: the matrix at batch index 2 is not positive-definite (its leading minor
/// of order 3 is not)", or for info < 0 "...: cuSOLVER refused argument 4 ... (a bug of the
/// cuda plugin; please report it)".
std::string failure_message(const char* op, const SolverFailure& f);

/// Throws the KernelError of the first failure of the batch, if any.
void check_solver_infos(const char* op, SolverStep step, const int32_t* info,
                        const int32_t* non_finite, int64_t count);

}  // namespace kf::cuda
