// bench_torch.cpp — the reference for the tiny-op budget: libtorch's torch::add on the same
// operands as BM_TinyAdd (bench_dispatch.cpp), in the same process and run.
//
// BM_TorchAddTinyDefault  torch::add(a, b, alpha=1) of two 1-element float32 tensors (shape
//                         {1}), a new output tensor each time, released at the end of the
//                         iteration, as a C++ program calls it: libtorch's default mode, with
//                         its autograd dispatch layer (the tensors do not require grad). The
//                         budget's reference: kf_add through the C ABI >= 10x faster.
// BM_TorchAddTiny         the same under c10::InferenceMode (informative: the strictest
//                         comparison, see below).
//
// What keeps the comparison fair, and strict on kernforge's side:
// - at::set_num_threads(1) while a torch benchmark runs (OneTorchThread): kernforge runs a
//   1-element add on the calling thread; libtorch would not split one element across threads
//   either, but one intra-op thread keeps its OpenMP pool from being started or spinning. The
//   count is put back afterwards: it is the calling thread's OpenMP setting, which the CPU
//   backend and oneDNN read too, so leaving it at 1 would run every other benchmark of the
//   process on one thread.
// - BM_TorchAddTiny runs under c10::InferenceMode: kernforge has no autograd, so there libtorch
//   runs without its autograd and view-tracking dispatch layers too. This is libtorch's fastest
//   path for the call, so its ratio is the smallest one libtorch's C++ API can give.
// - The operands are CPU float32 tensors of shape {1} holding 1.5, as in BM_TinyAdd.
//
// benchmarks/CMakeLists.txt compiles this file in its own object library, the only one that sees
// libtorch's compile definitions and (system) include paths.
#include "bench_torch.h"

#include <string>
#include <utility>

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <torch/types.h>
#include <torch/version.h>

#include <benchmark/benchmark.h>
#include <omp.h>

namespace {

/// One libtorch intra-op thread for the life of the object, the calling thread's OpenMP count
/// of before afterwards. The count is read from OpenMP, not at::get_num_threads(): libtorch's
/// first call of that sets the count to its default, the number of physical cores (1 on a
/// 2-vCPU machine), which would then stay for every other benchmark.
class OneTorchThread {
 public:
  OneTorchThread() : saved_(omp_get_max_threads()) { at::set_num_threads(1); }
  ~OneTorchThread() { at::set_num_threads(saved_); }
  OneTorchThread(const OneTorchThread&) = delete;
  OneTorchThread& operator=(const OneTorchThread&) = delete;

 private:
  int saved_;
};

void BM_TorchAddTiny(benchmark::State& state) {
  const OneTorchThread one_thread;
  const c10::InferenceMode no_autograd;
  const torch::Tensor a = torch::full({1}, 1.5f, torch::dtype(torch::kFloat32));
  const torch::Tensor b = torch::full({1}, 1.5f, torch::dtype(torch::kFloat32));
  for (auto _ : state) {
    torch::Tensor out = torch::add(a, b, /*alpha=*/1);
    benchmark::DoNotOptimize(out);
  }
}

void BM_TorchAddTinyDefault(benchmark::State& state) {
  const OneTorchThread one_thread;
  const torch::Tensor a = torch::full({1}, 1.5f, torch::dtype(torch::kFloat32));
  const torch::Tensor b = torch::full({1}, 1.5f, torch::dtype(torch::kFloat32));
  for (auto _ : state) {
    torch::Tensor out = torch::add(a, b, /*alpha=*/1);
    benchmark::DoNotOptimize(out);
  }
}

}  // namespace

namespace kf_bench {

void register_torch_benchmarks(int repetitions) {
  for (auto [name, fn] : {std::pair{"BM_TorchAddTinyDefault", &BM_TorchAddTinyDefault},
                          std::pair{"BM_TorchAddTiny", &BM_TorchAddTiny}}) {
    benchmark::internal::Benchmark* bm = benchmark::RegisterBenchmark(name, fn);
    if (repetitions > 0) bm->Repetitions(repetitions);
  }
}

std::string torch_version() { return TORCH_VERSION; }

std::string torch_threads() {
  const OneTorchThread one_thread;  // what the torch benchmarks run with
  return std::to_string(at::get_num_threads());
}

}  // namespace kf_bench
