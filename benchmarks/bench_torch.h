// bench_torch.h — libtorch's side of the tiny-op comparison in kernforge_bench. bench_torch.cpp
// is compiled only when CMake finds libtorch (Debian: libtorch-dev), which also defines
// KF_BENCH_HAVE_TORCH for bench_dispatch.cpp; without it nothing here is declared or called.
#pragma once

#include <string>

namespace kf_bench {

// Sets libtorch to one intra-op thread and registers BM_TorchAddTiny, with `repetitions`
// repetitions when > 0 (else the command line's --benchmark_repetitions).
void register_torch_benchmarks(int repetitions);

// libtorch's version and intra-op thread count, for the report's context.
std::string torch_version();
std::string torch_threads();

}  // namespace kf_bench
