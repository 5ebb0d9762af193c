// On a GPU (CTest label requires-gpu-nvidia, or requires-gpu-amd for rocm's build of this file):
// the backend's copies, streams, events, pinned staging and random numbers. Everywhere else each
// test is skipped with the reason the runtime gives for the backend (gpu_test_util.hpp).
#include <cstring>
#include <vector>

#include "gpu_test_util.hpp"

namespace cuda_test {
namespace {

TEST_F(Gpu, DescribesItsDevicesAndLibraries) {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) != KF_OK || std::string(info.name) != KF_TEST_GPU_BACKEND) {
      continue;
    }
    const std::string details = info.details;
#ifdef KF_TEST_GPU_HIP
    EXPECT_NE(details.find("HIP runtime"), std::string::npos) << details;
    EXPECT_NE(details.find("GEMM"), std::string::npos) << details;
    EXPECT_NE(details.find("gfx"), std::string::npos) << details;
#else
    EXPECT_NE(details.find("CUDA runtime"), std::string::npos) << details;
    EXPECT_NE(details.find("cuBLAS"), std::string::npos) << details;
    EXPECT_NE(details.find("sm_"), std::string::npos) << details;
#endif
    EXPECT_NE(details.find("device 0"), std::string::npos) << details;
  }
}

TEST_F(Gpu, CopiesRoundTripEveryDtype) {
  const std::vector<double> values = {0.0, -1.5, 2.25, 1e3, -7.0, 0.5, 3.0, 100.0};
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    const auto dtype = static_cast<kf::Dtype>(d);
    const kf::Tensor host = kf::from_vector(values, {2, 4}).to(dtype);
    const kf::Tensor dev = host.to(cuda());
    EXPECT_EQ(dev.device(), cuda());
    kf::Tensor dev2 = kf::zeros_like(dev);
    dev2.copy_(dev);  // device to device
    EXPECT_TRUE(close(dev2.to(cpu()), host, 0, 0)) << kf::dtype_name(dtype);
  }
}

TEST_F(Gpu, LargeCopiesArriveWhole) {
  // Through the plugin's pinned staging (4 MiB chunks): whole chunks, and a ragged last one.
  for (int64_t n : {int64_t{1} << 26, int64_t{3} * (1 << 20) + 3087}) {
    std::vector<float> a(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = static_cast<float>(i % 65521);
    const kf::Tensor t = kf::from_vector(a, {n}, cuda());
    EXPECT_EQ(t.sum(std::nullopt, false, kf::Dtype::Float64).to(cpu()).item<double>(),
              kf::from_vector(a, {n}).sum(std::nullopt, false, kf::Dtype::Float64).item<double>());
    const std::vector<float> back = t.to_vector<float>();
    ASSERT_EQ(back.size(), a.size());
    EXPECT_EQ(std::memcmp(back.data(), a.data(), a.size() * sizeof(float)), 0) << n;
  }
}

TEST_F(Gpu, AnEventOrdersTwoStreams) {
  kf_stream_t s1 = nullptr, s2 = nullptr;
  kf_event_t e = nullptr;
  ASSERT_EQ(kf_stream_create(cuda().c(), &s1), KF_OK);
  ASSERT_EQ(kf_stream_create(cuda().c(), &s2), KF_OK);
  ASSERT_EQ(kf_event_create(cuda().c(), &e), KF_OK);
  const int64_t n = int64_t{1} << 24;
  ASSERT_EQ(kf_set_current_stream(cuda().c(), s1), KF_OK);
  kf::Tensor x = kf::ones({n}, kf::Dtype::Float32, cuda());
  for (int i = 0; i < 20; ++i) x = x.add(x);  // a long chain on s1: 2^20 in the end
  ASSERT_EQ(kf_event_record(e, s1), KF_OK);
  ASSERT_EQ(kf_set_current_stream(cuda().c(), s2), KF_OK);
  ASSERT_EQ(kf_stream_wait_event(s2, e), KF_OK);
  const kf::Tensor y = x.sum();  // on s2, after the chain
  ASSERT_EQ(kf_set_current_stream(cuda().c(), nullptr), KF_OK);
  ASSERT_EQ(kf_stream_synchronize(s2), KF_OK);
  EXPECT_EQ(y.to(cpu()).item<double>(), static_cast<double>(n) * 1048576.0);
  double ms = -1;
  kf_event_t start = nullptr;
  ASSERT_EQ(kf_event_create(cuda().c(), &start), KF_OK);
  ASSERT_EQ(kf_event_record(start, s1), KF_OK);
  x = x.mul(x);
  ASSERT_EQ(kf_event_record(e, s1), KF_OK);
  ASSERT_EQ(kf_event_synchronize(e), KF_OK);
  bool done = false;
  ASSERT_EQ(kf_event_query(e, &done), KF_OK);
  EXPECT_TRUE(done);
  ASSERT_EQ(kf_event_elapsed_ms(start, e, &ms), KF_OK);
  EXPECT_GE(ms, 0.0);
  kf_event_release(start);
  kf_event_release(e);
  kf_stream_release(s2);
  kf_stream_release(s1);
}

TEST_F(Gpu, RecordStreamKeepsABlockUntilTheStreamIsDone) {
  kf_stream_t side = nullptr;
  ASSERT_EQ(kf_stream_create(cuda().c(), &side), KF_OK);
  const int64_t n = int64_t{1} << 24;
  kf::Tensor x = kf::full({n}, 3.0, kf::Dtype::Float32, cuda());
  ASSERT_EQ(kf_set_current_stream(cuda().c(), side), KF_OK);
  kf::Tensor y = x;
  for (int i = 0; i < 10; ++i) y = y.mul(x);  // reads x on the side stream
  ASSERT_EQ(kf_tensor_record_stream(x.handle(), side), KF_OK);
  ASSERT_EQ(kf_set_current_stream(cuda().c(), nullptr), KF_OK);
  x = kf::Tensor();  // freed while the side stream may still read it
  const kf::Tensor z = kf::zeros({n}, kf::Dtype::Float32, cuda());  // must not get x's block early
  ASSERT_EQ(kf_stream_synchronize(side), KF_OK);
  const double want = 177147.0 * n;  // 3^11 each
  EXPECT_EQ(y.sum(std::nullopt, false, kf::Dtype::Float64).to(cpu()).item<double>(), want);
  EXPECT_EQ(z.sum().to(cpu()).item<double>(), 0.0);
  kf_stream_release(side);
}

TEST_F(Gpu, RandMatchesTheCpuBitForBit) {
  for (kf::Dtype d : {kf::Dtype::Float32, kf::Dtype::Float64, kf::Dtype::Float16,
                      kf::Dtype::BFloat16}) {
    ASSERT_EQ(kf_manual_seed(1234), KF_OK);
    const kf::Tensor c0 = kf::rand({1001}, d, cpu());
    const kf::Tensor c1 = kf::rand({7, 3}, d, cpu());  // the second call's offset
    ASSERT_EQ(kf_manual_seed(1234), KF_OK);
    const kf::Tensor g0 = kf::rand({1001}, d, cuda());
    const kf::Tensor g1 = kf::rand({7, 3}, d, cuda());
    EXPECT_TRUE(close(g0, c0, 0, 0)) << kf::dtype_name(d);
    EXPECT_TRUE(close(g1, c1, 0, 0)) << kf::dtype_name(d);
  }
}

TEST_F(Gpu, RandnMatchesTheCpu) {
  for (kf::Dtype d : {kf::Dtype::Float32, kf::Dtype::Float64, kf::Dtype::Float16,
                      kf::Dtype::BFloat16}) {
    ASSERT_EQ(kf_manual_seed(99), KF_OK);
    const kf::Tensor c = kf::randn({4099}, d, cpu());
    ASSERT_EQ(kf_manual_seed(99), KF_OK);
    const kf::Tensor g = kf::randn({4099}, d, cuda());
    // The same uniforms; Box-Muller's log, cos and sin in double differ by an ulp or two
    // between libm and CUDA, which the rounding to the dtype hides almost always.
    EXPECT_TRUE(close(g, c, d == kf::Dtype::Float64 ? 1e-13 : rtol_for(d), 1e-13))
        << kf::dtype_name(d);
  }
}

TEST_F(Gpu, AnOutOfRangeIndexIsAnErrorNotACrash) {
  const kf::Tensor x = cpu_randn({4, 5}).to(cuda());
  const kf::Tensor bad = kf::tensor({int64_t{0}, int64_t{7}}).to(cuda());
  kf_tensor_t out = nullptr;
  const kf_status_t s = kf_index_select(x.handle(), 0, bad.handle(), &out);
  EXPECT_NE(s, KF_OK);
  EXPECT_NE(std::string(kf_last_error_message()).find("index"), std::string::npos)
      << kf_last_error_message();
  // The device is still usable.
  EXPECT_TRUE(close(x.add(x).to(cpu()), x.to(cpu()).add(x.to(cpu())), 0, 0));
}

}  // namespace
}  // namespace cuda_test
