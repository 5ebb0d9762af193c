// Ops the dispatcher itself needs while preparing a call (conversions, copies), run through
// the same dispatch as any other call. Each returns a new reference or throws kf::Error.
#pragma once

#include "tensor/tensor_impl.hpp"

namespace kf {

TensorImpl* op_to_dtype(TensorImpl& t, kf_dtype_t dtype);
TensorImpl* op_contiguous(TensorImpl& t);
TensorImpl* op_expand(TensorImpl& t, const int64_t* shape, int32_t ndim);
/// Copies `src` into `dst` (broadcast, converted), like copy_.
void op_copy_into(TensorImpl& dst, TensorImpl& src);
/// A copy of `t` on `device` (same dtype).
TensorImpl* op_to_device(TensorImpl& t, kf_device_t device);

}  // namespace kf
