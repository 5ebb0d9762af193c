// parallel.hpp — the CPU plugin's thread settings.
//
// Note [Thread count]: omp_set_num_threads only changes the calling thread's OpenMP ICV, but
// kernels run on whatever thread the caller uses. So the count set by kf_set_num_threads is
// kept here (process-wide, atomic) and every parallel region passes it in num_threads().
// Work smaller than kParallelGrain elements runs on the calling thread: tiny ops never wake
// the pool.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>

namespace kf::cpu {

/// Below this many elements (or multiply-adds) a kernel stays on the calling thread.
constexpr int64_t kParallelGrain = 32768;

inline std::atomic<int>& thread_setting() {
  static std::atomic<int> n{0};  // 0: OpenMP's default
  return n;
}

/// Threads a parallel region may use (1 inside another parallel region).
inline int num_threads() {
  if (omp_in_parallel()) return 1;
  const int n = thread_setting().load(std::memory_order_relaxed);
  return n > 0 ? n : omp_get_max_threads();
}

/// Threads worth using for `work` elements: 1 below the grain.
inline int threads_for(int64_t work) {
  if (work < kParallelGrain) return 1;
  const int n = num_threads();
  const int64_t useful = work / (kParallelGrain / 2);
  return useful < n ? static_cast<int>(useful < 1 ? 1 : useful) : n;
}

}  // namespace kf::cpu
