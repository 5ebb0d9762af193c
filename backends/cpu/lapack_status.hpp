// lapack_status.hpp — LAPACK's `info` codes as kernforge errors, in one place.
//
// A routine's info > 0 is its own failure (a singular matrix, a minor that is not positive
// definite, no convergence); info < 0 names a bad argument, which is a bug of the plugin. Each
// becomes a KernelError whose message names the op, the matrix's batch index (row-major over the
// batch dims) and what failed, so that no decomposition ever returns garbage with KF_OK.
#pragma once

#include <cstdint>

namespace kf::cpu {

/// What a failing routine was doing: the meaning of its info > 0.
enum class LapackStep {
  kLu,          // getrf / gesv: U[info, info] is exactly zero, the matrix is singular
  kCholesky,    // potrf: the leading minor of order info is not positive-definite
  kEigh,        // syevd / heevd: info off-diagonal elements did not converge to zero
  kSvd,         // gesdd: the bidiagonal iteration did not converge
  kEig,         // geev: the QR algorithm failed to compute every eigenvalue
  kLeastSquares // gelsd: the SVD did not converge
};

/// A matrix's failure inside a batched loop: batch index and info (info 0: none).
struct LapackFailure {
  int64_t batch = -1;
  int64_t info = 0;
  LapackStep step = LapackStep::kLu;
};

/// Throws the KernelError of `f` for op `op` (KF_INVALID_ARGUMENT for a failure of the
/// input, KF_INTERNAL for a bad argument).
[[noreturn]] void throw_lapack_failure(const char* op, const LapackFailure& f);

/// KF_INVALID_ARGUMENT for a matrix of `op` with a non-finite element at batch index `batch`
/// (the iterative decompositions refuse them instead of iterating forever or returning NaN
/// with success).
[[noreturn]] void throw_non_finite(const char* op, int64_t batch);

/// KF_INVALID_ARGUMENT when a matrix dimension does not fit LAPACK's 32-bit integers.
void require_lapack_size(const char* op, int64_t n);

}  // namespace kf::cpu
