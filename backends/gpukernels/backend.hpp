// backend.hpp — a GPU plugin's state (what init stores, kf_kernel_call_t.plugin_state), cuda's
// and rocm's: the devices found, the library versions, the BLAS state (BlasState, of the
// backend's own blas_state.hpp: cuBLAS handles on cuda, rocBLAS or the tiled kernel on rocm),
// the pinned staging buffers and the random generator.
//
// Lifetime: made by init, destroyed by shutdown. Thread safety: devices and versions are
// read-only after init; the handle pool and the generator are safe to use from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "kernforge/philox.hpp"
#include "kernforge/plugin.h"
#include "blas_state.hpp"
#include "staging.hpp"

namespace kf::cuda {

struct DeviceInfo {
  int32_t ordinal = 0;  // the runtime's device number (kernforge's cuda:<ordinal>, rocm:<ordinal>)
  std::string arch;     // rocm: the gfx name (e.g. "gfx90a"); cuda: empty (major.minor say it)
  std::string name;
  int32_t major = 0, minor = 0;  // compute capability (rocm: the gfx version's first digits)
  int32_t multiprocessors = 0;
  uint64_t total_memory = 0;
  int32_t memory_bus_bits = 0;
};

/// Versions as the runtime encodes them (CUDA: 1000 * major + 10 * minor; HIP: 10000000 *
/// major + 100000 * minor + patch); 0 when unknown.
struct Versions {
  int32_t runtime = 0;        // cudaRuntimeGetVersion: the runtime library loaded
  int32_t runtime_built = 0;  // CUDART_VERSION / HIP_VERSION: the one the plugin was built against
  int32_t driver = 0;         // cudaDriverGetVersion: the newest the driver supports
  int32_t blas = 0;           // cuBLAS's (10000 * major + 100 * minor + patch), rocBLAS's
  int32_t blas_built = 0;     // CUBLAS_VERSION; 0 on rocm (rocBLAS is found at run time)
  std::string driver_path, runtime_path, blas_path;  // where the loaded libraries live
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
  bool allow_tf32 = false;  // cuda: KERNFORGE_CUDA_ALLOW_TF32=1, float32 GEMM may use TF32
  BlasState blas{0};
  Staging staging{0};  // pinned buffers for large pageable copies (Note [Pinned staging])
  Random random;

  explicit CudaBackend(size_t ndevices) : blas(ndevices), staging(ndevices) {}
  const DeviceInfo* device(int32_t index) const {
    return index >= 0 && static_cast<size_t>(index) < devices.size() ? &devices[index] : nullptr;
  }
};

inline CudaBackend* backend_of(void* state) { return static_cast<CudaBackend*>(state); }

}  // namespace kf::cuda
