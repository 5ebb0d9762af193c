// full, zeros, ones, fill_, arange, linspace, eye (kernels/fill.cl).
#include <cmath>

#include "kernforge/scalar.hpp"
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {

void fill_with(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
               const kf_scalar_t& value) {
  const ComputeScalar c = compute_scalar(out.dtype, value);
  run_elementwise(call, {Family::Fill, out.dtype}, "fill", {&out}, {c.arg()});
}

namespace {

namespace ops = kf::plugin::ops;

void full_kernel(const ops::full::Args& a) { fill_with(a.call, a.out, a.fill_value); }
void zeros_kernel(const ops::zeros::Args& a) { fill_with(a.call, a.out, kf_scalar_i64(0)); }
void ones_kernel(const ops::ones::Args& a) { fill_with(a.call, a.out, kf_scalar_i64(1)); }
void fill__kernel(const ops::fill_::Args& a) { fill_with(a.call, a.out, a.value); }

double as_double(const kf_scalar_t& s) { return scalar_real(s); }

int64_t as_int64(const kf_scalar_t& s) { return scalar_int64(s); }

/// start and step in the kernel's KF_RANGE type: double, float (no fp64) or int64.
struct RangeValues {
  union { double f64; float f32; int64_t i64; } start, step;
  size_t size;
};

RangeValues range_values(const ops::arange::Args& a, const Device& device) {
  RangeValues r{};
  const bool floating = is_floating_dtype(a.out.dtype);
  if (!floating) {
    r.start.i64 = as_int64(a.start);
    r.step.i64 = as_int64(a.step);
    r.size = 8;
  } else if (device.capabilities().fp64) {
    r.start.f64 = as_double(a.start);
    r.step.f64 = as_double(a.step);
    r.size = 8;
  } else {
    r.start.f32 = static_cast<float>(as_double(a.start));
    r.step.f32 = static_cast<float>(as_double(a.step));
    r.size = 4;
  }
  return r;
}

void arange_kernel(const ops::arange::Args& a) {
  const int64_t n = a.out.numel;
  if (n == 0) return;
  Device& device = device_of(a.call, a.out);
  const RangeValues r = range_values(a, device);
  const int64_t stride = a.out.ndim >= 1 ? a.out.strides[0] : 1;
  Launch launch;
  launch.program = {Family::Fill, a.out.dtype};
  launch.kernel = "arange";
  launch.arg(pointer_arg(a.out.data))
      .arg(Arg{Arg::kValue, nullptr, &r.start, r.size})
      .arg(Arg{Arg::kValue, nullptr, &r.step, r.size})
      .arg(value_arg(n))
      .arg(value_arg(stride));
  set_range_1d(launch, device, n);
  run(a.call, device, launch);
}

/// A linspace bound as a double: an integer dtype's value truncated first (the CPU backend
/// converts it to the dtype; the meta checked that it fits).
double linspace_bound(const kf_scalar_t& s, int32_t dtype) {
  const double v = as_double(s);
  return is_floating_dtype(dtype) ? v : std::trunc(v);
}

void linspace_kernel(const ops::linspace::Args& a) {
  const int64_t n = a.out.numel;
  if (n == 0) return;
  Device& device = device_of(a.call, a.out);
  const double start = linspace_bound(a.start, a.out.dtype);
  const double end = linspace_bound(a.end, a.out.dtype);
  const float start_f32 = static_cast<float>(start), end_f32 = static_cast<float>(end);
  const bool fp64 = device.capabilities().fp64;
  const int64_t stride = a.out.ndim >= 1 ? a.out.strides[0] : 1;
  Launch launch;
  launch.program = {Family::Fill, a.out.dtype};
  launch.kernel = "linspace";
  launch.arg(pointer_arg(a.out.data))
      .arg(fp64 ? value_arg(start) : value_arg(start_f32))
      .arg(fp64 ? value_arg(end) : value_arg(end_f32))
      .arg(value_arg(n))
      .arg(value_arg(stride));
  set_range_1d(launch, device, n);
  run(a.call, device, launch);
}

void eye_kernel(const ops::eye::Args& a) {
  const int64_t n = a.out.numel;
  if (n == 0) return;
  Device& device = device_of(a.call, a.out);
  const int64_t rows = a.out.shape[0], cols = a.out.shape[1];
  Launch launch;
  launch.program = {Family::Fill, a.out.dtype};
  launch.kernel = "eye";
  launch.arg(pointer_arg(a.out.data))
      .arg(value_arg(rows))
      .arg(value_arg(cols))
      .arg(value_arg(a.out.strides[0]))
      .arg(value_arg(a.out.strides[1]));
  set_range_1d(launch, device, n);
  run(a.call, device, launch);
}

}  // namespace

kf_status_t register_fill_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, full, full_kernel, kAllMask);
  KF_CLK_REGISTER(reg, zeros, zeros_kernel, kAllMask);
  KF_CLK_REGISTER(reg, ones, ones_kernel, kAllMask);
  KF_CLK_REGISTER(reg, fill_, fill__kernel, kAllMask);
  KF_CLK_REGISTER(reg, arange, arange_kernel, kNumericMask);
  KF_CLK_REGISTER(reg, linspace, linspace_kernel, kNumericMask);
  KF_CLK_REGISTER(reg, eye, eye_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
