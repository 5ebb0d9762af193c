// register_kernels: every op family of the shared kernels, for the backend's dtypes.
#include "clkernels/kernels.hpp"
#include "kernforge/plugin_families.hpp"
#include "ops.hpp"

namespace kf::clk {

kf_status_t register_kernels(const kf_registrar_t* registrar, uint32_t dtype_mask,
                             bool devices_read_back, bool native_sorts) {
  kf_status_t s = kf::plugin::register_families(
      registrar,
      {register_copy_ops, register_fill_ops, register_binary_ops, register_unary_ops,
       register_linalg_ops, register_softmax_ops, register_reduce_ops, register_scan_ops},
      dtype_mask);
  if (s == KF_OK && native_sorts) {
    s = kf::plugin::register_families(registrar, {register_sort_ops}, dtype_mask);
  }
  if (s != KF_OK || !devices_read_back) return s;
  return kf::plugin::register_families(registrar, {register_index_ops}, dtype_mask);
}

}  // namespace kf::clk
