// On a real Intel GPU (CTest label requires-gpu-intel): the xpu backend runs ops, streams and
// events. Everywhere else each test is skipped with the reason the runtime gives for xpu.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernforge/kernforge.h"
#include "kernforge/kernforge_ops.h"

namespace {

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int32_t i = 0; i < kf_backend_count(); ++i) {
      kf_backend_info_t info{};
      info.struct_size = sizeof(info);
      if (kf_backend_info(i, &info) != KF_OK || std::string(info.name) != "xpu") continue;
      if (info.state == KF_BACKEND_LOADED) return;
      GTEST_SKIP() << "no Intel GPU here: xpu is " << kf_backend_state_name(info.state) << ": "
                   << info.reason;
    }
    GTEST_SKIP() << "the xpu plugin was not found";
  }
  kf_device_t xpu() const {
    kf_device_t d{};
    kf_device_parse("xpu:0", &d);
    return d;
  }
};

kf_scalar_t one() {
  kf_scalar_t s{};
  s.tag = KF_SCALAR_INT64;
  s.v.i64 = 1;
  return s;
}

TEST_F(Gpu, AddOfFloatsMatchesTheHost) {
  const int64_t n = 1 << 20;
  std::vector<float> a(n), b(n), out(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.5f;
    b[i] = static_cast<float>(i % 7) - 3.0f;
  }
  kf_tensor_t ta = nullptr, tb = nullptr, tc = nullptr;
  ASSERT_EQ(kf_tensor_from_data(a.data(), &n, 1, KF_FLOAT32, xpu(), &ta), KF_OK);
  ASSERT_EQ(kf_tensor_from_data(b.data(), &n, 1, KF_FLOAT32, xpu(), &tb), KF_OK);
  ASSERT_EQ(kf_add(ta, tb, one(), &tc), KF_OK);
  ASSERT_EQ(kf_tensor_copy_to_host(tc, out.data(), out.size() * sizeof(float)), KF_OK);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] + b[i]) << i;
  kf_tensor_release(ta);
  kf_tensor_release(tb);
  kf_tensor_release(tc);
}

TEST_F(Gpu, AnEventOrdersTwoStreams) {
  kf_stream_t s1 = nullptr, s2 = nullptr;
  kf_event_t e = nullptr;
  ASSERT_EQ(kf_stream_create(xpu(), &s1), KF_OK);
  ASSERT_EQ(kf_stream_create(xpu(), &s2), KF_OK);
  ASSERT_EQ(kf_event_create(xpu(), &e), KF_OK);
  const int64_t n = 1 << 16;
  std::vector<int32_t> host(n, 3), out(n, 0);
  kf_tensor_t t = nullptr, u = nullptr;
  ASSERT_EQ(kf_set_current_stream(xpu(), s1), KF_OK);
  ASSERT_EQ(kf_tensor_from_data(host.data(), &n, 1, KF_INT32, xpu(), &t), KF_OK);
  ASSERT_EQ(kf_add_(t, t, one()), KF_OK);
  ASSERT_EQ(kf_event_record(e, s1), KF_OK);
  ASSERT_EQ(kf_stream_wait_event(s2, e), KF_OK);
  ASSERT_EQ(kf_set_current_stream(xpu(), s2), KF_OK);
  ASSERT_EQ(kf_add(t, t, one(), &u), KF_OK);
  ASSERT_EQ(kf_tensor_copy_to_host(u, out.data(), out.size() * sizeof(int32_t)), KF_OK);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 12) << i;
  double ms = -1;
  ASSERT_EQ(kf_event_synchronize(e), KF_OK);
  bool done = false;
  ASSERT_EQ(kf_event_query(e, &done), KF_OK);
  EXPECT_TRUE(done);
  kf_tensor_release(t);
  kf_tensor_release(u);
  kf_set_current_stream(xpu(), nullptr);
  kf_event_t e2 = nullptr;
  ASSERT_EQ(kf_event_create(xpu(), &e2), KF_OK);
  ASSERT_EQ(kf_event_record(e2, s2), KF_OK);
  ASSERT_EQ(kf_event_synchronize(e2), KF_OK);
  ASSERT_EQ(kf_event_elapsed_ms(e, e2, &ms), KF_OK);
  EXPECT_GE(ms, 0.0);
  kf_event_release(e);
  kf_event_release(e2);
  kf_stream_release(s1);
  kf_stream_release(s2);
}

}  // namespace
