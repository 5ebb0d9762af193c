// vendor_ops.cpp — the cuda backend's own op families (gpukernels' vendor_ops.hpp): cuSOLVER's
// linear algebra and cuFFT's transforms (solver_ops.hpp).
#include "vendor_ops.hpp"

#include "kernforge/plugin_families.hpp"
#include "solver_ops.hpp"

namespace kf::cuda {

kf_status_t register_vendor_ops(const kf_registrar_t* reg) {
  return kf::plugin::register_families(reg, {register_solver_factor_ops,
                                             register_solver_eigh_ops, register_solver_svd_ops,
                                             register_fft_ops});
}

}  // namespace kf::cuda
