// gpu_test_util.cpp — the Gpu fixture and close() (gpu_test_util.hpp).
#include "gpu_test_util.hpp"

#include <cmath>
#include <sstream>
#include <vector>

namespace cuda_test {

void Gpu::SetUp() {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) != KF_OK || std::string(info.name) != KF_TEST_GPU_BACKEND)
      continue;
    if (info.state == KF_BACKEND_LOADED && info.device_count > 0) return;
    GTEST_SKIP() << "no GPU for it here: " KF_TEST_GPU_BACKEND " is "
                 << kf_backend_state_name(info.state) << ": "
                 << info.reason;
  }
  GTEST_SKIP() << "the " KF_TEST_GPU_BACKEND " plugin was not found next to libkernforge";
}

::testing::AssertionResult close(const kf::Tensor& got, const kf::Tensor& want, double rtol,
                                 double atol) {
  if (got.sizes() != want.sizes()) {
    return ::testing::AssertionFailure() << "shapes differ";
  }
  if (got.dtype() != want.dtype()) {
    return ::testing::AssertionFailure()
           << "dtypes differ: " << got.dtype() << " against " << want.dtype();
  }
  const std::vector<double> g = got.to(kf::Device::cpu(), kf::Dtype::Float64).contiguous()
                                    .to_vector<double>();
  const std::vector<double> w = want.to(kf::Device::cpu(), kf::Dtype::Float64).contiguous()
                                    .to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) {
    const bool same_nan = std::isnan(g[i]) && std::isnan(w[i]);
    const bool same_inf = std::isinf(w[i]) && g[i] == w[i];
    if (same_nan || same_inf) continue;
    if (!(std::fabs(g[i] - w[i]) <= atol + rtol * std::fabs(w[i]))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " KF_TEST_GPU_BACKEND " " << g[i] << ", cpu " << w[i]
             << " (rtol " << rtol << ", atol " << atol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

double rtol_for(kf::Dtype d) {
  switch (d) {
    case kf::Dtype::Float64: return 1e-12;
    case kf::Dtype::Float32: return 1e-5;
    case kf::Dtype::Float16: return 2e-3;
    case kf::Dtype::BFloat16: return 1.6e-2;
    default: return 0.0;
  }
}

kf::Tensor cpu_randn(std::initializer_list<int64_t> shape, uint64_t seed) {
  kf::detail::check(kf_manual_seed(seed));
  return kf::randn(std::vector<int64_t>(shape), kf::Dtype::Float32, kf::Device::cpu());
}

}  // namespace cuda_test
