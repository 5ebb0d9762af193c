// Composite memory ops: contiguous and clone (allocation plus copy_).
#include "core/error.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {

kf_status_t clone(const kf_value_t* args, kf_tensor_t* outs) {
  TensorImpl& t = *args[0].v.tensor;
  kf_tensor_t out = nullptr;
  KF_RETURN_IF_ERROR(kf_tensor_empty(t.shape, t.ndim, t.dtype, t.device, &out));
  const kf_status_t s = kf_copy_(out, &t);
  if (s != KF_OK) {
    kf_tensor_release(out);
    return s;
  }
  outs[0] = out;
  return KF_OK;
}

kf_status_t contiguous(const kf_value_t* args, kf_tensor_t* outs) {
  TensorImpl& t = *args[0].v.tensor;
  if (!is_contiguous(t)) return clone(args, outs);
  retain(&t);
  outs[0] = &t;
  return KF_OK;
}

}  // namespace kf::composite
