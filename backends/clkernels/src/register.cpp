// register_kernels: every op family of the shared kernels, for the backend's dtypes.
#include "clkernels/kernels.hpp"
#include "ops.hpp"

namespace kf::clk {

kf_status_t register_kernels(const kf_registrar_t* registrar, uint32_t dtype_mask) {
  if (registrar == nullptr || registrar->register_kernel == nullptr) return KF_INVALID_ARGUMENT;
  kf_status_t (*const families[])(const kf_registrar_t*, uint32_t) = {
      register_copy_ops, register_fill_ops, register_binary_ops, register_unary_ops,
      register_linalg_ops, register_softmax_ops, register_reduce_ops};
  for (auto family : families) {
    const kf_status_t s = family(registrar, dtype_mask);
    if (s != KF_OK) return s;
  }
  return KF_OK;
}

}  // namespace kf::clk
