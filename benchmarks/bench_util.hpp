// bench_util.hpp — what the benchmark files share: a status check that ends a benchmark with
// the runtime's message, deterministic fill values, float32 tensors from host data, and the
// GFLOP/s and bytes-per-second counters.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include <benchmark/benchmark.h>

#include "kernforge/kernforge.h"

namespace kf_bench {

inline void check(benchmark::State& state, kf_status_t status, const char* what) {
  if (status != KF_OK) {
    std::fprintf(stderr, "%s failed: %s: %s\n", what, kf_status_name(status),
                 kf_last_error_message());
    state.SkipWithError(what);
  }
}

inline std::vector<float> filled(int64_t n, float seed) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = seed + static_cast<float>(i % 17) * 0.01f;
  return v;
}

inline kf_tensor_t make_tensor(benchmark::State& state, const std::vector<float>& data,
                               std::vector<int64_t> shape, kf_dtype_t dtype = KF_FLOAT32) {
  kf_tensor_t t = nullptr;
  check(state, kf_tensor_from_data(data.data(), shape.data(), static_cast<int32_t>(shape.size()),
                                   KF_FLOAT32, kf_device_cpu(), &t),
        "kf_tensor_from_data");
  if (dtype != KF_FLOAT32 && t != nullptr) {
    kf_tensor_t converted = nullptr;
    check(state, kf_to_dtype(t, dtype, &converted), "kf_to_dtype");
    kf_tensor_release(t);
    t = converted;
  }
  return t;
}

/// 2 n^3 floating-point operations per iteration.
inline void set_gflops(benchmark::State& state, int64_t n) {
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * static_cast<double>(n * n) * n * 1e-9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

/// 8 n^3 real floating-point operations per iteration: a complex multiply-add is 4
/// multiplications and 4 additions.
inline void set_complex_gflops(benchmark::State& state, int64_t n) {
  state.counters["GFLOP/s"] = benchmark::Counter(8.0 * static_cast<double>(n * n) * n * 1e-9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

/// `bytes` moved to or from memory per iteration, as GB/s.
inline void set_bandwidth(benchmark::State& state, double bytes) {
  state.counters["GB/s"] =
      benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace kf_bench
