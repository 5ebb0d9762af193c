// solver_lu_batched.hpp — linalg_inv's and linalg_solve's LU through cuBLAS's batched routines
// for a batch of small matrices (solver_choice.hpp, lu_route; Note [Batched or looped]).
#pragma once

#include "kernel_scope.hpp"
#include "solver_common.hpp"

namespace kf::cuda {

/// Factors each of `m`'s matrices in place (getrfBatched, int32 pivots, one info per matrix in
/// `info`: the index of the first zero pivot, 1-based) and overwrites `x`'s with m^-1 x
/// (getrsBatched). The stream's work is queued, not waited for; an argument cuBLAS refuses is a
/// KernelError at once.
void lu_solve_batched(const KernelScope& scope, int32_t device, MatrixBatch& m, MatrixBatch& x,
                      const InfoArray& info);

}  // namespace kf::cuda
