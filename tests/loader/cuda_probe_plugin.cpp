// cuda_probe_plugin.cpp — the "cudaprobe" plugin of loader.CudaProbe.*: linked against cuBLAS
// and cudart with NO RPATH/RUNPATH, so it loads only when the loader has preloaded cublasLt,
// cublas and cudart from the toolkit (its manifest, cuda_probe_manifest.json.in). init() calls
// cublasGetProperty and cudaRuntimeGetVersion (neither needs a GPU) and reports 0 devices when
// cudaGetDeviceCount fails (no driver). It registers no kernels: it exists to be loaded.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

namespace cuda_probe {
namespace {

struct State {
  int cublas_major = 0;
  int runtime_version = 0;
  int devices = 0;
};

kf_status_t cp_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  int major = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS) {
    host->set_error("cuda_probe: cublasGetProperty(MAJOR_VERSION) failed");
    return KF_INTERNAL;
  }
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) {
    host->set_error("cuda_probe: cudaRuntimeGetVersion failed");
    return KF_INTERNAL;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = new State{major, runtime, devices};
  return KF_OK;
}

void cp_shutdown(void* state) { delete static_cast<State*>(state); }

int32_t cp_device_count(void* state) {
  return state != nullptr ? static_cast<State*>(state)->devices : 0;
}

kf_status_t cp_allocate(void* /*state*/, int32_t /*device*/, size_t /*bytes*/, void** out_ptr) {
  if (out_ptr != nullptr) *out_ptr = nullptr;
  kf::plugin::set_error("cuda_probe: allocates nothing (it only proves the libraries load)");
  return KF_UNAVAILABLE;
}

void cp_deallocate(void* /*state*/, int32_t /*device*/, void* /*ptr*/, size_t /*bytes*/) {}

kf_status_t cp_copy(void* /*state*/, int32_t /*device*/, void* /*dst*/, const void* /*src*/,
                    size_t /*bytes*/, int32_t /*kind*/) {
  kf::plugin::set_error("cuda_probe: copies nothing");
  return KF_UNAVAILABLE;
}

kf_status_t cp_register_kernels(void* /*state*/, const kf_registrar_t* /*reg*/) { return KF_OK; }

kf_status_t cp_describe(void* state, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0 || state == nullptr) return KF_INVALID_ARGUMENT;
  const State& s = *static_cast<State*>(state);
  std::snprintf(buf, cap, "cuBLAS %d, CUDA runtime %d, %d device(s)", s.cublas_major,
                s.runtime_version, s.devices);
  return KF_OK;
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table("cuda_probe", "0.0.1", "cudaprobe");
  p.init = cp_init;
  p.shutdown = cp_shutdown;
  p.device_count = cp_device_count;
  p.allocate = cp_allocate;
  p.deallocate = cp_deallocate;
  p.copy = cp_copy;
  p.register_kernels = cp_register_kernels;
  p.describe = cp_describe;
  return p;
}

}  // namespace
}  // namespace cuda_probe

KF_PLUGIN_DEFINE(cuda_probe::make_plugin)
