// fft_plans.hpp — the cuFFT plan cache of the cuda backend (in its BlasState, blas_state.hpp).
//
// Note [cuFFT plans and streams]
// Making a plan costs far more than most transforms, so plans are kept per device in a bounded
// LRU cache (lru_cache.hpp) of kFftPlanCacheSize entries, as PyTorch keeps 4096 per device,
// keyed by FftPlanKey (fft_layout.hpp: device, dtype, kind, lengths, strides, distances, batch).
// A plan holds no work area of its own (cufftSetAutoAllocation off): each execution takes one
// from cudaMallocAsync on the call's stream, freed on that stream after the transform, and
// binds the plan to the call's stream (cufftSetStream) and that work area (cufftSetWorkArea)
// under the plan's mutex until its executions are queued. So one plan serves any number of
// streams, serialised only while a call queues its work: the kernels take the stream and the
// work area when they are queued, and two streams never share a work area. A plan evicted
// while a call still queues on it is destroyed when that call lets go of it.
#pragma once

#include <cufft.h>
#include <library_types.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "fft_layout.hpp"
#include "lru_cache.hpp"

namespace kf::cuda {

constexpr size_t kFftPlanCacheSize = 4096;  // plans per device

struct FftPlan {
  cufftHandle handle = 0;
  size_t work_bytes = 0;
  std::mutex mutex;  // held while a call binds the plan and queues its executions
  FftPlan() = default;
  ~FftPlan();
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
};

class FftPlans {
 public:
  explicit FftPlans(size_t devices);

  /// The plan of `pass` for `complex_dtype` (complex64 or complex128) on kernforge device
  /// `device` (its CUDA device current), made on a miss; throws KernelError when cuFFT cannot
  /// make it.
  std::shared_ptr<FftPlan> get(int32_t device, int32_t complex_dtype, const FftPass& pass);

  /// Plans kept for `device` now.
  size_t size(int32_t device) const;

 private:
  using Cache = LruCache<FftPlanKey, FftPlan, FftPlanKeyHash>;
  std::vector<std::unique_ptr<Cache>> caches_;
};

}  // namespace kf::cuda
