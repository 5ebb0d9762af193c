// bench_dispatch.cpp — the C ABI's fixed cost and its GEMM against OpenBLAS called directly.
//
// BM_TinyAdd:        kf_add of two 1-element float32 tensors, new output each time, released
//                    (budget: >= 10x faster than libtorch's torch::add on the same operands,
//                    BM_TorchAddTinyDefault of bench_torch.cpp, built when CMake finds
//                    libtorch; BM_TorchAddTiny there is the same under InferenceMode).
// BM_TinyAddOut:     kf_add_out of the same operands into a preallocated 1-element out (the
//                    out= path: the core checks that out does not overlap an input).
// BM_TinyAddInplace: kf_add_ on the same operands (the in-place path, self written).
// BM_MatmulKernforge kf_matmul of two n x n float32 tensors through the C ABI, output released.
// BM_CblasSgemm      cblas_sgemm on the same sizes into a preallocated buffer (the reference;
//                    budget: kernforge >= 95% of it at 2048).
// BM_MatmulKernforgeC64 / BM_CblasCgemm: the same for complex64 (n x n, interleaved real and
//                    imaginary parts) against cblas_cgemm (budget: >= 95% of it at 1024).
//
// Environment: KF_BENCH_TINY_REPETITIONS=N gives the tiny-op benchmarks (BM_TinyAdd and the
// libtorch ones) N repetitions instead of --benchmark_repetitions: a call of ~100 ns is the
// figure most exposed to a busy machine, so it gets more samples for its median.
#include <cblas.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_util.hpp"
#include "kernforge/kernforge.h"

#ifdef KF_BENCH_HAVE_TORCH
#include "bench_torch.h"
#endif

namespace {

using kf_bench::check;
using kf_bench::filled;
using kf_bench::make_tensor;
using kf_bench::set_complex_gflops;
using kf_bench::set_gflops;

void BM_TinyAdd(benchmark::State& state) {
  const std::vector<float> one{1.5f};
  kf_tensor_t a = make_tensor(state, one, {1});
  kf_tensor_t b = make_tensor(state, one, {1});
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    const kf_status_t s = kf_add(a, b, kf_scalar_i64(1), &out);
    if (s != KF_OK) {
      check(state, s, "kf_add");
      break;
    }
    benchmark::DoNotOptimize(out);
    kf_tensor_release(out);
  }
  kf_tensor_release(b);
  kf_tensor_release(a);
}

void BM_TinyAddOut(benchmark::State& state) {
  const std::vector<float> one{1.5f};
  kf_tensor_t a = make_tensor(state, one, {1});
  kf_tensor_t b = make_tensor(state, one, {1});
  kf_tensor_t out = make_tensor(state, one, {1});
  for (auto _ : state) {
    const kf_status_t s = kf_add_out(a, b, kf_scalar_i64(1), out);
    if (s != KF_OK) {
      check(state, s, "kf_add_out");
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  kf_tensor_release(out);
  kf_tensor_release(b);
  kf_tensor_release(a);
}

void BM_TinyAddInplace(benchmark::State& state) {
  const std::vector<float> zero{0.0f};
  kf_tensor_t a = make_tensor(state, zero, {1});
  kf_tensor_t b = make_tensor(state, zero, {1});
  for (auto _ : state) {
    const kf_status_t s = kf_add_(a, b, kf_scalar_i64(1));
    if (s != KF_OK) {
      check(state, s, "kf_add_");
      break;
    }
    benchmark::DoNotOptimize(a);
  }
  kf_tensor_release(b);
  kf_tensor_release(a);
}

void BM_MatmulKernforge(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n * n, 0.5f), {n, n});
  kf_tensor_t b = make_tensor(state, filled(n * n, -0.25f), {n, n});
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    const kf_status_t s = kf_matmul(a, b, &out);
    if (s != KF_OK) {
      check(state, s, "kf_matmul");
      break;
    }
    benchmark::DoNotOptimize(out);
    kf_tensor_release(out);
  }
  set_gflops(state, n);
  kf_tensor_release(b);
  kf_tensor_release(a);
}
BENCHMARK(BM_MatmulKernforge)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CblasSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<float> a = filled(n * n, 0.5f);
  const std::vector<float> b = filled(n * n, -0.25f);
  std::vector<float> c(static_cast<std::size_t>(n * n));
  const auto dim = static_cast<blasint>(n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, dim, dim, dim, 1.0f, a.data(), dim,
                b.data(), dim, 0.0f, c.data(), dim);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_gflops(state, n);
}
BENCHMARK(BM_CblasSgemm)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// An n x n complex64 tensor whose 2 n^2 interleaved parts are filled(2 n^2, seed).
kf_tensor_t complex_matrix(benchmark::State& state, int64_t n, float seed) {
  const std::vector<float> parts = filled(2 * n * n, seed);
  const int64_t shape[2] = {n, n};
  kf_tensor_t t = nullptr;
  check(state, kf_tensor_from_data(parts.data(), shape, 2, KF_COMPLEX64, kf_device_cpu(), &t),
        "kf_tensor_from_data");
  return t;
}

void BM_MatmulKernforgeC64(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = complex_matrix(state, n, 0.5f);
  kf_tensor_t b = complex_matrix(state, n, -0.25f);
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    const kf_status_t s = kf_matmul(a, b, &out);
    if (s != KF_OK) {
      check(state, s, "kf_matmul");
      break;
    }
    benchmark::DoNotOptimize(out);
    kf_tensor_release(out);
  }
  set_complex_gflops(state, n);
  kf_tensor_release(b);
  kf_tensor_release(a);
}
BENCHMARK(BM_MatmulKernforgeC64)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CblasCgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<float> a = filled(2 * n * n, 0.5f);
  const std::vector<float> b = filled(2 * n * n, -0.25f);
  std::vector<float> c(static_cast<std::size_t>(2 * n * n));
  const auto dim = static_cast<blasint>(n);
  const float one[2] = {1.0f, 0.0f};
  const float zero[2] = {0.0f, 0.0f};
  for (auto _ : state) {
    cblas_cgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, dim, dim, dim, one, a.data(), dim,
                b.data(), dim, zero, c.data(), dim);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_complex_gflops(state, n);
}
BENCHMARK(BM_CblasCgemm)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

// KF_BENCH_TINY_REPETITIONS as a count, 0 when unset or not a positive number.
int tiny_repetitions() {
  const char* text = std::getenv("KF_BENCH_TINY_REPETITIONS");
  if (text == nullptr) return 0;
  const long n = std::strtol(text, nullptr, 10);
  return n > 0 && n < 100000 ? static_cast<int>(n) : 0;
}

// The tiny-op pair, registered at run time so that both get the same repetitions.
void register_tiny_benchmarks() {
  const int repetitions = tiny_repetitions();
  benchmark::internal::Benchmark* bm = benchmark::RegisterBenchmark("BM_TinyAdd", BM_TinyAdd);
  if (repetitions > 0) bm->Repetitions(repetitions);
  for (auto* extra : {benchmark::RegisterBenchmark("BM_TinyAddOut", BM_TinyAddOut),
                      benchmark::RegisterBenchmark("BM_TinyAddInplace", BM_TinyAddInplace)}) {
    if (repetitions > 0) extra->Repetitions(repetitions);
  }
#ifdef KF_BENCH_HAVE_TORCH
  kf_bench::register_torch_benchmarks(repetitions);
#endif
}

}  // namespace

// BENCHMARK_MAIN plus the context the report needs: versions, OpenBLAS's threading (read after
// kernforge has loaded its plugins, which share this process's OpenBLAS) and libtorch, or that
// this build has no libtorch.
int main(int argc, char** argv) {
  register_tiny_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("kernforge_version", kf_version());
  benchmark::AddCustomContext("kernforge_backends", std::to_string(kf_backend_count()));
  benchmark::AddCustomContext("openblas_config", openblas_get_config());
  benchmark::AddCustomContext("openblas_core", openblas_get_corename());
  benchmark::AddCustomContext("openblas_threads", std::to_string(openblas_get_num_threads()));
#ifdef KF_BENCH_HAVE_TORCH
  benchmark::AddCustomContext("libtorch_version", kf_bench::torch_version());
  benchmark::AddCustomContext("libtorch_threads", kf_bench::torch_threads());
#else
  benchmark::AddCustomContext("libtorch_version", "not built");
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
