// parallel.hpp — the CPU plugin's thread settings.
//
// Note [Thread count]: omp_set_num_threads only changes the calling thread's OpenMP ICV, but
// kernels run on whatever thread the caller uses. So the count set by kf_set_num_threads is
// kept here (process-wide, atomic) and every parallel region passes it in num_threads().
// Work smaller than kParallelGrain elements runs on the calling thread: tiny ops never wake
// the pool.
//
// Built without OpenMP (a toolchain lacking it; CMake then adds -Wno-unknown-pragmas), the
// omp_* calls below are the serial stand-ins, every kernel runs on the calling thread and the
// `#pragma omp` lines are ignored.
#pragma once

#if defined(_OPENMP)
#include <omp.h>
#endif

#include <atomic>
#include <cstdint>

namespace kf::cpu {

#if !defined(_OPENMP)
inline int omp_get_max_threads() { return 1; }
inline int omp_get_thread_num() { return 0; }
inline int omp_get_num_threads() { return 1; }
inline int omp_in_parallel() { return 0; }
inline void omp_set_num_threads(int) {}
#endif

/// Below this many elements (or multiply-adds) a kernel stays on the calling thread.
constexpr int64_t kParallelGrain = 32768;

inline std::atomic<int>& thread_setting() {
  static std::atomic<int> n{0};  // 0: OpenMP's default
  return n;
}

/// Threads a parallel region may use (1 inside another parallel region).
inline int num_threads() {
#if defined(_OPENMP)
  if (omp_in_parallel()) return 1;
  const int n = thread_setting().load(std::memory_order_relaxed);
  return n > 0 ? n : omp_get_max_threads();
#else
  return 1;
#endif
}

/// fn(i) for i in [0, n) on `nt` threads (a static schedule), or in a plain loop when nt <= 1.
/// Note [Regions of one thread]: `#pragma omp parallel for if (nt > 1)` still enters a parallel
/// region when the clause is false, and libgomp sets up a team of one thread for it: about a
/// tenth of a microsecond on Linux, but on MinGW each team creates Windows semaphores, a server
/// call under wine, and the sort kernels' per-line helpers entered one per line (a CTS case of
/// 20,000 short lines took 232 s under wine, 0.8 s natively). What runs once per line goes
/// through here, or tests nt itself before its region.
template <class Fn>
inline void parallel_for(int64_t n, int nt, const Fn& fn) {
  if (nt <= 1) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t i = 0; i < n; ++i) fn(i);
}

/// Threads worth using for `work` elements: 1 below the grain.
inline int threads_for(int64_t work) {
  if (work < kParallelGrain) return 1;
  const int n = num_threads();
  const int64_t useful = work / (kParallelGrain / 2);
  return useful < n ? static_cast<int>(useful < 1 ? 1 : useful) : n;
}

}  // namespace kf::cpu
