// slots.cpp — see slots.hpp.
#include "slots.hpp"

#include <cstring>
#include <new>
#include <string>

#include "clkernels/kernels.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"
#include "guarded.hpp"
#include "runtime.hpp"
#include "ze_result.hpp"

#ifndef KF_XPU_VERSION
#define KF_XPU_VERSION "0.0.0"
#endif

namespace kf::xpu {
namespace {

/// Runs `body` and turns what it throws into a status and the host's message.
XpuDevice& device_of(void* state, int32_t device) { return runtime_of(state)->at(device); }

void require(bool ok, const std::string& message) {
  if (!ok) throw ZeError(KF_INVALID_ARGUMENT, "xpu: " + message);
}

int32_t xpu_score(void) { return 1; }  // cheap: no driver is touched before init

void xpu_shutdown(void* state) { delete runtime_of(state); }

int32_t xpu_device_count(void* state) { return runtime_of(state)->count(); }

kf_status_t xpu_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
  return guarded("device_properties", [&] {
    require(out != nullptr, "device_properties without an output");
    const DeviceInfo& info = device_of(state, device).info();
    std::memset(out->name, 0, sizeof(out->name));
    std::strncpy(out->name, info.name.c_str(), sizeof(out->name) - 1);
    out->total_memory = info.total_memory;
    out->compute_units = info.compute_units;
  });
}

kf_status_t xpu_allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
  return guarded("allocate", [&] {
    require(out_ptr != nullptr, "allocate without an output");
    *out_ptr = nullptr;
    *out_ptr = device_of(state, device).allocate(bytes);
  });
}

void xpu_deallocate(void* state, int32_t device, void* ptr, size_t /*bytes*/) {
  XpuDevice* d = static_cast<XpuDevice*>(runtime_of(state)->device(device));
  if (d != nullptr) d->deallocate(ptr);
}

void check_copy(void* dst, const void* src, size_t bytes, int32_t kind) {
  require(kind >= KF_COPY_HOST_TO_DEVICE && kind <= KF_COPY_DEVICE_TO_DEVICE,
          "unknown copy kind " + std::to_string(kind));
  require(bytes == 0 || (dst != nullptr && src != nullptr),
          "copy of " + std::to_string(bytes) + " bytes with a null pointer");
}

kf_status_t xpu_copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                     int32_t kind) {
  return guarded("copy", [&] {
    check_copy(dst, src, bytes, kind);
    XpuDevice& d = device_of(state, device);
    if (bytes > 0 && dst != src) d.copy(dst, src, bytes);
  });
}

kf_status_t xpu_copy_async(void* state, int32_t device, void* dst, const void* src,
                           size_t bytes, int32_t kind, void* stream) {
  return guarded("copy_async", [&] {
    check_copy(dst, src, bytes, kind);
    XpuDevice& d = device_of(state, device);
    if (bytes > 0 && dst != src) d.copy_async(dst, src, bytes, stream);
  });
}

kf_status_t xpu_memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes) {
  return guarded("memset", [&] {
    require(bytes == 0 || dst != nullptr, "memset of " + std::to_string(bytes) + " bytes at null");
    XpuDevice& d = device_of(state, device);
    if (bytes > 0) d.memset(dst, value, bytes);
  });
}

kf_status_t xpu_synchronize(void* state, int32_t device) {
  return guarded("synchronize", [&] { device_of(state, device).synchronize(); });
}

// With state NULL (unavailable: plugin ABI 2.2's list of what it would run) every dtype the
// kernels have, as on a device with float64.
kf_status_t xpu_register_kernels(void* state, const kf_registrar_t* registrar) {
  const uint32_t mask = state != nullptr ? runtime_of(state)->dtype_mask() : ~0u;
  return kf::clk::register_kernels(registrar, mask);  // the families
}

kf_status_t xpu_describe(void* state, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  return guarded("describe", [&] {
    const std::string text = runtime_of(state)->describe();
    std::strncpy(buf, text.c_str(), cap - 1);
    buf[cap - 1] = '\0';
  });
}

}  // namespace

// Streams, events and host memory: slots_async.cpp.
void fill_async_slots(kf_plugin_t& p) noexcept;

kf_status_t init_runtime(const ZeApi& ze, ModuleLibrary library, const char* filter,
                         const kf_host_api_t* host, void** out_state) noexcept {
  kf::plugin::host() = host;
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = nullptr;
  return guarded("init", [&] {
    std::unique_ptr<Runtime> runtime = Runtime::create(ze, library, filter);
    *out_state = static_cast<kf::clk::Backend*>(runtime.release());
  });
}

kf_plugin_t make_plugin(kf_status_t (*init)(const kf_host_api_t*, void**)) noexcept {
  kf_plugin_t p = kf::plugin::table("xpu", KF_XPU_VERSION);
  p.score = xpu_score;
  p.init = init;
  p.shutdown = xpu_shutdown;
  p.device_count = xpu_device_count;
  p.device_properties = xpu_device_properties;
  p.allocate = xpu_allocate;
  p.deallocate = xpu_deallocate;
  p.copy = xpu_copy;
  p.memset = xpu_memset;
  p.synchronize = xpu_synchronize;
  p.register_kernels = xpu_register_kernels;
  p.describe = xpu_describe;
  p.copy_async = xpu_copy_async;
  fill_async_slots(p);
  return p;
}

}  // namespace kf::xpu
