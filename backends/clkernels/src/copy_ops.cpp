// copy_ and to_dtype (kernels/copy.cl): the program of the destination's dtype, the kernel of
// the source's (copy_from_<short name>). copy_'s src arrives broadcast to self's shape in its
// own dtype; its output aliases self and may be any strided view. flip is the same copy from
// self's flipped view (kernforge/flipped_view.hpp: negative strides over SVM pointers; the
// kernels' offsets are signed).
#include <cstdio>
#include <string>

#include "kernforge/flipped_view.hpp"
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {

void copy_converting(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
                     const kf_tensor_view_t& src) {
  char op[32];
  std::snprintf(op, sizeof op, "copy_from_%s", short_name(src.dtype));
  run_elementwise(call, {Family::Copy, out.dtype}, op, {&out, &src}, {});
}

namespace {

namespace ops = kf::plugin::ops;

void copy__kernel(const ops::copy_::Args& a) { copy_converting(a.call, a.out, a.src); }

void to_dtype_kernel(const ops::to_dtype::Args& a) {
  if (a.out.dtype != a.dtype) {
    throw kf::plugin::KernelError(KF_INTERNAL, "to_dtype: the output's dtype is " +
                                                   std::to_string(a.out.dtype) +
                                                   ", not the dtype asked for");
  }
  copy_converting(a.call, a.out, a.self);
}

void flip_kernel(const ops::flip::Args& a) {
  int64_t strides[KF_MAX_NDIM];
  copy_converting(a.call, a.out,
                  kf::plugin::flipped_view(a.self, a.dims.data, a.dims.len, strides));
}

}  // namespace

kf_status_t register_copy_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, copy_, copy__kernel, kAllMask);
  KF_CLK_REGISTER(reg, to_dtype, to_dtype_kernel, kAllMask);
  KF_CLK_REGISTER(reg, flip, flip_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
