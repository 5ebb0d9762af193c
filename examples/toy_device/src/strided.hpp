// strided.hpp — visiting every element of strided tensor views, for the toy kernels.
//
// A kernel gets kf_tensor_view_t's (plugin.h): a data pointer, a shape and strides in elements.
// A view need not be contiguous: a transposed tensor, a slice with a step, or an input broadcast
// to the output's shape (stride 0 along the broadcast dims) all arrive as they are, and the
// output may itself be such a view (kf_add_out into a transposed tensor). for_each_element walks
// the output's shape in row-major order and gives the function the element offset of the
// current element in every view, so one loop serves all of these cases.
//
// It is written to be read, not to be fast: a real backend merges contiguous dims, vectorises
// the innermost one and splits the work over threads (see backends/cpu/strided.hpp).
// Nothing here allocates, locks or throws.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernforge/plugin.h"

namespace toy {

/// Calls f(offsets) once per element of views[0]'s shape, in row-major order, where offsets[k]
/// is the element's offset (in elements) in views[k]. A view with fewer dims than views[0] is
/// aligned to the right (its missing leading dims repeat it, as in broadcasting).
template <size_t N, class F>
void for_each_element(const kf_tensor_view_t* const (&views)[N], F&& f) {
  const kf_tensor_view_t& shape_of = *views[0];
  const int32_t ndim = shape_of.ndim;
  if (shape_of.numel <= 0) return;  // nothing to visit (a size-0 dim)
  int64_t strides[N][KF_MAX_NDIM] = {};
  for (size_t k = 0; k < N; ++k) {
    const int32_t lead = ndim - views[k]->ndim;  // dims view k lacks, on the left
    for (int32_t d = lead < 0 ? 0 : lead; d < ndim; ++d) {
      strides[k][d] = views[k]->strides[d - lead];
    }
  }
  int64_t index[KF_MAX_NDIM] = {};
  int64_t offsets[N] = {};
  for (int64_t n = 0; n < shape_of.numel; ++n) {
    f(static_cast<const int64_t*>(offsets));
    // Steps to the next element: the last dim first, carrying into the ones before it.
    for (int32_t d = ndim - 1; d >= 0; --d) {
      if (++index[d] < shape_of.shape[d]) {
        for (size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
        break;
      }
      index[d] = 0;
      for (size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * (shape_of.shape[d] - 1);
    }
  }
}

/// Element `offset` of view `v` as a T (T must be the view's element type).
template <class T>
T& element(const kf_tensor_view_t& v, int64_t offset) {
  return static_cast<T*>(v.data)[offset];
}

}  // namespace toy
