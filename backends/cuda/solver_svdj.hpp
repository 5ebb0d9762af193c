// solver_svdj.hpp — cuSOLVER's batched Jacobi SVD (gesvdjBatched), typed per dtype, for
// linalg_svd and linalg_svdvals on a batch of small matrices (solver_choice.hpp, svd_route).
#pragma once

#include <cuda_runtime_api.h>

#include "solver_common.hpp"

namespace kf::cuda {

/// The SVD of each of `a`'s matrices (m x n, both <= 32, column-major; overwritten): singular
/// values descending into s [count, min(m, n)], and with `vectors` the full U [m, m] and V
/// [n, n] (V, not V^H; gesvdjBatched makes no thin factors), column-major. One info per
/// matrix: min(m, n) + 1 when the sweeps did not converge.
void gesvdj_batched(const SolverHandle& h, MatrixBatch& a, MatrixBatch& s, MatrixBatch& u,
                    MatrixBatch& v, bool vectors, const InfoArray& info, cudaStream_t stream);

}  // namespace kf::cuda
