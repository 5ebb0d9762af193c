// Streams and events (C ABI 1.2) on a real asynchronous device: the opencl backend's command
// queues. Work is made slow by chains of matrix products (x = 1/n everywhere, so x @ x = x,
// exactly, however many times), so an ordering the runtime failed to keep shows up as wrong
// values. Every check of "not yet" is made only when an event proves the work was still
// queued at that moment, so a fast machine makes a check inconclusive, never wrong.
#include <cmath>
#include <vector>

#include "opencl_util.hpp"

namespace opencl_test {
namespace {

constexpr int64_t kN = 384;  // 384^3 multiply-adds per product: tens of ms on a CPU device

/// x: n x n, every element 1/n (1/384 rounds, but x @ x then equals x within a few ulps, which
/// the checks allow), made on the default stream and waited for, so other streams may read it.
void make_x(T& x, kf_device_t d) {
  const int64_t shape[2] = {kN, kN};
  ASSERT_EQ(kf_full(shape, 2, kf_scalar_f64(1.0 / kN), KF_FLOAT32, d, x.out()), KF_OK)
      << last_error();
  ASSERT_EQ(kf_synchronize(d), KF_OK) << last_error();
}

/// y = x @ x @ ... (`steps` products) on the current stream.
void chain(T& y, const T& x, int steps) {
  ASSERT_EQ(kf_mm(x, x, y.out()), KF_OK) << last_error();
  for (int i = 1; i < steps; ++i) {
    T next;
    ASSERT_EQ(kf_mm(y, x, next.out()), KF_OK) << last_error();
    std::swap(y.h, next.h);
  }
}

::testing::AssertionResult all_near(const std::vector<float>& v, float want) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::fabs(v[i] - want) > 1e-4f * std::fabs(want) + 1e-7f) {
      return ::testing::AssertionFailure() << "[" << i << "] = " << v[i] << ", expected " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(Streams, ACopyToTheHostWaitsForTheWorkQueuedOnTheCurrentStream) {
  OPENCL_OR_SKIP(dev);
  T x, y;
  make_x(x, dev);
  Stream s(dev);
  set_current(dev, s.h);
  chain(y, x, 6);
  EXPECT_TRUE(all_near(host(y), 1.0f / kN));
  ASSERT_EQ(kf_tensor_record_stream(x, s.h), KF_OK) << last_error();
  set_current(dev, nullptr);
}

TEST(Streams, AnEventOrdersWorkOnTwoStreams) {
  OPENCL_OR_SKIP(dev);
  T x, y, z;
  make_x(x, dev);
  Stream s1(dev), s2(dev);
  Event e(dev);
  set_current(dev, s1.h);
  chain(y, x, 6);  // y on s1, slow
  ASSERT_EQ(kf_event_record(e.h, s1.h), KF_OK) << last_error();
  ASSERT_EQ(kf_stream_wait_event(s2.h, e.h), KF_OK) << last_error();
  set_current(dev, s2.h);
  ASSERT_EQ(kf_mul(y, x, z.out()), KF_OK) << last_error();  // z on s2 reads y
  EXPECT_TRUE(all_near(host(z), 1.0f / (kN * kN))) << "s2 ran before s1's event";
  ASSERT_EQ(kf_tensor_record_stream(y, s2.h), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_record_stream(x, s1.h), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_record_stream(x, s2.h), KF_OK) << last_error();
  set_current(dev, nullptr);
}

TEST(Streams, RecordStreamKeepsABlockFromReuseWhileTheOtherStreamReadsIt) {
  OPENCL_OR_SKIP(dev);
  T x;
  make_x(x, dev);
  Stream s1(dev), s2(dev);
  set_current(dev, s1.h);
  T a;
  ASSERT_EQ(kf_mul(x, x, a.out()), KF_OK) << last_error();  // a: a block of s1, 1/n^2
  ASSERT_EQ(kf_synchronize(dev), KF_OK) << last_error();
  void* pa = data_of(a);
  set_current(dev, s2.h);
  T y;
  chain(y, x, 4);                                            // s2 busy first
  T r;
  ASSERT_EQ(kf_mm(a, x, r.out()), KF_OK) << last_error();    // then reads a on s2
  Event read(dev);
  ASSERT_EQ(kf_event_record(read.h, s2.h), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_record_stream(a, s2.h), KF_OK) << last_error();
  a.reset();
  set_current(dev, s1.h);
  T b;
  const int64_t shape[2] = {kN, kN};
  ASSERT_EQ(kf_full(shape, 2, kf_scalar_f64(-7.0), KF_FLOAT32, dev, b.out()), KF_OK)
      << last_error();
  bool passed = true;
  ASSERT_EQ(kf_event_query(read.h, &passed), KF_OK) << last_error();
  if (!passed) {
    EXPECT_NE(data_of(b), pa) << "a block s2 still reads was handed out on s1";
  }
  // Whatever the timing, s2 read the values a had, never b's -7 (r is read once s2 is done:
  // a copy to the host waits for the current stream only, s1 here).
  ASSERT_EQ(kf_stream_synchronize(s2.h), KF_OK) << last_error();
  EXPECT_TRUE(all_near(host(r), 1.0f / (kN * kN)));
  ASSERT_EQ(kf_tensor_record_stream(x, s2.h), KF_OK) << last_error();
  set_current(dev, nullptr);
}

TEST(Streams, StreamSynchronizeAndEventsReportTheQueuedWork) {
  OPENCL_OR_SKIP(dev);
  T x, y;
  make_x(x, dev);
  Stream s(dev);
  Event start(dev), end(dev);
  set_current(dev, s.h);
  ASSERT_EQ(kf_event_record(start.h, s.h), KF_OK) << last_error();
  chain(y, x, 3);
  ASSERT_EQ(kf_event_record(end.h, s.h), KF_OK) << last_error();
  ASSERT_EQ(kf_stream_synchronize(s.h), KF_OK) << last_error();
  bool done = false;
  ASSERT_EQ(kf_event_query(end.h, &done), KF_OK) << last_error();
  EXPECT_TRUE(done) << "the stream was synchronized: its last event has passed";
  double ms = -1;
  ASSERT_EQ(kf_event_elapsed_ms(start.h, end.h, &ms), KF_OK) << last_error();
  EXPECT_GT(ms, 0.0) << "three matrix products ran between the events";
  ASSERT_EQ(kf_event_synchronize(end.h), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_record_stream(x, s.h), KF_OK) << last_error();
  set_current(dev, nullptr);
}

TEST(Streams, TensorsMoveBetweenTheCpuAndTheDeviceBothWays) {
  OPENCL_OR_SKIP(dev);
  T a, b, c;
  make(a, {1.5f, -2.0f, 3.25f, 0.0f}, {2, 2}, kf_device_cpu());
  ASSERT_EQ(kf_tensor_to(a, dev, KF_DTYPE_UNDEFINED, b.out()), KF_OK) << last_error();
  Stream s(dev);
  set_current(dev, s.h);
  T d;
  ASSERT_EQ(kf_add(b, b, kf_scalar_i64(1), d.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_to(d, kf_device_cpu(), KF_DTYPE_UNDEFINED, c.out()), KF_OK) << last_error();
  EXPECT_EQ(host(c), (std::vector<float>{3.0f, -4.0f, 6.5f, 0.0f}));
  ASSERT_EQ(kf_tensor_record_stream(b, s.h), KF_OK) << last_error();
  set_current(dev, nullptr);
}

TEST(Streams, BadStreamAndEventArgumentsAreCleanErrors) {
  OPENCL_OR_SKIP(dev);
  kf_stream_t s = nullptr;
  EXPECT_EQ(kf_stream_create(kf_device_t{dev.type, 9}, &s), KF_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("9"), std::string::npos) << last_error();
  Event a(dev);
  double ms = 0;
  EXPECT_EQ(kf_event_elapsed_ms(a.h, a.h, &ms), KF_FAILED_PRECONDITION) << last_error();
  bool done = false;
  ASSERT_EQ(kf_event_query(a.h, &done), KF_OK) << last_error();
  EXPECT_TRUE(done) << "an event never recorded has passed (nothing to wait for)";
}

}  // namespace
}  // namespace opencl_test
