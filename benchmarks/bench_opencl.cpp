// bench_opencl.cpp — the opencl backend against OpenCL called directly, in the same process.
//
// BM_OpenclAddKernforge/n  kf_add of two n-element float32 tensors on opencl:0, a new output
//                          each time (the caching allocator reuses the block), then
//                          kf_synchronize: one launch of binary.cl's add_contig per call.
// BM_OpenclAddDirect/n     the same kernel (the same embedded source and build options) on the
//                          same device, built and enqueued with the OpenCL API directly on SVM
//                          buffers, then clFinish: the reference (budget: kernforge >= 0.9x).
// BM_OpenclMatmul/n        kf_matmul of two n x n float32 tensors on opencl (the tiled kernel of
//                          linalg.cl), synchronized; informative next to BM_MatmulKernforge on cpu.
// BM_OpenclTinyAdd         kf_add of 1-element tensors on opencl without waiting (the queue is
//                          drained every 256 calls, inside the timing): the fixed cost per op.
// BM_OpenclSort/n,         kf_sort / kf_argsort of n random float32 in one line on opencl,
// BM_OpenclArgsort/n       synchronized: sort.cl's bitonic network where the backend has a GPU,
//                          the CPU fallback with only PoCL (Note [Sorts on CPU devices]).
// Each skips with the reason when the opencl backend is not loaded.
#include <CL/cl.h>

#include <cstdio>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "clkernels/device.hpp"
#include "clkernels/kernels.hpp"
#include "kernforge/kernforge.h"

namespace {

bool opencl_device(benchmark::State& state, kf_device_t* dev) {
  if (kf_device_parse("opencl:0", dev) == KF_OK) {
    int64_t shape[1] = {1};
    kf_tensor_t t = nullptr;
    if (kf_tensor_empty(shape, 1, KF_FLOAT32, *dev, &t) == KF_OK) {
      kf_tensor_release(t);
      return true;
    }
  }
  state.SkipWithError("the opencl backend is not loaded (see kernforge doctor)");
  return false;
}

kf_tensor_t full(kf_device_t dev, int64_t n, double value) {
  kf_tensor_t t = nullptr;
  kf_full(&n, 1, kf_scalar_f64(value), KF_FLOAT32, dev, &t);
  return t;
}

void set_bytes(benchmark::State& state, int64_t n) {
  state.counters["GB/s"] = benchmark::Counter(12.0 * static_cast<double>(n) * 1e-9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void BM_OpenclAddKernforge(benchmark::State& state) {
  kf_device_t dev{};
  if (!opencl_device(state, &dev)) return;
  const int64_t n = state.range(0);
  kf_tensor_t a = full(dev, n, 1.5), b = full(dev, n, 2.5);
  kf_synchronize(dev);
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    if (kf_add(a, b, kf_scalar_i64(1), &out) != KF_OK) {
      state.SkipWithError(kf_last_error_message());
      break;
    }
    kf_synchronize(dev);
    kf_tensor_release(out);
  }
  set_bytes(state, n);
  kf_tensor_release(a);
  kf_tensor_release(b);
}
BENCHMARK(BM_OpenclAddKernforge)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The first OpenCL device that has SVM, with the kernel add_contig built as the backend builds it.
struct Direct {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  std::string error;

  Direct() {
    cl_platform_id platform = nullptr;
    cl_uint count = 0;
    if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) {
      error = "no OpenCL platform";
      return;
    }
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    cl_int e = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &e);
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, nullptr);
    kf::clk::Capabilities caps;
    caps.fp64 = fp64 != 0;
    const char* source = kf::clk::family_source(kf::clk::Family::Binary);
    const std::string options = kf::clk::build_options({kf::clk::Family::Binary, KF_FLOAT32}, caps);
    program = clCreateProgramWithSource(context, 1, &source, nullptr, &e);
    if (clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      error = "the add kernel did not build";
      return;
    }
    kernel = clCreateKernel(program, "add_contig", &e);
    if (kernel == nullptr) error = "no add_contig kernel";
  }
  ~Direct() {
    if (kernel != nullptr) clReleaseKernel(kernel);
    if (program != nullptr) clReleaseProgram(program);
    if (queue != nullptr) clReleaseCommandQueue(queue);
    if (context != nullptr) clReleaseContext(context);
  }
};

void BM_OpenclAddDirect(benchmark::State& state) {
  Direct d;
  if (!d.error.empty()) {
    state.SkipWithError(d.error.c_str());
    return;
  }
  const int64_t n = state.range(0);
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  auto* a = static_cast<float*>(clSVMAlloc(d.context, CL_MEM_READ_WRITE, bytes, 0));
  auto* b = static_cast<float*>(clSVMAlloc(d.context, CL_MEM_READ_WRITE, bytes, 0));
  auto* out = static_cast<float*>(clSVMAlloc(d.context, CL_MEM_READ_WRITE, bytes, 0));
  const float x = 1.5f, y = 2.5f, alpha = 1.0f;
  clEnqueueSVMMemFill(d.queue, a, &x, sizeof x, bytes, 0, nullptr, nullptr);
  clEnqueueSVMMemFill(d.queue, b, &y, sizeof y, bytes, 0, nullptr, nullptr);
  clFinish(d.queue);
  const size_t local = 256, global = (static_cast<size_t>(n) + local - 1) / local * local;
  for (auto _ : state) {
    clSetKernelArgSVMPointer(d.kernel, 0, out);
    clSetKernelArgSVMPointer(d.kernel, 1, a);
    clSetKernelArgSVMPointer(d.kernel, 2, b);
    clSetKernelArg(d.kernel, 3, sizeof alpha, &alpha);
    clSetKernelArg(d.kernel, 4, sizeof n, &n);
    clEnqueueNDRangeKernel(d.queue, d.kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(d.queue);
  }
  set_bytes(state, n);
  clSVMFree(d.context, a);
  clSVMFree(d.context, b);
  clSVMFree(d.context, out);
}
BENCHMARK(BM_OpenclAddDirect)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_OpenclMatmul(benchmark::State& state) {
  kf_device_t dev{};
  if (!opencl_device(state, &dev)) return;
  const int64_t n = state.range(0);
  const int64_t shape[2] = {n, n};
  kf_tensor_t a = nullptr, b = nullptr;
  kf_full(shape, 2, kf_scalar_f64(0.5), KF_FLOAT32, dev, &a);
  kf_full(shape, 2, kf_scalar_f64(0.25), KF_FLOAT32, dev, &b);
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    if (kf_matmul(a, b, &out) != KF_OK) {
      state.SkipWithError(kf_last_error_message());
      break;
    }
    kf_synchronize(dev);
    kf_tensor_release(out);
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * static_cast<double>(n * n) * n * 1e-9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
  kf_tensor_release(a);
  kf_tensor_release(b);
}
BENCHMARK(BM_OpenclMatmul)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_OpenclTinyAdd(benchmark::State& state) {
  kf_device_t dev{};
  if (!opencl_device(state, &dev)) return;
  kf_tensor_t a = full(dev, 1, 1.5), b = full(dev, 1, 2.5);
  kf_synchronize(dev);
  int64_t calls = 0;
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    if (kf_add(a, b, kf_scalar_i64(1), &out) != KF_OK) {
      state.SkipWithError(kf_last_error_message());
      break;
    }
    kf_tensor_release(out);
    if (++calls % 256 == 0) kf_synchronize(dev);
  }
  kf_synchronize(dev);
  kf_tensor_release(a);
  kf_tensor_release(b);
}
BENCHMARK(BM_OpenclTinyAdd)->UseRealTime();

/// kf_sort (positions: kf_argsort) of n random float32 in one line, synchronized.
void sort_on_opencl(benchmark::State& state, bool positions) {
  kf_device_t dev{};
  if (!opencl_device(state, &dev)) return;
  const int64_t n = state.range(0);
  kf_tensor_t x = nullptr;
  if (kf_rand(&n, 1, KF_FLOAT32, dev, &x) != KF_OK) {
    state.SkipWithError(kf_last_error_message());
    return;
  }
  kf_synchronize(dev);
  for (auto _ : state) {
    kf_tensor_t out = nullptr;
    const kf_status_t s = positions ? kf_argsort(x, 0, false, true, &out)
                                    : kf_sort(x, 0, false, true, &out);
    if (s != KF_OK) {
      state.SkipWithError(kf_last_error_message());
      break;
    }
    kf_synchronize(dev);
    kf_tensor_release(out);
  }
  kf_tensor_release(x);
}

void BM_OpenclSort(benchmark::State& state) { sort_on_opencl(state, false); }
void BM_OpenclArgsort(benchmark::State& state) { sort_on_opencl(state, true); }
BENCHMARK(BM_OpenclSort)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OpenclArgsort)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
