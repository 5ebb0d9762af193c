// bench_cpu.cpp — the CPU backend next to the machine's limits, in the same run:
//
// BM_StreamCopy/n, BM_StreamAdd/n, BM_StreamSum/n   STREAM-style loops compiled here (OpenMP,
//     the threads kernforge uses): b = a, c = a + b, sum(a) over n float32. They measure the
//     memory bandwidth the kernels are held to (budgets: add and sum >= 90% of their loop, exp
//     >= 80% of the copy loop, softmax within 2x of the copy loop's time for the same bytes).
// BM_KfAddOut/n, BM_KfAdd/n   kf_add_out into an existing tensor, kf_add into a new one.
// BM_KfExpOut/n, BM_KfSumAll/n   kf_exp_out, kf_sum over everything.
// BM_KfSoftmax/4096   kf_softmax of 4096 x 4096 float32 along the last dim (new output).
// BM_DnnlSoftmax/4096   oneDNN's softmax primitive on the same shape into an existing output
//     (the plugin's own kernel is kept where it is not slower than this).
// BM_DnnlExp/n   oneDNN's eltwise exp over n float32, against BM_KfExpOut.
// BM_KfLayerNorm/4096, BM_DnnlLayerNorm/4096   kf_layer_norm over the last dim of 4096 x 4096
//     float32 (weight and bias, new output), and oneDNN's layer normalisation (scale and shift)
//     on the same shape into an existing output.
// BM_DnnlSgemm/n   oneDNN's dnnl_sgemm called directly (with BM_CblasSgemm of
//     bench_dispatch.cpp, the engines kf_matmul float32 is held to: >= 95% of the best).
// BM_MatmulKernforgeBf16/n, BM_DnnlMatmulBf16/n   kf_matmul of bfloat16 n x n, and oneDNN's
//     matmul primitive on the same sizes created once (budget: bfloat16 >= 2x float32 on CPUs
//     with AVX512-BF16 or AMX).
// Bytes per iteration are the counters' GB/s (reads plus writes).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>

#include "bench_util.hpp"
#include "kernforge/kernforge.h"

namespace {

using kf_bench::check;
using kf_bench::filled;
using kf_bench::make_tensor;
using kf_bench::set_bandwidth;
using kf_bench::set_gflops;

constexpr int64_t k16M = int64_t{1} << 24;
constexpr double kF32 = sizeof(float);

void BM_StreamCopy(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a = filled(n, 1.0f), b(static_cast<size_t>(n));
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) b[i] = a[i];
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  set_bandwidth(state, 2 * kF32 * n);
}
BENCHMARK(BM_StreamCopy)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_StreamAdd(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a = filled(n, 1.0f), b = filled(n, 2.0f), c(static_cast<size_t>(n));
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_bandwidth(state, 3 * kF32 * n);
}
BENCHMARK(BM_StreamAdd)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

// A read loop: each thread sums its contiguous range into 16 independent float lanes (so the
// compiler vectorises it without reassociating a single sum), then the lanes and the threads.
float stream_sum(const float* a, int64_t n) {
  float total = 0;
#pragma omp parallel reduction(+ : total)
  {
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int64_t begin = n * t / nt, end = n * (t + 1) / nt;
    float lane[16] = {};
    int64_t i = begin;
    for (; i + 16 <= end; i += 16) {
      for (int k = 0; k < 16; ++k) lane[k] += a[i + k];
    }
    for (; i < end; ++i) lane[0] += a[i];
    for (float v : lane) total += v;
  }
  return total;
}

void BM_StreamSum(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a = filled(n, 1.0f);
  for (auto _ : state) benchmark::DoNotOptimize(stream_sum(a.data(), n));
  set_bandwidth(state, kF32 * n);
}
BENCHMARK(BM_StreamSum)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KfAddOut(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n, 1.0f), {n});
  kf_tensor_t b = make_tensor(state, filled(n, 2.0f), {n});
  kf_tensor_t out = make_tensor(state, filled(n, 0.0f), {n});
  for (auto _ : state) check(state, kf_add_out(a, b, kf_scalar_i64(1), out), "kf_add_out");
  set_bandwidth(state, 3 * kF32 * n);
  for (kf_tensor_t t : {a, b, out}) kf_tensor_release(t);
}
BENCHMARK(BM_KfAddOut)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KfAdd(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n, 1.0f), {n});
  kf_tensor_t b = make_tensor(state, filled(n, 2.0f), {n});
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    check(state, kf_add(a, b, kf_scalar_i64(1), &out), "kf_add");
    kf_tensor_release(out);
  }
  set_bandwidth(state, 3 * kF32 * n);
  kf_tensor_release(a);
  kf_tensor_release(b);
}
BENCHMARK(BM_KfAdd)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KfExpOut(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n, -1.0f), {n});
  kf_tensor_t out = make_tensor(state, filled(n, 0.0f), {n});
  for (auto _ : state) check(state, kf_exp_out(a, out), "kf_exp_out");
  set_bandwidth(state, 2 * kF32 * n);
  kf_tensor_release(a);
  kf_tensor_release(out);
}
BENCHMARK(BM_KfExpOut)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KfSumAll(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n, 1.0f), {n});
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    check(state, kf_sum(a, nullptr, 0, false, KF_DTYPE_UNDEFINED, &out), "kf_sum");
    kf_tensor_release(out);
  }
  set_bandwidth(state, kF32 * n);
  kf_tensor_release(a);
}
BENCHMARK(BM_KfSumAll)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KfSoftmax(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n * n, -1.0f), {n, n});
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    check(state, kf_softmax(a, -1, KF_DTYPE_UNDEFINED, &out), "kf_softmax");
    kf_tensor_release(out);
  }
  set_bandwidth(state, 2 * kF32 * n * n);  // the bytes of a copy: the budget's reference
  kf_tensor_release(a);
}
BENCHMARK(BM_KfSoftmax)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DnnlSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<float> a = filled(n * n, 0.5f), b = filled(n * n, -0.25f);
  std::vector<float> c(static_cast<size_t>(n * n));
  for (auto _ : state) {
    if (dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n) !=
        dnnl_success) {
      state.SkipWithError("dnnl_sgemm");
      break;
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_gflops(state, n);
}
BENCHMARK(BM_DnnlSgemm)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MatmulKernforgeBf16(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n * n, 0.5f), {n, n}, KF_BFLOAT16);
  kf_tensor_t b = make_tensor(state, filled(n * n, -0.25f), {n, n}, KF_BFLOAT16);
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    check(state, kf_matmul(a, b, &out), "kf_matmul bfloat16");
    kf_tensor_release(out);
  }
  set_gflops(state, n);
  kf_tensor_release(a);
  kf_tensor_release(b);
}
BENCHMARK(BM_MatmulKernforgeBf16)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DnnlMatmulBf16(benchmark::State& state) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  const int64_t n = state.range(0);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc md({n, n}, dt::bf16, tag::ab);
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(md, md, md), engine);
  } catch (const dnnl::error& e) {  // a CPU without bf16 instructions: oneDNN has no kernel
    const std::string why = std::string("skipped: oneDNN has no bf16 matmul on this CPU: ") +
                            e.what();  // "skipped: ": write_report.py lists it, not a failure
    state.SkipWithError(why.c_str());
    return;
  }
  const dnnl::matmul matmul(pd);
  dnnl::memory a(md, engine), b(md, engine), c(md, engine);
  std::vector<uint16_t> ones(static_cast<size_t>(n * n), 0x3f80);  // bfloat16 1.0
  for (dnnl::memory* m : {&a, &b}) std::copy(ones.begin(), ones.end(), static_cast<uint16_t*>(m->get_data_handle()));
  for (auto _ : state) {
    matmul.execute(stream, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}});
    stream.wait();
  }
  state.SetLabel(pd.impl_info_str());
  set_gflops(state, n);
}
BENCHMARK(BM_DnnlMatmulBf16)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DnnlSoftmax(benchmark::State& state) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  const int64_t n = state.range(0);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc md({n, n}, dt::f32, tag::ab);
  const dnnl::softmax_forward::primitive_desc pd(
      dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, md, 1), engine);
  const dnnl::softmax_forward softmax(pd);
  dnnl::memory src(md, engine), dst(md, engine);
  const std::vector<float> values = filled(n * n, -1.0f);
  std::copy(values.begin(), values.end(), static_cast<float*>(src.get_data_handle()));
  for (auto _ : state) {
    softmax.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
  state.SetLabel(pd.impl_info_str());
  set_bandwidth(state, 2 * kF32 * n * n);
}
BENCHMARK(BM_DnnlSoftmax)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DnnlExp(benchmark::State& state) {
  using dt = dnnl::memory::data_type;
  const int64_t n = state.range(0);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc md({n}, dt::f32, dnnl::memory::format_tag::a);
  const dnnl::eltwise_forward::primitive_desc pd(
      dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                  dnnl::algorithm::eltwise_exp, md, 0.0f, 0.0f),
      engine);
  const dnnl::eltwise_forward exp(pd);
  dnnl::memory src(md, engine), dst(md, engine);
  std::fill_n(static_cast<float*>(src.get_data_handle()), n, -1.0f);
  for (auto _ : state) {
    exp.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
  state.SetLabel(pd.impl_info_str());
  set_bandwidth(state, 2 * kF32 * n);
}
BENCHMARK(BM_DnnlExp)->Arg(k16M)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KfLayerNorm(benchmark::State& state) {
  const int64_t n = state.range(0);
  kf_tensor_t a = make_tensor(state, filled(n * n, -1.0f), {n, n});
  kf_tensor_t w = make_tensor(state, filled(n, 1.0f), {n});
  kf_tensor_t b = make_tensor(state, filled(n, 0.0f), {n});
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    check(state, kf_layer_norm(a, &n, 1, w, b, 1e-5, &out), "kf_layer_norm");
    kf_tensor_release(out);
  }
  set_bandwidth(state, 2 * kF32 * n * n);
  for (kf_tensor_t t : {a, w, b}) kf_tensor_release(t);
}
BENCHMARK(BM_KfLayerNorm)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DnnlLayerNorm(benchmark::State& state) {
  using dt = dnnl::memory::data_type;
  using flags = dnnl::normalization_flags;
  const int64_t n = state.range(0);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dnnl::memory::desc md({n, n}, dt::f32, dnnl::memory::format_tag::ab);
  const dnnl::layer_normalization_forward::primitive_desc pd(
      dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, md, 1e-5f,
                                              flags::use_scale | flags::use_shift),
      engine);
  const dnnl::layer_normalization_forward norm(pd);
  const dnnl::memory::desc wd({n}, dt::f32, dnnl::memory::format_tag::a);
  dnnl::memory src(md, engine), dst(md, engine), scale(wd, engine), shift(wd, engine);
  std::fill_n(static_cast<float*>(src.get_data_handle()), n * n, -1.0f);
  std::fill_n(static_cast<float*>(scale.get_data_handle()), n, 1.0f);
  std::fill_n(static_cast<float*>(shift.get_data_handle()), n, 0.0f);
  for (auto _ : state) {
    norm.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCALE, scale},
                          {DNNL_ARG_SHIFT, shift}});
    stream.wait();
  }
  state.SetLabel(pd.impl_info_str());
  set_bandwidth(state, 2 * kF32 * n * n);
}
BENCHMARK(BM_DnnlLayerNorm)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
