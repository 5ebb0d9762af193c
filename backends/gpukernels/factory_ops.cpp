// factory_ops.cpp — full, zeros, ones, fill_, arange, linspace and eye on CUDA, as the CPU
// backend's factory_kernels.cpp (and fill_ of index_kernels.cpp). The core allocates the
// output (a strided view for out= and for fill_'s self); these kernels only write it. Scalars
// convert as the CPU's scalar_to<T>: int64 and bool exactly, float64 as a double
// (Note [Conversions] in convert.cuh); fill_'s range checks are the core's (meta fill).
#include <cstdint>
#include <string>

#include "cuda_dtypes.hpp"
#include "factory_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/scalar.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kFillMask = kCudaDtypes;  // the CPU's kAllMask
constexpr uint32_t kArangeMask = kRealDtypes;
constexpr uint32_t kLinspaceMask = kRealDtypes;
constexpr uint32_t kEyeMask = kCudaDtypes;

bool is_integral(int32_t dtype) { return ((kIntDtypes >> dtype) & 1u) != 0; }

void require_dtype_in(uint32_t mask, int32_t dtype, const char* op) {
  if (dtype < 0 || dtype >= KF_DTYPE_COUNT || ((mask >> dtype) & 1u) == 0) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string("dtype ") + kf_dtype_string(dtype) +
                                                        " is not supported by " KF_GPU_VENDOR " " +
                                                        op);
  }
}

/// The CPU's scalar_to<int64_t>: float64 truncates toward zero; NaN and values beyond int64
/// give int64's minimum.
int64_t scalar_to_i64(const kf_scalar_t& s) { return scalar_int64(s); }

double scalar_to_f64(const kf_scalar_t& s) { return scalar_real(s); }

/// The CPU's scalar_to<T> for integer dtype `dtype` (the low bits of the int64), as a double.
double scalar_as_integer_dtype(const kf_scalar_t& s, int32_t dtype) {
  const int64_t v = scalar_to_i64(s);
  switch (dtype) {
    case KF_INT8: return static_cast<int8_t>(v);
    case KF_UINT8: return static_cast<uint8_t>(v);
    case KF_INT16: return static_cast<int16_t>(v);
    case KF_INT32: return static_cast<int32_t>(v);
    default: return static_cast<double>(v);
  }
}

void fill_with(const kf_kernel_call_t& call, const kf_tensor_view_t& out, const kf_scalar_t& v,
               const char* op) {
  require_dtype_in(kFillMask, out.dtype, op);
  KernelScope scope(call, out);
  if (out.numel == 0) return;
  launch_fill(make_operands({&out}), out.dtype, number_of(v), scope.stream());
  scope.check(op);
}

void full_kernel(const ops::full::Args& a) { fill_with(a.call, a.out, a.fill_value, "full"); }
void zeros_kernel(const ops::zeros::Args& a) {
  fill_with(a.call, a.out, kf_scalar_i64(0), "zeros");
}
void ones_kernel(const ops::ones::Args& a) { fill_with(a.call, a.out, kf_scalar_i64(1), "ones"); }
void fill__kernel(const ops::fill_::Args& a) { fill_with(a.call, a.out, a.value, "fill_"); }

void arange_kernel(const ops::arange::Args& a) {
  require_dtype_in(kArangeMask, a.out.dtype, "arange");
  KernelScope scope(a.call, a.out);
  ArangeLaunch l;
  l.data = a.out.data;
  l.dtype = a.out.dtype;
  l.n = a.out.numel;
  l.stride = a.out.ndim >= 1 ? a.out.strides[0] : 1;
  l.integral = is_integral(a.out.dtype) ? 1 : 0;
  if (l.integral) {
    l.start_i = scalar_to_i64(a.start);
    l.step_i = scalar_to_i64(a.step);
  } else {
    l.start_f = scalar_to_f64(a.start);
    l.step_f = scalar_to_f64(a.step);
  }
  if (l.n == 0) return;
  launch_arange(l, scope.stream());
  scope.check("arange");
}

void linspace_kernel(const ops::linspace::Args& a) {
  require_dtype_in(kLinspaceMask, a.out.dtype, "linspace");
  KernelScope scope(a.call, a.out);
  LinspaceLaunch l;
  l.data = a.out.data;
  l.dtype = a.out.dtype;
  l.n = a.out.numel;
  if (l.n == 0) return;
  l.stride = a.out.ndim >= 1 ? a.out.strides[0] : 1;
  if (is_integral(a.out.dtype)) {  // the dtype's values of start and end, as the CPU
    l.start = scalar_as_integer_dtype(a.start, a.out.dtype);
    l.end = scalar_as_integer_dtype(a.end, a.out.dtype);
  } else {
    l.start = scalar_to_f64(a.start);
    l.end = scalar_to_f64(a.end);
  }
  l.step = l.n > 1 ? (l.end - l.start) / static_cast<double>(l.n - 1) : 0.0;
  launch_linspace(l, scope.stream());
  scope.check("linspace");
}

void eye_kernel(const ops::eye::Args& a) {
  require_dtype_in(kEyeMask, a.out.dtype, "eye");
  if (a.out.ndim != 2) {
    throw kf::plugin::KernelError(KF_INTERNAL, "eye: the output is not 2-D");
  }
  KernelScope scope(a.call, a.out);
  EyeLaunch l;
  l.data = a.out.data;
  l.dtype = a.out.dtype;
  l.rows = a.out.shape[0];
  l.cols = a.out.shape[1];
  l.row_stride = a.out.strides[0];
  l.col_stride = a.out.strides[1];
  if (a.out.numel == 0) return;
  launch_eye(l, scope.stream());
  scope.check("eye");
}

}  // namespace

kf_status_t register_factory_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, full, full_kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, zeros, zeros_kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, ones, ones_kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, fill_, fill__kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, arange, arange_kernel, kArangeMask);
  KF_REGISTER_KERNEL(reg, linspace, linspace_kernel, kLinspaceMask);
  KF_REGISTER_KERNEL(reg, eye, eye_kernel, kEyeMask);
  return KF_OK;
}

}  // namespace kf::cuda
