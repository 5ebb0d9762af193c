// plugin.cpp — the cuda backend's kf_plugin_t, the only exported symbol (kf_plugin_get).
//
// init runs discover() (discovery.hpp): without a driver, with a runtime or cuBLAS that does
// not fit the build, or without a usable device it is KF_UNAVAILABLE with the reason, and the
// runtime is not asked for more. Memory, copies, streams and events are in memory_slots.cpp and
// stream_slots.cpp; the kernels in the <family>_ops.cpp files (op_families.hpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend.hpp"
#include "discovery.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_families.hpp"
#include "kernforge/plugin_table.hpp"
#include "op_families.hpp"
#include "slots.hpp"

#ifndef KF_CUDA_VERSION
#define KF_CUDA_VERSION "0.0.0"
#endif

namespace kf::cuda {
namespace {

/// KERNFORGE_CUDA_ALLOW_TF32=1: float32 GEMM may round its inputs to TF32 (10-bit mantissa).
bool tf32_allowed() {
  const char* v = secure_getenv("KERNFORGE_CUDA_ALLOW_TF32");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

kf_status_t cuda_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = nullptr;
  try {
    Discovery found = discover();
    for (const std::string& w : found.warnings) kf::plugin::log(KF_LOG_WARN, "cuda", w);
    if (found.status != KF_OK) {
      kf::plugin::set_error("cuda: " + found.error);
      return found.status;
    }
    auto backend = std::make_unique<CudaBackend>(found.devices.size());
    backend->devices = std::move(found.devices);
    backend->skipped = std::move(found.skipped);
    backend->versions = std::move(found.versions);
    backend->allow_tf32 = tf32_allowed();
    *out_state = backend.release();
    return KF_OK;
  } catch (const std::bad_alloc&) {
    kf::plugin::set_error_noalloc("cuda", "out of memory in init", nullptr);
    return KF_OUT_OF_MEMORY;
  }
}

void cuda_shutdown(void* state) { delete backend_of(state); }

int32_t cuda_device_count(void* state) {
  return state != nullptr ? static_cast<int32_t>(backend_of(state)->devices.size()) : 0;
}

kf_status_t cuda_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
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
// (...); device 0 NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB); TF32 off".
kf_status_t cuda_describe(void* state, char* buf, size_t cap) noexcept {
  if (buf == nullptr || cap == 0 || state == nullptr) return KF_INVALID_ARGUMENT;
  try {
    const CudaBackend& b = *backend_of(state);
    std::string text = describe_libraries(b.versions);
    for (size_t i = 0; i < b.devices.size(); ++i) {
      text += "; device " + std::to_string(i) + " " + describe_device(b.devices[i]);
    }
    for (const std::string& s : b.skipped) text += "; skipped " + s;
    text += b.allow_tf32 ? "; TF32 on (KERNFORGE_CUDA_ALLOW_TF32=1)" : "; TF32 off";
    std::snprintf(buf, cap, "%s", text.c_str());
    return KF_OK;
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  }
}

kf_status_t cuda_manual_seed(void* state, uint64_t seed) {
  if (state == nullptr) return KF_INVALID_ARGUMENT;
  Random& r = backend_of(state)->random;
  r.seed.store(seed, std::memory_order_relaxed);
  r.offset.store(0, std::memory_order_relaxed);
  return KF_OK;
}

kf_status_t cuda_register_kernels(void* state, const kf_registrar_t* reg) {
  if (state == nullptr) return KF_INVALID_ARGUMENT;
  return kf::plugin::register_families(reg, {
#define KF_CUDA_OP_FAMILY(family) register_##family##_ops,
#include "op_families.inc"
#undef KF_CUDA_OP_FAMILY
  });
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table("cuda", KF_CUDA_VERSION);
  p.init = cuda_init;
  p.shutdown = cuda_shutdown;
  p.device_count = cuda_device_count;
  p.device_properties = cuda_device_properties;
  p.allocate = allocate;
  p.deallocate = deallocate;
  p.copy = copy;
  p.memset = memset;
  p.synchronize = synchronize;
  p.manual_seed = cuda_manual_seed;
  p.register_kernels = cuda_register_kernels;
  p.describe = cuda_describe;
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
