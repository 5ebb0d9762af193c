// backend.hpp — the CUDA plugin's state (what init stores, kf_kernel_call_t.plugin_state):
// the devices found, the library versions, cuBLAS handles, the pinned staging buffers and the
// random generator.
//
// Lifetime: made by init, destroyed by shutdown. Thread safety: devices and versions are
// read-only after init; the handle pool and the generator are safe to use from any thread.
#pragma once

#include <cublas_v2.h>

#include <atomic>
#include <map>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "kernforge/philox.hpp"
#include "kernforge/plugin.h"
#include "staging.hpp"

namespace kf::cuda {

struct DeviceInfo {
  int32_t ordinal = 0;  // the CUDA device number (kernforge's cuda:<ordinal>)
  std::string name;
  int32_t major = 0, minor = 0;  // compute capability
  int32_t multiprocessors = 0;
  uint64_t total_memory = 0;
  int32_t memory_bus_bits = 0;
};

/// Versions as CUDA encodes them (1000 * major + 10 * minor); 0 when unknown.
struct Versions {
  int32_t runtime = 0;        // cudaRuntimeGetVersion: the libcudart loaded
  int32_t runtime_built = 0;  // CUDART_VERSION: the one the plugin was compiled against
  int32_t driver = 0;         // cudaDriverGetVersion: the newest CUDA the driver supports
  int32_t cublas = 0;         // cublasGetVersion (10000 * major + 100 * minor + patch)
  int32_t cublas_built = 0;   // CUBLAS_VERSION
  std::string driver_path, runtime_path, cublas_path;  // where the loaded libraries live
};

/// cuBLAS handles per device and stream, reused. A handle serves one call at a time (the
/// stream is set on it for each call), and a handle keeps to one stream: cuBLAS's default
/// workspace belongs to the handle, so two streams sharing one could run two GEMMs over the same
/// workspace at once. Work on one stream is ordered, so handles of the same stream can be
/// reused as soon as a call has queued its work.
class CublasPool {
 public:
  explicit CublasPool(size_t devices) : free_(devices) {}
  ~CublasPool();
  CublasPool(const CublasPool&) = delete;
  CublasPool& operator=(const CublasPool&) = delete;

  /// A handle for `device` and `stream` (the current device must be `device`); throws
  /// KernelError when cublasCreate fails.
  cublasHandle_t acquire(int32_t device, void* stream);
  void release(int32_t device, void* stream, cublasHandle_t handle) noexcept;

 private:
  std::mutex mutex_;
  std::vector<std::map<void*, std::vector<cublasHandle_t>>> free_;  // [device][stream]
};

/// The generator of rand/randn, as the CPU backend's (docs/architecture.md, "Random numbers").
struct Random {
  std::atomic<uint64_t> seed{kf::philox::kDefaultSeed};
  std::atomic<uint64_t> offset{0};
};

struct CudaBackend {
  std::vector<DeviceInfo> devices;  // kernforge device i is devices[i]
  std::vector<std::string> skipped;  // devices left out, with the reason
  Versions versions;
  bool allow_tf32 = false;  // KERNFORGE_CUDA_ALLOW_TF32=1: float32 GEMM may use TF32
  CublasPool blas{0};
  Staging staging{0};  // pinned buffers for large pageable copies (Note [Pinned staging])
  Random random;

  explicit CudaBackend(size_t ndevices) : blas(ndevices), staging(ndevices) {}
  const DeviceInfo* device(int32_t index) const {
    return index >= 0 && static_cast<size_t>(index) < devices.size() ? &devices[index] : nullptr;
  }
};

inline CudaBackend* backend_of(void* state) { return static_cast<CudaBackend*>(state); }

}  // namespace kf::cuda
