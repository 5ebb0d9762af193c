// gpu_plugin.cpp — the kf_plugin_t of a GPU backend built from these sources (cuda, rocm), the
// only exported symbol (kf_plugin_get); its name is the vendor's (KF_GPU_VENDOR).
//
// init runs the backend's own discover() (its discovery.hpp): without a driver or runtime, with
// libraries that do not fit the build, or without a usable device it is KF_UNAVAILABLE with the
// reason, and the runtime is not asked for more; configure() then reads the backend's options.
// Memory, copies, streams and events are in memory_slots.cpp and stream_slots.cpp; the kernels
// in the <family>_ops.cpp files (op_families.hpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend.hpp"
#include "vendor_discovery.hpp"
#include "vendor_ops.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_families.hpp"
#include "kernforge/plugin_table.hpp"
#include "op_families.hpp"
#include "slots.hpp"

#ifndef KF_GPU_PLUGIN_VERSION
#define KF_GPU_PLUGIN_VERSION "0.0.0"
#endif

namespace kf::cuda {
namespace {

kf_status_t gpu_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = nullptr;
  try {
    Discovery found = discover();
    for (const std::string& w : found.warnings) kf::plugin::log(KF_LOG_WARN, KF_GPU_VENDOR, w);
    if (found.status != KF_OK) {
      kf::plugin::set_error(KF_GPU_VENDOR ": " + found.error);
      return found.status;
    }
    auto backend = std::make_unique<CudaBackend>(found.devices.size());
    backend->devices = std::move(found.devices);
    backend->skipped = std::move(found.skipped);
    backend->versions = std::move(found.versions);
    configure(*backend);
    *out_state = backend.release();
    return KF_OK;
  } catch (const std::bad_alloc&) {
    kf::plugin::set_error_noalloc(KF_GPU_VENDOR, "out of memory in init", nullptr);
    return KF_OUT_OF_MEMORY;
  }
}

void gpu_shutdown(void* state) { delete backend_of(state); }

int32_t gpu_device_count(void* state) {
  return state != nullptr ? static_cast<int32_t>(backend_of(state)->devices.size()) : 0;
}

kf_status_t gpu_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
  const DeviceInfo* d = state != nullptr ? backend_of(state)->device(device) : nullptr;
  if (d == nullptr || out == nullptr) {
    (void)ordinal_or_report(state, device);
    return KF_INVALID_ARGUMENT;
  }
  std::memset(out->name, 0, sizeof(out->name));
  std::strncpy(out->name, d->name.c_str(), sizeof(out->name) - 1);
  out->total_memory = d->total_memory;
  out->compute_units = d->multiprocessors;
  return KF_OK;
}

// describe (ABI 1.1): e.g. "CUDA runtime 13.0 (/usr/local/cuda/lib64/libcudart.so.13...; built
// against 13.0), driver for CUDA 13.0 (/usr/lib/x86_64-linux-gnu/libcuda.so.1), cuBLAS 13.0.0
// (...); device 0 NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB); TF32 off": the backend's
// describe_libraries, describe_device and describe_options.
kf_status_t gpu_describe(void* state, char* buf, size_t cap) noexcept {
  if (buf == nullptr || cap == 0 || state == nullptr) return KF_INVALID_ARGUMENT;
  try {
    const CudaBackend& b = *backend_of(state);
    std::string text = describe_libraries(b.versions);
    for (size_t i = 0; i < b.devices.size(); ++i) {
      text += "; device " + std::to_string(i) + " " + describe_device(b.devices[i]);
    }
    for (const std::string& s : b.skipped) text += "; skipped " + s;
    text += describe_options(b);
    std::snprintf(buf, cap, "%s", text.c_str());
    return KF_OK;
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  }
}

kf_status_t gpu_manual_seed(void* state, uint64_t seed) {
  if (state == nullptr) return KF_INVALID_ARGUMENT;
  Random& r = backend_of(state)->random;
  r.seed.store(seed, std::memory_order_relaxed);
  r.offset.store(0, std::memory_order_relaxed);
  return KF_OK;
}

// The families need no state: with state NULL (an unavailable plugin, plugin ABI 2.2) they list
// what the backend would run. The shared families first, then the vendor's (vendor_ops.hpp).
kf_status_t gpu_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  return kf::plugin::register_families(reg, {
#define KF_CUDA_OP_FAMILY(family) register_##family##_ops,
#include "op_families.inc"
#undef KF_CUDA_OP_FAMILY
      register_vendor_ops,
  });
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table(KF_GPU_VENDOR, KF_GPU_PLUGIN_VERSION);
  p.init = gpu_init;
  p.shutdown = gpu_shutdown;
  p.device_count = gpu_device_count;
  p.device_properties = gpu_device_properties;
  p.allocate = allocate;
  p.deallocate = deallocate;
  p.copy = copy;
  p.memset = memset;
  p.synchronize = synchronize;
  p.manual_seed = gpu_manual_seed;
  p.register_kernels = gpu_register_kernels;
  p.describe = gpu_describe;
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
}  // namespace kf::cuda

KF_PLUGIN_DEFINE(kf::cuda::make_plugin)
