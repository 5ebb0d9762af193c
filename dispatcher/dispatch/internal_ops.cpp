#include "dispatch/internal_ops.hpp"

#include "core/error.hpp"
#include "kernforge/kernforge.h"

namespace kf {

TensorImpl* op_to_dtype(TensorImpl& t, kf_dtype_t dtype) {
  kf_tensor_t out = nullptr;
  check_status(kf_to_dtype(&t, dtype, &out), "");
  return out;
}

TensorImpl* op_contiguous(TensorImpl& t) {
  kf_tensor_t out = nullptr;
  check_status(kf_contiguous(&t, &out), "");
  return out;
}

TensorImpl* op_expand(TensorImpl& t, const int64_t* shape, int32_t ndim) {
  kf_tensor_t out = nullptr;
  check_status(kf_expand(&t, shape, ndim, &out), "");
  return out;
}

void op_copy_into(TensorImpl& dst, TensorImpl& src) { check_status(kf_copy_(&dst, &src), ""); }

TensorImpl* op_to_device(TensorImpl& t, kf_device_t device) {
  kf_tensor_t out = nullptr;
  check_status(kf_tensor_to(&t, device, KF_DTYPE_UNDEFINED, &out), "");
  return out;
}

}  // namespace kf
