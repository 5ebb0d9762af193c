// bench_cuda.cpp — kernforge_bench_cuda: the cuda backend against its references, in one run
// on one GPU (the GPU check, tools/device/cuda-check.sh, runs it there):
//   - memory-bound ops (add, exp, sum, copy_) next to a device-to-device cudaMemcpyAsync of the
//     same size: the device's bandwidth, counted as bytes read plus bytes written;
//   - matmul (f32, bf16, f16) next to cublasGemmEx called directly with the same types;
//   - one tiny add (1 element, a new output) per iteration: what a call costs on the GPU, queued
//     (the launch and the dispatch, not the kernel);
//   - a 256 MiB upload from pageable memory (kf_tensor_from_data, which the plugin stages
//     through pinned buffers) next to cudaMemcpy from pageable and from pinned memory.
// Each iteration times `kBatch` ops between two synchronizations with the wall clock and
// reports the time per op (UseManualTime), so the synchronization is paid once per batch.
// Where no GPU is, every benchmark is skipped with the runtime's reason.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

using kf_bench::check;

constexpr int kBatch = 20;

kf_device_t cuda_device() {
  kf_device_t d{};
  kf_device_parse("cuda:0", &d);
  return d;
}

/// Empty when cuda is loaded with a device, else the reason.
std::string why_no_gpu() {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) != KF_OK || std::string(info.name) != "cuda") continue;
    if (info.state == KF_BACKEND_LOADED && info.device_count > 0) return {};
    return std::string("cuda is ") + kf_backend_state_name(info.state) + ": " + info.reason;
  }
  return "the cuda plugin was not found";
}

bool skip_without_gpu(benchmark::State& state) {
  static const std::string reason = why_no_gpu();
  if (reason.empty()) return false;
  state.SkipWithError(reason.c_str());
  return true;
}

/// Times `op` kBatch times per iteration, the device synchronized around each batch.
void time_batches(benchmark::State& state, const std::function<void()>& op) {
  op();  // warm-up: first-use costs (context, cuBLAS handle, caching allocator)
  kf_synchronize(cuda_device());
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kBatch; ++i) op();
    kf_synchronize(cuda_device());
    const std::chrono::duration<double> s = std::chrono::steady_clock::now() - start;
    state.SetIterationTime(s.count() / kBatch);
  }
}

/// A float tensor of `shape` on cuda with values in [0, 1) (rand on the device).
kf_tensor_t device_tensor(benchmark::State& state, std::vector<int64_t> shape, kf_dtype_t dtype) {
  kf_tensor_t t = nullptr;
  check(state, kf_rand(shape.data(), static_cast<int32_t>(shape.size()), dtype, cuda_device(), &t),
        "kf_rand");
  return t;
}

// ------------------------------------------------------------- memory bound --

void BM_CudaMemcpyD2D(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const size_t bytes = static_cast<size_t>(state.range(0)) * sizeof(float);
  void* a = nullptr;
  void* b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    state.SkipWithError("cudaMalloc failed");
    return;
  }
  time_batches(state, [&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, nullptr); });
  kf_bench::set_bandwidth(state, 2.0 * static_cast<double>(bytes));  // read + write
  cudaFree(a);
  cudaFree(b);
}

/// kf's `name` on n floats: "add" (a + b into out), "exp" (into out), "sum", "copy" (copy_).
void memory_bound(benchmark::State& state, const char* name, double bytes_per_element) {
  if (skip_without_gpu(state)) return;
  const int64_t n = state.range(0);
  kf_tensor_t a = device_tensor(state, {n}, KF_FLOAT32);
  kf_tensor_t b = device_tensor(state, {n}, KF_FLOAT32);
  kf_tensor_t out = device_tensor(state, {n}, KF_FLOAT32);
  const std::string op = name;
  kf_scalar_t one{};
  one.tag = KF_SCALAR_INT64;
  one.v.i64 = 1;
  time_batches(state, [&] {
    if (op == "add") {
      check(state, kf_add_out(a, b, one, out), "kf_add_out");
    } else if (op == "exp") {
      check(state, kf_exp_out(a, out), "kf_exp_out");
    } else if (op == "copy") {
      check(state, kf_copy_(out, a), "kf_copy_");
    } else {
      kf_tensor_t s = nullptr;
      check(state, kf_sum(a, nullptr, 0, false, KF_DTYPE_UNDEFINED, &s), "kf_sum");
      kf_tensor_release(s);
    }
  });
  kf_bench::set_bandwidth(state, bytes_per_element * static_cast<double>(n));
  kf_tensor_release(a);
  kf_tensor_release(b);
  kf_tensor_release(out);
}

void BM_KfCudaAdd(benchmark::State& state) { memory_bound(state, "add", 12.0); }
void BM_KfCudaExp(benchmark::State& state) { memory_bound(state, "exp", 8.0); }
void BM_KfCudaCopy(benchmark::State& state) { memory_bound(state, "copy", 8.0); }
void BM_KfCudaSum(benchmark::State& state) { memory_bound(state, "sum", 4.0); }

constexpr int64_t kBig = int64_t{1} << 28;  // 256M floats: 1 GiB an operand, far past the L2
BENCHMARK(BM_CudaMemcpyD2D)->Arg(kBig)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KfCudaAdd)->Arg(kBig)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KfCudaExp)->Arg(kBig)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KfCudaCopy)->Arg(kBig)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KfCudaSum)->Arg(kBig)->UseManualTime()->Unit(benchmark::kMillisecond);

// ------------------------------------------------------- host to device --
// Note [Pinned staging] of the plugin (staging.hpp): kf_tensor_from_data of pageable memory
// against cudaMemcpy from pageable and from pinned memory, 256 MiB each.

void BM_KfCudaUpload(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const int64_t n = state.range(0);
  const std::vector<float> host(static_cast<size_t>(n), 1.0f);
  time_batches(state, [&] {
    kf_tensor_t t = nullptr;
    check(state, kf_tensor_from_data(host.data(), &n, 1, KF_FLOAT32, cuda_device(), &t),
          "kf_tensor_from_data");
    kf_tensor_release(t);
  });
  kf_bench::set_bandwidth(state, 4.0 * static_cast<double>(n));
}

void BM_CudaMemcpyH2D(benchmark::State& state, bool pinned) {
  if (skip_without_gpu(state)) return;
  const size_t bytes = static_cast<size_t>(state.range(0)) * sizeof(float);
  std::vector<float> pageable;
  void* host = nullptr;
  void* dev = nullptr;
  if (pinned) {
    if (cudaHostAlloc(&host, bytes, cudaHostAllocDefault) != cudaSuccess) host = nullptr;
  } else {
    pageable.assign(bytes / sizeof(float), 1.0f);
    host = pageable.data();
  }
  if (host == nullptr || cudaMalloc(&dev, bytes) != cudaSuccess) {
    state.SkipWithError("cudaHostAlloc or cudaMalloc failed");
    return;
  }
  time_batches(state, [&] { cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice); });
  kf_bench::set_bandwidth(state, static_cast<double>(bytes));
  cudaFree(dev);
  if (pinned) cudaFreeHost(host);
}

constexpr int64_t kUpload = int64_t{1} << 26;  // 64M floats: 256 MiB
BENCHMARK(BM_KfCudaUpload)->Arg(kUpload)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CudaMemcpyH2D, pageable, false)->Arg(kUpload)->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CudaMemcpyH2D, pinned, true)->Arg(kUpload)->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ------------------------------------------------------------------- GEMM --

cudaDataType cuda_type(kf_dtype_t d) {
  return d == KF_BFLOAT16 ? CUDA_R_16BF : d == KF_FLOAT16 ? CUDA_R_16F : CUDA_R_32F;
}

/// cublasGemmEx called directly: C = A B, n x n, inputs and output of dtype d, float compute
/// (TF32 off, as kernforge's default).
void BM_CublasGemmEx(benchmark::State& state, kf_dtype_t d) {
  if (skip_without_gpu(state)) return;
  const int n = static_cast<int>(state.range(0));
  kf_tensor_t a = device_tensor(state, {n, n}, d);
  kf_tensor_t b = device_tensor(state, {n, n}, d);
  kf_tensor_t c = device_tensor(state, {n, n}, d);
  void *pa = nullptr, *pb = nullptr, *pc = nullptr;
  kf_tensor_data_ptr(a, &pa);
  kf_tensor_data_ptr(b, &pb);
  kf_tensor_data_ptr(c, &pc);
  cublasHandle_t h = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasCreate failed");
    return;
  }
  const float alpha = 1.0f, beta = 0.0f;
  time_batches(state, [&] {
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, pb, cuda_type(d), n, pa,
                 cuda_type(d), n, &beta, pc, cuda_type(d), n, CUBLAS_COMPUTE_32F,
                 CUBLAS_GEMM_DEFAULT);
  });
  kf_bench::set_gflops(state, n);
  cublasDestroy(h);
  kf_tensor_release(a);
  kf_tensor_release(b);
  kf_tensor_release(c);
}

void BM_KfCudaMatmul(benchmark::State& state, kf_dtype_t d) {
  if (skip_without_gpu(state)) return;
  const int64_t n = state.range(0);
  kf_tensor_t a = device_tensor(state, {n, n}, d);
  kf_tensor_t b = device_tensor(state, {n, n}, d);
  time_batches(state, [&] {
    kf_tensor_t c = nullptr;
    check(state, kf_matmul(a, b, &c), "kf_matmul");
    kf_tensor_release(c);
  });
  kf_bench::set_gflops(state, n);
  kf_tensor_release(a);
  kf_tensor_release(b);
}

BENCHMARK_CAPTURE(BM_CublasGemmEx, f32, KF_FLOAT32)->Arg(4096)->Arg(8192)->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KfCudaMatmul, f32, KF_FLOAT32)->Arg(4096)->Arg(8192)->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CublasGemmEx, bf16, KF_BFLOAT16)->Arg(4096)->Arg(8192)->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KfCudaMatmul, bf16, KF_BFLOAT16)->Arg(4096)->Arg(8192)->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CublasGemmEx, f16, KF_FLOAT16)->Arg(8192)->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_KfCudaMatmul, f16, KF_FLOAT16)->Arg(8192)->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// --------------------------------------------------------------- tiny op --

void BM_KfCudaAddTiny(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  kf_tensor_t a = device_tensor(state, {1}, KF_FLOAT32);
  kf_tensor_t b = device_tensor(state, {1}, KF_FLOAT32);
  kf_scalar_t one{};
  one.tag = KF_SCALAR_INT64;
  one.v.i64 = 1;
  time_batches(state, [&] {
    kf_tensor_t c = nullptr;
    check(state, kf_add(a, b, one, &c), "kf_add");
    kf_tensor_release(c);
  });
  kf_tensor_release(a);
  kf_tensor_release(b);
}
BENCHMARK(BM_KfCudaAddTiny)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (kf_init(nullptr) != KF_OK) {
    std::fprintf(stderr, "kf_init failed: %s\n", kf_last_error_message());
    return 1;
  }
  const std::string reason = why_no_gpu();
  benchmark::AddCustomContext("cuda", reason.empty() ? "loaded" : reason);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
