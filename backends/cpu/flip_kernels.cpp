// flip_kernels.cpp — flip: self read through its flipped view (kernforge/flipped_view.hpp: it
// starts at the last entry of every flipped dim and walks it with the stride negated), copied into
// the output by copy_elements (the strided plan keeps the output in memory order; a row flipped in
// its last dim is read backwards).
#include "copy_elements.hpp"
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "kernforge/flipped_view.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

void flip_kernel(const ops::flip::Args& a) {
  check_ndim(a.self);
  int64_t strides[KF_MAX_NDIM];
  copy_elements(a.out, kf::plugin::flipped_view(a.self, a.dims.data, a.dims.len, strides), "flip");
}

}  // namespace

kf_status_t register_flip_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, flip, flip_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::cpu
