// Which cuSOLVER routine serves a batch (solver_choice.hpp, Note [Batched or looped]).
#include "solver_choice.hpp"

#include <algorithm>

namespace kf::cuda {

SolverRoute cholesky_route(int64_t n, int64_t batch) {
  return batch > 1 && n > 0 ? SolverRoute::kBatched : SolverRoute::kLooped;
}

SolverRoute lu_route(int64_t n, int64_t batch) {
  const bool small = n >= 1 && n <= kJacobiBatchedMax;
  return small && batch > 1 ? SolverRoute::kBatched : SolverRoute::kLooped;
}

SolverRoute eigh_route(int64_t n, int64_t batch, bool have_batched) {
  const bool small = n >= 1 && n <= kJacobiBatchedMax;
  return have_batched && small && batch > 1 ? SolverRoute::kBatched : SolverRoute::kLooped;
}

SolverRoute svd_route(int64_t m, int64_t n, int64_t batch) {
  const bool small = std::min(m, n) >= 1 && std::max(m, n) <= kJacobiBatchedMax;
  return small && batch > 1 ? SolverRoute::kBatched : SolverRoute::kLooped;
}

SvdOrientation svd_orientation(int64_t m, int64_t n) {
  SvdOrientation o;
  o.conjugate_transpose = m < n;
  o.rows = std::max(m, n);
  o.cols = std::min(m, n);
  return o;
}

size_t solver_workspace_bytes(size_t bytes) {
  constexpr size_t kAlign = 256;
  return std::max<size_t>(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
}

}  // namespace kf::cuda
