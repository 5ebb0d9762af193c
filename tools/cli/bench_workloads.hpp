// bench_workloads.hpp — the standard workloads of `kernforge bench`: a tiny op (the dispatch
// overhead), matmul f32 and bf16 at several sizes, elementwise ops and a reduction over 16M
// floats, softmax 4096x4096, an MLP and a transformer block forward pass. Each is written once
// against the C ABI and runs on any device.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace kf::cli::bench {

struct Workload {
  std::string name;  // "matmul 2048x2048 f32"
  std::string unit;  // what the rate is in: "GFLOP/s", "GB/s", or "us/op" (time per run)
  double work = 0;   // floating-point operations or bytes moved per run (0 for "us/op")
  /// Makes the inputs on `device` and returns one run of the workload. Throws Skip when the
  /// device cannot run it (an op or dtype it lacks).
  std::function<std::function<void()>(kf_device_t device)> prepare;
};

/// The workloads, at their full sizes or, with `quick`, at small ones (seconds in all).
std::vector<Workload> workloads(bool quick);

}  // namespace kf::cli::bench
