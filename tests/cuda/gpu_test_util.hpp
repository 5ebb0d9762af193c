// gpu_test_util.hpp — the fixture and comparisons of the GPU tests of the backends built from
// backends/gpukernels: cuda's (label requires-gpu-nvidia) and, built from these same sources
// with KF_TEST_GPU_BACKEND="rocm" (tests/rocm), rocm's (requires-gpu-amd). Each test is skipped
// with the runtime's reason where the backend is not loaded; results are compared with the CPU
// backend's on the same inputs.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "kernforge/kernforge.h"
#include "kernforge/kernforge.hpp"

#ifndef KF_TEST_GPU_BACKEND
#define KF_TEST_GPU_BACKEND "cuda"  // the backend under test: "cuda" or "rocm"
#endif

namespace cuda_test {

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override;
  static kf::Device cuda() { return kf::Device(KF_TEST_GPU_BACKEND ":0"); }
  static kf::Device cpu() { return kf::Device::cpu(); }
};

/// Whether `got` (any device) equals `want` (any device) elementwise within
/// |got - want| <= atol + rtol * |want|, compared in float64 on the host; NaNs must match and
/// infinities be equal. The failure message names the first differing element.
::testing::AssertionResult close(const kf::Tensor& got, const kf::Tensor& want, double rtol,
                                 double atol);

/// The tolerances of a comparison with the CPU backend for dtype `d`: both compute in the
/// same precision, so a few units in the last place of the dtype.
double rtol_for(kf::Dtype d);

/// Standard normal values of `shape` on the CPU (float32), from a fixed seed.
kf::Tensor cpu_randn(std::initializer_list<int64_t> shape, uint64_t seed = 7);

}  // namespace cuda_test
