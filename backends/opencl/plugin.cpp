// plugin.cpp — the opencl backend's kf_plugin_t, the only exported symbol (kf_plugin_get).
//
// init discovers the devices (discovery.hpp), makes a context and a default queue for each
// (cl_device.hpp) and builds one program to prove the compiler takes the kernels; no platform,
// no usable device or a compiler that refuses them is KF_UNAVAILABLE with the reason. Kernels
// are the shared ones of backends/clkernels and the FFTs of fft_kernels.cpp; memory, copies,
// streams and events are in memory_slots.cpp and stream_slots.cpp.
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend.hpp"
#include "clkernels/kernels.hpp"
#include "fft_kernels.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"
#include "memory_slots.hpp"
#include "program_cache.hpp"
#include "stream_slots.hpp"

#ifndef KF_OPENCL_VERSION
#define KF_OPENCL_VERSION "0.0.0"
#endif
#ifndef KF_OPENCL_NAME
#define KF_OPENCL_NAME "opencl"  // the test builds of tests/opencl have names of their own
#endif

namespace kf::opencl {

void report(const std::string& message) { kf::plugin::set_error("opencl: " + message); }

ClDevice* device_or_report(void* state, int32_t index) {
  ClBackend* b = state != nullptr ? backend_of(state) : nullptr;
  ClDevice* d = b != nullptr ? b->get(index) : nullptr;
  if (d == nullptr) {
    report("no device " + std::to_string(index) + " (the backend has " +
           std::to_string(b != nullptr ? b->devices.size() : 0) + ")");
  }
  return d;
}

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "; ") + l;
  return out;
}

/// Makes the devices; KF_UNAVAILABLE with the reason when none can be used.
kf_status_t open_devices(ClBackend& b) {
  b.discovery = discover();
  if (!b.discovery.error.empty()) {
    report(b.discovery.error);
    return KF_UNAVAILABLE;
  }
  for (const DeviceInfo& info : b.discovery.devices) {
    std::string error;
    std::unique_ptr<ClDevice> d = ClDevice::create(info, error);
    if (d == nullptr) {
      b.discovery.skipped.push_back(info.platform_name + " / " + info.name + ": " + error);
      continue;
    }
    // Note [Programs on first use] (cl_device.cpp): one program now, the rest when needed.
    const kf_status_t s = d->prepare({clk::Family::Copy, KF_FLOAT32}, error);
    if (s != KF_OK) {
      report(info.name + " cannot build the kernels: " + error);
      return s == KF_INTERNAL ? KF_UNAVAILABLE : s;
    }
    b.devices.push_back(std::move(d));
  }
  if (b.devices.empty()) {
    report("no usable OpenCL device: " + (b.discovery.skipped.empty()
                                              ? std::string("the platforms list none")
                                              : joined(b.discovery.skipped)));
    return KF_UNAVAILABLE;
  }
  b.fine_grain_host = (b.devices[0]->info().svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
  return KF_OK;
}

kf_status_t cl_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = nullptr;
  try {
    auto backend = std::make_unique<ClBackend>();
    const kf_status_t s = open_devices(*backend);
    if (s != KF_OK) return s;
    *out_state = static_cast<clk::Backend*>(backend.release());
    return KF_OK;
  } catch (const std::bad_alloc&) {
    kf::plugin::set_error_noalloc("opencl", "out of memory in init", nullptr);
    return KF_OUT_OF_MEMORY;
  }
}

void cl_shutdown(void* state) {
  if (state != nullptr) delete backend_of(state);
}

int32_t cl_device_count(void* state) {
  return state != nullptr ? static_cast<int32_t>(backend_of(state)->devices.size()) : 0;
}

kf_status_t cl_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr || out == nullptr) return KF_INVALID_ARGUMENT;
  std::memset(out->name, 0, sizeof(out->name));
  std::strncpy(out->name, d->info().name.c_str(), sizeof(out->name) - 1);
  out->total_memory = d->info().global_memory;
  out->compute_units = static_cast<int32_t>(d->info().compute_units);
  return KF_OK;
}

// describe (ABI 1.1): the platform, each device, the program cache, e.g. "PoCL 3.1 (OpenCL 3.0
// PoCL 3.1+debian ...): device 0 pthread-skylake-avx512 (OpenCL 3.0 ..., 2 CUs, 20.0 GiB,
// fp64, SVM coarse+fine); program cache ~/.cache/kernforge/opencl".
kf_status_t cl_describe(void* state, char* buf, size_t cap) noexcept {
  if (buf == nullptr || cap == 0 || state == nullptr) return KF_INVALID_ARGUMENT;
  try {
    ClBackend* b = backend_of(state);
    std::string text;
    for (size_t i = 0; i < b->devices.size(); ++i) {
      const DeviceInfo& info = b->devices[i]->info();
      if (i == 0 || info.platform != b->devices[i - 1]->info().platform) {
        text += (text.empty() ? "" : "; ") + info.platform_name + " (" + info.platform_version +
                ")";
      }
      text += (i == 0 ? ": " : ", ") + std::string("device ") + std::to_string(i) + " " +
              describe_device(info);
    }
    const std::string cache = cache_folder();
    text += "; program cache " + (cache.empty() ? std::string("off") : cache);
    std::snprintf(buf, cap, "%s", text.c_str());
    return KF_OK;
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  }
}

kf_status_t cl_register_kernels(void* state, const kf_registrar_t* reg) {
  if (state == nullptr) return KF_INVALID_ARGUMENT;
  uint32_t mask = ~0u;
  bool native_sorts = false;
  for (const auto& d : backend_of(state)->devices) {
    mask &= clk::supported_dtypes(d->capabilities(), true);
    native_sorts = native_sorts || clk::sorts_natively(d->capabilities());
  }
  const kf_status_t s = clk::register_kernels(reg, mask, /*devices_read_back=*/true, native_sorts);
  return s == KF_OK ? register_fft_kernels(reg, mask) : s;
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table(KF_OPENCL_NAME, KF_OPENCL_VERSION, "opencl");
  p.init = cl_init;
  p.shutdown = cl_shutdown;
  p.device_count = cl_device_count;
  p.device_properties = cl_device_properties;
  p.allocate = allocate;
  p.deallocate = deallocate;
  p.copy = copy;
  p.memset = memset;
  p.synchronize = synchronize;
  p.register_kernels = cl_register_kernels;
  p.describe = cl_describe;
  p.stream_create = stream_create;
  p.stream_destroy = stream_destroy;
  p.stream_synchronize = stream_synchronize;
  p.event_create = event_create;
  p.event_destroy = event_destroy;
  p.event_record = event_record;
  p.event_wait = event_wait;
  p.event_synchronize = event_synchronize;
  p.event_elapsed_ms = event_elapsed_ms;
  p.copy_async = copy_async;
  p.host_allocate = host_allocate;
  p.host_deallocate = host_deallocate;
  p.event_query = event_query;
  return p;
}

}  // namespace
}  // namespace kf::opencl

KF_PLUGIN_DEFINE(kf::opencl::make_plugin)
