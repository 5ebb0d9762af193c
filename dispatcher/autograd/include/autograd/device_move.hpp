// A move of a tensor to another device (kf_tensor_to), recorded: the copy of a tensor that
// requires grad gets a node whose backward moves the gradient back to the source's device, so
// gradients flow across devices as they do across ops.
#pragma once

#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

/// t on `device` in `dtype` (KF_DTYPE_UNDEFINED: t's), as kf_tensor_to makes it; where grad
/// mode is on, t requires grad and the device changes, the result has a "to" node (and the
/// dtype conversion after the move records as to_dtype). Returns a new reference.
TensorImpl* to_recorded(TensorImpl& t, kf_device_t device, kf_dtype_t dtype);

}  // namespace kf::autograd
