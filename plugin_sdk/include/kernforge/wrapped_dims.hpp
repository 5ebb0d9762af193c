// kernforge/wrapped_dims.hpp — header-only: the dims of an op's int[] argument wrapped into
// [0, ndim), written once for every backend:
//
//   const std::vector<int32_t> dims = kf::plugin::wrapped_dims(a.dim, a.self.ndim);
//
// The core has checked each dim against ndim before a kernel runs, so this only wraps.
#pragma once

#include <cstdint>
#include <vector>

namespace kf::plugin {

/// One dim wrapped into [0, ndim): -1 is the last.
constexpr int32_t wrap_dim(int64_t dim, int32_t ndim) {
  return static_cast<int32_t>(dim < 0 ? dim + ndim : dim);
}

/// Every dim of `dims` (an IntList, or any range of int64) wrapped, in the order given.
template <class Dims>
std::vector<int32_t> wrapped_dims(const Dims& dims, int32_t ndim) {
  std::vector<int32_t> out;
  out.reserve(static_cast<size_t>(dims.size()));
  for (const int64_t d : dims) out.push_back(wrap_dim(d, ndim));
  return out;
}

}  // namespace kf::plugin
