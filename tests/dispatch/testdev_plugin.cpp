// testdev_plugin.cpp — the `testdev` backend of the dispatch tests: a device type the core does
// not know, with 2 devices whose memory is plain host memory (aligned_alloc). It registers only
// add (float32) and copy_/to_dtype (every dtype, what kf_tensor_to and clone need), so every
// other op or dtype on testdev goes through the CPU fallback.
//
// Test hooks: the test executable may export (extern "C", -rdynamic)
//   std::atomic<long long> kf_testdev_live_allocations[2];  // live blocks per device
//   std::atomic<long long> kf_testdev_add_calls;            // calls of the add kernel
// init() finds them with dlsym(RTLD_DEFAULT); without them the plugin counts into its own.
#include <dlfcn.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kernforge/plugin.hpp"

namespace kf::testdev {
namespace {

namespace ops = kf::plugin::ops;

constexpr int32_t kDevices = 2;
constexpr size_t kAlignment = 64;

std::atomic<long long> g_own_live[kDevices];
std::atomic<long long> g_own_add_calls{0};
std::atomic<long long>* g_live = g_own_live;
std::atomic<long long>* g_add_calls = &g_own_add_calls;

// ------------------------------------------------------------------ elements

size_t element_size(int32_t dtype) {
  switch (dtype) {
    case KF_FLOAT64: case KF_INT64: return 8;
    case KF_FLOAT32: case KF_INT32: return 4;
    case KF_FLOAT16: case KF_BFLOAT16: case KF_INT16: return 2;
    default: return 1;
  }
}

float f16_to_f32(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign != 0 ? -v : v;
  }
  const uint32_t x = exp == 31 ? (sign | 0x7f800000u | (mant << 13))
                               : (sign | ((exp - 15 + 127) << 23) | (mant << 13));
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t f32_to_f16(float f) {  // round to nearest even
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu);
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant != 0 ? 0x200u : 0u));
  const int32_t e = exp - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t half;
  uint32_t rem;
  uint32_t mid;
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    half = mant >> shift;
    rem = mant & ((1u << shift) - 1u);
    mid = 1u << (shift - 1);
  } else {
    half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    rem = mant & 0x1fffu;
    mid = 0x1000u;
  }
  if (rem > mid || (rem == mid && (half & 1u) != 0)) ++half;  // a carry may reach the exponent
  return static_cast<uint16_t>(sign | half);
}

float bf16_to_f32(uint16_t h) {
  const uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t f32_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// One element, read as a double (floating dtypes) or an int64 (integers and bool).
struct Value {
  bool floating;
  double f;
  int64_t i;
};

template <class T>
T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
void store(void* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

Value read(int32_t dtype, const void* p) {
  switch (dtype) {
    case KF_FLOAT32: return {true, load<float>(p), 0};
    case KF_FLOAT64: return {true, load<double>(p), 0};
    case KF_FLOAT16: return {true, f16_to_f32(load<uint16_t>(p)), 0};
    case KF_BFLOAT16: return {true, bf16_to_f32(load<uint16_t>(p)), 0};
    case KF_INT8: return {false, 0, load<int8_t>(p)};
    case KF_UINT8: return {false, 0, load<uint8_t>(p)};
    case KF_INT16: return {false, 0, load<int16_t>(p)};
    case KF_INT32: return {false, 0, load<int32_t>(p)};
    case KF_INT64: return {false, 0, load<int64_t>(p)};
    case KF_BOOL: return {false, 0, load<uint8_t>(p) != 0 ? 1 : 0};
    default:
      throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                    "testdev: unknown dtype " + std::to_string(dtype));
  }
}

void write(int32_t dtype, void* p, const Value& v) {
  const double f = v.floating ? v.f : static_cast<double>(v.i);
  // float to int truncates toward zero (then wraps like a C cast of the int64).
  const int64_t i = v.floating ? static_cast<int64_t>(std::trunc(v.f)) : v.i;
  switch (dtype) {
    case KF_FLOAT32: store(p, static_cast<float>(f)); return;
    case KF_FLOAT64: store(p, f); return;
    case KF_FLOAT16: store(p, f32_to_f16(static_cast<float>(f))); return;
    case KF_BFLOAT16: store(p, f32_to_bf16(static_cast<float>(f))); return;
    case KF_INT8: store(p, static_cast<int8_t>(i)); return;
    case KF_UINT8: store(p, static_cast<uint8_t>(i)); return;
    case KF_INT16: store(p, static_cast<int16_t>(i)); return;
    case KF_INT32: store(p, static_cast<int32_t>(i)); return;
    case KF_INT64: store(p, i); return;
    case KF_BOOL: store(p, static_cast<uint8_t>(v.floating ? f != 0.0 : v.i != 0)); return;
    default:
      throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                    "testdev: unknown dtype " + std::to_string(dtype));
  }
}

// ----------------------------------------------------------- strided loops

/// Address of element `idx` (out's shape) of view v, broadcast to out's rank (zero strides
/// where v has fewer dims).
char* address(const kf_tensor_view_t& v, const kf_tensor_view_t& out, const int64_t* idx) {
  int64_t off = 0;
  const int32_t lead = out.ndim - v.ndim;
  for (int32_t d = 0; d < v.ndim; ++d) {
    if (v.shape[d] != 1) off += idx[d + lead] * v.strides[d];
  }
  return static_cast<char*>(v.data) + off * static_cast<int64_t>(element_size(v.dtype));
}

/// Calls f(out_ptr, in_ptrs...) for every element of out, in row-major order.
template <class F, class... In>
void for_each(const kf_tensor_view_t& out, F f, const In&... in) {
  if (out.numel == 0) return;
  int64_t idx[KF_MAX_NDIM] = {};
  for (int64_t n = 0; n < out.numel; ++n) {
    f(address(out, out, idx), address(in, out, idx)...);
    for (int32_t d = out.ndim - 1; d >= 0; --d) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

void convert_into(const kf_tensor_view_t& out, const kf_tensor_view_t& src) {
  if (out.dtype == src.dtype) {
    const size_t size = element_size(out.dtype);
    for_each(out, [size](char* o, const char* s) { std::memmove(o, s, size); }, src);
    return;
  }
  for_each(out, [&](char* o, const char* s) { write(out.dtype, o, read(src.dtype, s)); }, src);
}

// ------------------------------------------------------------------ kernels

float alpha_f32(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_FLOAT64: return static_cast<float>(s.v.f64);
    case KF_SCALAR_INT64: return static_cast<float>(s.v.i64);
    default: return s.v.b ? 1.0f : 0.0f;
  }
}

void add_f32(const ops::add::Args& a) {
  g_add_calls->fetch_add(1, std::memory_order_relaxed);
  const float alpha = alpha_f32(a.alpha);
  for_each(a.out, [alpha](char* o, const char* x, const char* y) {
    store(o, load<float>(x) + alpha * load<float>(y));
  }, a.self, a.other);
}

void copy__kernel(const ops::copy_::Args& a) { convert_into(a.out, a.src); }

void to_dtype_kernel(const ops::to_dtype::Args& a) {
  if (a.out.dtype != a.dtype) {
    throw kf::plugin::KernelError(KF_INTERNAL, "testdev: to_dtype output has dtype " +
                                                   std::to_string(a.out.dtype) + ", expected " +
                                                   std::to_string(a.dtype));
  }
  convert_into(a.out, a.self);
}

// ------------------------------------------------------------------- plugin

kf_status_t bad_device(int32_t device) {
  kf::plugin::set_error("testdev: no device " + std::to_string(device) + " (it has " +
                        std::to_string(kDevices) + ")");
  return KF_INVALID_ARGUMENT;
}

kf_status_t td_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  if (void* live = dlsym(RTLD_DEFAULT, "kf_testdev_live_allocations")) {
    g_live = static_cast<std::atomic<long long>*>(live);
  }
  if (void* calls = dlsym(RTLD_DEFAULT, "kf_testdev_add_calls")) {
    g_add_calls = static_cast<std::atomic<long long>*>(calls);
  }
  if (out_state != nullptr) *out_state = nullptr;
  return KF_OK;
}

int32_t td_device_count(void* /*state*/) { return kDevices; }

kf_status_t td_device_properties(void* /*state*/, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr) return KF_INVALID_ARGUMENT;
  if (device < 0 || device >= kDevices) return bad_device(device);
  std::memset(out->name, 0, sizeof(out->name));
  std::strncpy(out->name, ("testdev:" + std::to_string(device)).c_str(), sizeof(out->name) - 1);
  out->total_memory = 1ull << 30;
  out->compute_units = 1;
  return KF_OK;
}

kf_status_t td_allocate(void* /*state*/, int32_t device, size_t bytes, void** out_ptr) {
  if (out_ptr == nullptr) return KF_INVALID_ARGUMENT;
  *out_ptr = nullptr;
  if (device < 0 || device >= kDevices) return bad_device(device);
  const size_t rounded =
      bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = rounded < bytes ? nullptr : std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) {
    kf::plugin::set_error("testdev: cannot allocate " + std::to_string(bytes) + " bytes");
    return KF_OUT_OF_MEMORY;
  }
  g_live[device].fetch_add(1, std::memory_order_relaxed);
  *out_ptr = p;
  return KF_OK;
}

void td_deallocate(void* /*state*/, int32_t device, void* ptr, size_t /*bytes*/) {
  if (ptr == nullptr) return;
  if (device >= 0 && device < kDevices) g_live[device].fetch_sub(1, std::memory_order_relaxed);
  std::free(ptr);
}

kf_status_t td_copy(void* /*state*/, int32_t device, void* dst, const void* src, size_t bytes,
                    int32_t kind) {
  if (device < 0 || device >= kDevices) return bad_device(device);
  if (kind < KF_COPY_HOST_TO_DEVICE || kind > KF_COPY_DEVICE_TO_DEVICE) {
    kf::plugin::set_error("testdev: unknown copy kind " + std::to_string(kind));
    return KF_INVALID_ARGUMENT;
  }
  if (bytes == 0 || dst == src) return KF_OK;
  if (dst == nullptr || src == nullptr) {
    kf::plugin::set_error("testdev: copy of " + std::to_string(bytes) + " bytes with a null "
                          "pointer");
    return KF_INVALID_ARGUMENT;
  }
  std::memmove(dst, src, bytes);
  return KF_OK;
}

kf_status_t td_memset(void* /*state*/, int32_t device, void* dst, int32_t value, size_t bytes) {
  if (device < 0 || device >= kDevices) return bad_device(device);
  if (bytes != 0) std::memset(dst, value, bytes);
  return KF_OK;
}

kf_status_t td_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  if (reg == nullptr || reg->register_kernel == nullptr) return KF_INVALID_ARGUMENT;
  KF_REGISTER_KERNEL(reg, add, add_f32, kf::plugin::dtypes({KF_FLOAT32}));
  KF_REGISTER_KERNEL(reg, copy_, copy__kernel, kf::plugin::kAllDtypes);
  KF_REGISTER_KERNEL(reg, to_dtype, to_dtype_kernel, kf::plugin::kAllDtypes);
  return KF_OK;
}

kf_plugin_t make_plugin() {
  kf_plugin_t p{};
  p.struct_size = sizeof(kf_plugin_t);
  p.abi_major = KF_PLUGIN_ABI_MAJOR;
  p.abi_minor = KF_PLUGIN_ABI_MINOR;
  p.name = "testdev";
  p.version = "0.0.1";
  p.device_type = "testdev";
  p.init = td_init;
  p.device_count = td_device_count;
  p.device_properties = td_device_properties;
  p.allocate = td_allocate;
  p.deallocate = td_deallocate;
  p.copy = td_copy;
  p.memset = td_memset;
  p.register_kernels = td_register_kernels;
  return p;
}

}  // namespace
}  // namespace kf::testdev

extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(uint32_t major, uint32_t minor) {
  (void)minor;
  if (major != KF_PLUGIN_ABI_MAJOR) return nullptr;
  static const kf_plugin_t plugin = kf::testdev::make_plugin();
  return &plugin;
}
