#include "kernforge/scalar.hpp"
#include "run.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace kf::clk {

Device& device_of(const kf_kernel_call_t& call, const kf_tensor_view_t& on) {
  auto* backend = static_cast<Backend*>(call.plugin_state);
  Device* device = backend != nullptr ? backend->device(on.device.index) : nullptr;
  if (device == nullptr) {
    throw kf::plugin::KernelError(
        KF_INVALID_ARGUMENT, "no device " + std::to_string(on.device.index) + " on backend " +
                                 (backend != nullptr ? backend->name() : "(no state)"));
  }
  return *device;
}

void run(const kf_kernel_call_t& call, Device& device, const Launch& launch) {
  std::string error;
  const kf_status_t s = device.launch(launch, call.stream, error);
  if (s != KF_OK) throw kf::plugin::KernelError(s, error);
}

void set_range_1d(Launch& launch, const Device& device, int64_t n) {
  size_t local = 256;
  const size_t max = device.capabilities().max_work_group;
  while (local > max && local > 1) local /= 2;
  const size_t items = static_cast<size_t>(n);
  launch.dims = 1;
  launch.local[0] = local;
  launch.global[0] = (items + local - 1) / local * local;
}

// The core's meta has converted every scalar an op takes by Note [Scalars to dtypes]: it is a
// value of the kernel's dtype, so a float for an integer dtype is finite and within range.
// kernforge/scalar.hpp reads it without a C cast of an out-of-range double (undefined
// behaviour): `i` is unused for a floating dtype.
ComputeScalar compute_scalar(int32_t dtype, const kf_scalar_t& s) {
  const double f = scalar_real(s);
  const int64_t i = scalar_int64(s);  // an integer's bits (uint64's too), a float truncated
  ComputeScalar c;
  std::memset(&c, 0, sizeof c);
  // By the dtype's kind and bytes (kernforge/dtypes.hpp): complex as two parts, the floats
  // compute in double or float, bool is a 0/1 byte, and an integer is the two's-complement
  // bits of its width, the same for a signed and an unsigned dtype.
  const char kind = dtype_kind(dtype);
  if (kind == 'c') {  // float2 or double2, real part first
    if (dtype_bytes(dtype) == 16) {
      c.v.c128[0] = f;
      c.v.c128[1] = scalar_imag(s);
      c.size = 16;
    } else {
      c.v.c64[0] = static_cast<float>(f);
      c.v.c64[1] = static_cast<float>(scalar_imag(s));
      c.size = 8;
    }
    return c;
  }
  if (kind == 'f') {
    if (dtype_bytes(dtype) == 8) {
      c.v.f64 = f;
      c.size = 8;
    } else {
      c.v.f32 = static_cast<float>(f);
      c.size = 4;
    }
    return c;
  }
  if (kind == 'b') {
    c.v.u8 = scalar_truth(s) ? 1 : 0;
    c.size = 1;
    return c;
  }
  switch (dtype_bytes(dtype)) {
    case 1: c.v.i8 = static_cast<int8_t>(i); c.size = 1; break;
    case 2: c.v.i16 = static_cast<int16_t>(i); c.size = 2; break;
    case 4: c.v.i32 = static_cast<int32_t>(i); c.size = 4; break;
    default: c.v.i64 = i; c.size = 8; break;
  }
  return c;
}

const char* short_name(int32_t dtype) noexcept {
  switch (dtype) {
#define KF_CLK_SHORT(suffix, value, name, short_name, bytes, kind, cpp_name) \
  case value: return short_name;
    KF_DTYPE_LIST(KF_CLK_SHORT)
#undef KF_CLK_SHORT
    default: return "unknown";
  }
}

void run_elementwise(const kf_kernel_call_t& call, ProgramKey program, const char* op,
                     std::initializer_list<const kf_tensor_view_t*> views,
                     std::initializer_list<Arg> values) {
  const kf_tensor_view_t& out = **views.begin();
  if (out.numel == 0) return;
  Device& device = device_of(call, out);
  bool dense = false;
  const KernelLayout layout =
      merged_layout(views.begin(), static_cast<int32_t>(views.size()), &dense);
  char name[64];
  std::snprintf(name, sizeof name, "%s_%s", op, dense ? "contig" : "strided");
  Launch launch;
  launch.program = program;
  launch.kernel = name;
  for (const kf_tensor_view_t* v : views) launch.arg(pointer_arg(v->data));
  for (const Arg& a : values) launch.arg(a);
  const int64_t n = out.numel;
  launch.arg(value_arg(n));
  if (!dense) launch.arg(value_arg(layout));
  set_range_1d(launch, device, n);
  run(call, device, launch);
}

}  // namespace kf::clk
