// solver_choice.hpp — which cuSOLVER routine serves a batch of matrices, and the shapes the
// routines are given: pure host decisions, unit-tested without a GPU (tests/cuda).
//
// Note [Batched or looped]
// cuSOLVER has batched routines for some decompositions: potrfBatched (Cholesky, any n, one
// call for the batch) and, for small matrices, the Jacobi solvers (syevBatched for eigh and
// gesvdjBatched for svd, both for n <= 32, the bound PyTorch uses too: Jacobi sweeps cost
// O(n^3) per sweep and lose to the divide-and-conquer and QR drivers on larger matrices);
// cuBLAS has getrfBatched and getrsBatched, made for many small matrices (used here up to
// n = 32, for inv and solve; det and slogdet keep Xgetrf, whose 64-bit pivots their kernel
// reads). The rest, and every batch of one, runs the 64-bit routine (cusolverDnX*) once per
// matrix on the call's stream: the launches queue without waiting, and one workspace serves
// them all as they run in order.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kf::cuda {

enum class SolverRoute { kLooped, kBatched };

/// The largest matrix the Jacobi batched routines take (PyTorch's bound too).
constexpr int64_t kJacobiBatchedMax = 32;

/// potrfBatched for more than one matrix, else Xpotrf.
SolverRoute cholesky_route(int64_t n, int64_t batch);

/// cuBLAS's getrfBatched and getrsBatched for more than one matrix of order 1..32 (made for
/// many small matrices), else Xgetrf and Xgetrs per matrix.
SolverRoute lu_route(int64_t n, int64_t batch);

/// syevBatched (when this cuSOLVER has it: `have_batched`) for a batch of more than one matrix
/// of order 1..32, else Xsyevd per matrix.
SolverRoute eigh_route(int64_t n, int64_t batch, bool have_batched);

/// gesvdjBatched for more than one matrix with both sizes in 1..32, else Xgesvd per matrix.
SolverRoute svd_route(int64_t m, int64_t n, int64_t batch);

/// How Xgesvd sees an [m, n] matrix: it needs rows >= cols, so a wide matrix (m < n) is
/// factored as its conjugate transpose A^H = U' S V'^H, whose factors give A's as U = V' and
/// Vh = U'^H.
struct SvdOrientation {
  bool conjugate_transpose = false;
  int64_t rows = 0, cols = 0;  // of the matrix factored (rows >= cols)
};
SvdOrientation svd_orientation(int64_t m, int64_t n);

/// The bytes of one workspace for a loop of routine calls whose query gave `bytes`: at least
/// one (cudaMallocAsync of 0 returns no pointer and a routine may still read it) and a multiple
/// of 256 (the alignment cuSOLVER expects of its device workspace).
size_t solver_workspace_bytes(size_t bytes);

}  // namespace kf::cuda
