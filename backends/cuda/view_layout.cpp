// The views the solver and FFT glue copies through (view_layout.hpp).
#include "view_layout.hpp"

#include <string>

#include "kernforge/plugin.hpp"
#include "kernforge/types.h"

namespace kf::cuda {

ViewLayout as_bits(const ViewLayout& v) {
  ViewLayout out = v;
  if (v.dtype == KF_COMPLEX64) {
    out.dtype = KF_FLOAT64;
  } else if (v.dtype == KF_COMPLEX128) {
    if (v.shape.size() + 1 > KF_MAX_NDIM) {
      throw kf::plugin::KernelError(
          KF_UNIMPLEMENTED, "a complex128 copy of " + std::to_string(v.shape.size()) +
                                " dims on cuda needs one more than KF_MAX_NDIM; reshape the "
                                "tensor to fewer dims first");
    }
    out.dtype = KF_FLOAT64;
    for (int64_t& s : out.strides) s *= 2;
    out.shape.push_back(2);
    out.strides.push_back(1);
  }
  return out;
}

std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& strides,
                                       const std::vector<int64_t>& target) {
  if (shape.size() > target.size()) {
    throw kf::plugin::KernelError(KF_INTERNAL, "broadcast_strides: " +
                                                   std::to_string(shape.size()) + " dims onto " +
                                                   std::to_string(target.size()));
  }
  std::vector<int64_t> out(target.size(), 0);
  const size_t lead = target.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool steps = shape[d] == target[lead + d] && shape[d] != 1;
    out[lead + d] = steps ? strides[d] : 0;
  }
  return out;
}

ViewLayout matrix_batch(const std::vector<int64_t>& batch_shape, int64_t rows, int64_t cols,
                        bool column_major, int32_t dtype) {
  ViewLayout v;
  v.dtype = dtype;
  v.shape = batch_shape;
  v.shape.push_back(rows);
  v.shape.push_back(cols);
  v.strides.assign(v.shape.size(), 0);
  int64_t step = rows * cols;
  for (size_t d = batch_shape.size(); d-- > 0;) {
    v.strides[d] = step;
    step *= batch_shape[d];
  }
  v.strides[batch_shape.size()] = column_major ? 1 : cols;
  v.strides[batch_shape.size() + 1] = column_major ? rows : 1;
  return v;
}

ViewLayout dense_layout(const std::vector<int64_t>& shape, int32_t dtype) {
  ViewLayout v;
  v.dtype = dtype;
  v.shape = shape;
  v.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) v.strides[d - 1] = v.strides[d] * shape[d];
  return v;
}

int64_t product_of(const std::vector<int64_t>& shape) {
  int64_t p = 1;
  for (int64_t s : shape) p *= s;
  return p;
}

}  // namespace kf::cuda
