// Backward on the forward's streams (Note [Backward streams] in
// dispatcher/autograd/backward_stream.cpp), on the asynchronous test backend testasync (every
// stream a worker thread with a queue): a node's backward queues its kernels on the stream that
// was current when its op was recorded, whatever stream the caller of backward has current; a
// gradient handed from one stream to another is waited for; the caller's stream waits for the
// backward's streams, and keeps being current. The hook kf_testasync_last_kernel_stream names
// the stream of the last kernel queued; kernel_delay_ms makes every queued kernel sleep first,
// so that a missing wait reads a gradient before it is written.
#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

/// Owns a stream.
struct OwnStream {
  kf_stream_t h = nullptr;
  explicit OwnStream(kf_device_t d) { EXPECT_EQ(kf_stream_create(d, &h), KF_OK) << last_error(); }
  OwnStream(const OwnStream&) = delete;
  OwnStream& operator=(const OwnStream&) = delete;
  ~OwnStream() { EXPECT_EQ(kf_stream_release(h), KF_OK) << last_error(); }
};

void set_current(kf_device_t d, kf_stream_t s) {
  ASSERT_EQ(kf_set_current_stream(d, s), KF_OK) << last_error();
}

kf_stream_t current(kf_device_t d) {
  kf_stream_t s = nullptr;
  EXPECT_EQ(kf_current_stream(d, &s), KF_OK) << last_error();
  return s;
}

std::vector<float> grad_of(kf_tensor_t x) {
  T g;
  EXPECT_EQ(kf_tensor_grad(x, g.out()), KF_OK) << last_error();
  return g.h != nullptr ? host<float>(g) : std::vector<float>{};
}

/// Later work on `consumer` (a stream of `d`) waits for the work queued on `producer` so far.
void wait_for(kf_device_t d, kf_stream_t consumer, kf_stream_t producer) {
  kf_event_t e = nullptr;
  ASSERT_EQ(kf_event_create(d, &e), KF_OK) << last_error();
  EXPECT_EQ(kf_event_record(e, producer), KF_OK) << last_error();
  EXPECT_EQ(kf_stream_wait_event(consumer, e), KF_OK) << last_error();
  EXPECT_EQ(kf_event_release(e), KF_OK) << last_error();
}

using AutogradStreams = Async;

TEST_F(AutogradStreams, ANodesBackwardRunsOnTheStreamItsOpWasRecordedOn) {
  T x, y, seed;
  make<float>(x, {1, 2, 3}, {3}, KF_FLOAT32, ta0);
  ASSERT_EQ(kf_tensor_set_requires_grad(x, true), KF_OK) << last_error();
  OwnStream s(ta0);
  set_current(ta0, s.h);
  ASSERT_EQ(kf_to_dtype(x, KF_FLOAT64, y.out()), KF_OK) << last_error();
  void* forward = kf_testasync_last_kernel_stream.load();
  ASSERT_NE(forward, nullptr) << "the forward's kernel was not queued on the stream";
  set_current(ta0, nullptr);
  make<double>(seed, {1.5, -2.5, 4.0}, {3}, KF_FLOAT64, ta0);
  kf_testasync_last_kernel_stream.store(nullptr);
  kf_testasync_kernel_delay_ms.store(100);  // the gradient is read before it is written, unless waited for
  kf_tensor_t seed_h = seed;
  ASSERT_EQ(kf_backward(&y.h, &seed_h, 1, false, false), KF_OK) << last_error();
  kf_testasync_kernel_delay_ms.store(0);
  EXPECT_EQ(kf_testasync_last_kernel_stream.load(), forward)
      << "the backward's kernel (the gradient converted to float32) ran on another stream";
  EXPECT_EQ(current(ta0), nullptr) << "the caller's stream is current again";
  EXPECT_EQ(grad_of(x), (std::vector<float>{1.5f, -2.5f, 4.0f}))
      << "the caller's stream did not wait for the backward's";
}

// x -> a on s1, a -> b -> c on s2: the backward of a's op runs on s1 after b's and c's on s2,
// which take twice as long.
TEST_F(AutogradStreams, AGradientMadeOnOneStreamIsWaitedForOnAnother) {
  T x, a, b, c, seed;
  make<float>(x, {1, 2, 3}, {3}, KF_FLOAT32, ta0);
  ASSERT_EQ(kf_tensor_set_requires_grad(x, true), KF_OK) << last_error();
  OwnStream s1(ta0), s2(ta0);
  set_current(ta0, s1.h);
  ASSERT_EQ(kf_to_dtype(x, KF_FLOAT64, a.out()), KF_OK) << last_error();
  wait_for(ta0, s2.h, s1.h);  // the forward reads a on s2: the caller orders that, as on CUDA
  set_current(ta0, s2.h);
  ASSERT_EQ(kf_to_dtype(a, KF_FLOAT32, b.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_to_dtype(b, KF_FLOAT64, c.out()), KF_OK) << last_error();
  set_current(ta0, nullptr);
  make<double>(seed, {0.5, 7.0, -3.0}, {3}, KF_FLOAT64, ta0);
  kf_testasync_kernel_delay_ms.store(150);
  kf_tensor_t seed_h = seed;
  ASSERT_EQ(kf_backward(&c.h, &seed_h, 1, false, false), KF_OK) << last_error();
  kf_testasync_kernel_delay_ms.store(0);
  EXPECT_EQ(grad_of(x), (std::vector<float>{0.5f, 7.0f, -3.0f}));
}

}  // namespace
}  // namespace dispatch_test
