// copy_ops.cpp — copy_ and to_dtype on CUDA: element conversion between any two of the ten
// dtypes (copy.cu; Note [Conversions] in convert.cuh), as the CPU backend's copy_kernels.cpp.
// copy_'s src arrives broadcast to self's shape but not converted; its output aliases self and
// may be any strided view. Partial overlaps of self and src never reach the kernel (the core
// reads such a src from a copy); src exactly self is a no-op. flip is the same copy from self's
// flipped view (kernforge/flipped_view.hpp: negative strides, which the launchers' signed offsets
// take).
#include <string>

#include "copy_launch.hpp"
#include "cuda_dtypes.hpp"
#include "kernel_scope.hpp"
#include "kernforge/flipped_view.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kCopyMask = kCudaDtypes;  // the CPU's kAllMask

void require_same_device(const kf_tensor_view_t& out, const kf_tensor_view_t& src,
                         const char* op) {
  if (src.device.type != out.device.type || src.device.index != out.device.index) {
    throw kf::plugin::KernelError(
        KF_INTERNAL, std::string(op) + ": the source is on another device than the output (the "
                                       "core should have moved it; use kf_tensor_to)");
  }
}

void convert_into(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
                  const kf_tensor_view_t& src, const char* op) {
  KernelScope scope(call, out);
  require_same_device(out, src, op);
  if (out.numel == 0) return;
  launch_convert(make_operands({&out, &src}), out.dtype, src.dtype, scope.stream());
  scope.check(op);
}

void copy__kernel(const ops::copy_::Args& a) { convert_into(a.call, a.out, a.src, "copy_"); }

void to_dtype_kernel(const ops::to_dtype::Args& a) {
  if (a.out.dtype != a.dtype) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("to_dtype: the output has dtype ") +
                                                   kf_dtype_string(a.out.dtype) + ", expected " +
                                                   kf_dtype_string(a.dtype));
  }
  convert_into(a.call, a.out, a.self, "to_dtype");
}

void flip_kernel(const ops::flip::Args& a) {
  int64_t strides[KF_MAX_NDIM];
  convert_into(a.call, a.out, kf::plugin::flipped_view(a.self, a.dims.data, a.dims.len, strides),
               "flip");
}

}  // namespace

kf_status_t register_copy_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, copy_, copy__kernel, kCopyMask);
  KF_REGISTER_KERNEL(reg, to_dtype, to_dtype_kernel, kCopyMask);
  KF_REGISTER_KERNEL(reg, flip, flip_kernel, kCopyMask);
  return KF_OK;
}

}  // namespace kf::cuda
