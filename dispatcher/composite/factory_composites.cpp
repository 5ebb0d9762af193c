// Composite creation ops: empty (core allocation, no kernel) and the *_like family.
#include "core/error.hpp"
#include "dispatch/boxing.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

kf_dtype_t dtype_arg(const kf_value_t& v, kf_dtype_t d) {
  return v.tag == KF_VALUE_NONE ? d : v.v.dtype;
}

}  // namespace

kf_status_t empty(const kf_value_t* args, kf_tensor_t* outs) {
  const kf_device_t dev = args[2].tag == KF_VALUE_NONE ? kf_device_cpu() : args[2].v.device;
  return kf_tensor_empty(args[0].v.ints.data, args[0].v.ints.len,
                         dtype_arg(args[1], KF_FLOAT32), dev, &outs[0]);
}

kf_status_t empty_like(const kf_value_t* args, kf_tensor_t* outs) {
  const TensorImpl& t = *args[0].v.tensor;
  return kf_tensor_empty(t.shape, t.ndim, dtype_arg(args[1], t.dtype), t.device, &outs[0]);
}

kf_status_t zeros_like(const kf_value_t* args, kf_tensor_t* outs) {
  const TensorImpl& t = *args[0].v.tensor;
  return kf_zeros(t.shape, t.ndim, dtype_arg(args[1], t.dtype), t.device, &outs[0]);
}

kf_status_t ones_like(const kf_value_t* args, kf_tensor_t* outs) {
  const TensorImpl& t = *args[0].v.tensor;
  return kf_ones(t.shape, t.ndim, dtype_arg(args[1], t.dtype), t.device, &outs[0]);
}

kf_status_t full_like(const kf_value_t* args, kf_tensor_t* outs) {
  const TensorImpl& t = *args[0].v.tensor;
  return kf_full(t.shape, t.ndim, args[1].v.scalar, dtype_arg(args[2], t.dtype), t.device,
                 &outs[0]);
}

}  // namespace kf::composite
