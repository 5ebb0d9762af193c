// Streams and events (C ABI 1.2) on the asynchronous test backend (testasync: every stream a
// worker thread with a queue) and on the synchronous CPU backend: kernels queue on the thread's
// current stream, work on one stream runs in order, event waits order two streams, copies to the
// host wait, record_stream keeps memory from reuse until the other stream passed it, events time
// and answer queries. The queues' switches: kernel_delay_ms (a queued kernel sleeps first) and
// hold (no queue starts anything). Helpers: dispatch_util.hpp.
#include <thread>

#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

/// Owns a stream.
struct Stream {
  kf_stream_t h = nullptr;
  explicit Stream(kf_device_t d) { EXPECT_EQ(kf_stream_create(d, &h), KF_OK) << last_error(); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { EXPECT_EQ(kf_stream_release(h), KF_OK) << last_error(); }
};

/// Owns an event.
struct Event {
  kf_event_t h = nullptr;
  explicit Event(kf_device_t d) { EXPECT_EQ(kf_event_create(d, &h), KF_OK) << last_error(); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { EXPECT_EQ(kf_event_release(h), KF_OK) << last_error(); }
};

void* data_of(kf_tensor_t t) {
  void* p = nullptr;
  EXPECT_EQ(kf_tensor_data_ptr(t, &p), KF_OK) << last_error();
  return p;
}

void set_current(kf_device_t d, kf_stream_t s) {
  ASSERT_EQ(kf_set_current_stream(d, s), KF_OK) << last_error();
}

// ------------------------------------------------------------------- ordering

TEST_F(Async, KernelsQueueOnTheCurrentStreamAndCopiesToTheHostWait) {
  T a, b, c;
  make<float>(a, {1, 2, 3}, {3}, KF_FLOAT32, ta0);
  make<float>(b, {10, 20, 30}, {3}, KF_FLOAT32, ta0);
  Stream s(ta0);
  set_current(ta0, s.h);
  kf_stream_t current = nullptr;
  ASSERT_EQ(kf_current_stream(ta0, &current), KF_OK) << last_error();
  EXPECT_EQ(current, s.h);
  ASSERT_EQ(kf_current_stream(ta1, &current), KF_OK) << last_error();
  EXPECT_EQ(current, nullptr) << "the current stream is per device";
  kf_testasync_kernel_delay_ms.store(200);
  ASSERT_EQ(kf_add(a, b, kf_scalar_i64(1), c.out()), KF_OK) << last_error();
  kf_testasync_kernel_delay_ms.store(0);
  EXPECT_EQ(host<float>(c), (std::vector<float>{11, 22, 33})) << "the copy did not wait";
  // a and b were made on the default stream and read on s.
  EXPECT_EQ(kf_tensor_record_stream(a, s.h), KF_OK) << last_error();
  EXPECT_EQ(kf_tensor_record_stream(b, s.h), KF_OK) << last_error();
  set_current(ta0, nullptr);
  ASSERT_EQ(kf_current_stream(ta0, &current), KF_OK) << last_error();
  EXPECT_EQ(current, nullptr);
}

TEST_F(Async, WorkOnOneStreamRunsInOrder) {
  T a, x, y;
  make<float>(a, {1, 2}, {2}, KF_FLOAT32, ta0);
  kf_testasync_kernel_delay_ms.store(150);
  ASSERT_EQ(kf_add(a, a, kf_scalar_i64(1), x.out()), KF_OK) << last_error();  // slow
  kf_testasync_kernel_delay_ms.store(0);
  ASSERT_EQ(kf_add(x, x, kf_scalar_i64(1), y.out()), KF_OK) << last_error();  // reads x
  EXPECT_EQ(host<float>(y), (std::vector<float>{4, 8}));
}

TEST_F(Async, AnEventWaitOrdersTwoStreams) {
  T a, x, y;
  make<float>(a, {1, 2, 3}, {3}, KF_FLOAT32, ta0);
  Stream s1(ta0), s2(ta0);
  Event e(ta0);
  set_current(ta0, s1.h);
  kf_testasync_kernel_delay_ms.store(200);
  ASSERT_EQ(kf_add(a, a, kf_scalar_i64(1), x.out()), KF_OK) << last_error();  // x on s1, slow
  kf_testasync_kernel_delay_ms.store(0);
  ASSERT_EQ(kf_event_record(e.h, s1.h), KF_OK) << last_error();
  ASSERT_EQ(kf_stream_wait_event(s2.h, e.h), KF_OK) << last_error();
  set_current(ta0, s2.h);
  ASSERT_EQ(kf_add(x, x, kf_scalar_i64(1), y.out()), KF_OK) << last_error();  // y on s2
  EXPECT_EQ(host<float>(y), (std::vector<float>{4, 8, 12})) << "s2 did not wait for s1";
  EXPECT_EQ(kf_tensor_record_stream(x, s2.h), KF_OK) << last_error();
  EXPECT_EQ(kf_tensor_record_stream(a, s1.h), KF_OK) << last_error();
  set_current(ta0, nullptr);
}

TEST_F(Async, StreamSynchronizeWaitsForItsWork) {
  T a, x;
  make<float>(a, {5}, {1}, KF_FLOAT32, ta0);
  Stream s(ta0);
  set_current(ta0, s.h);
  kf_testasync_kernel_delay_ms.store(100);
  ASSERT_EQ(kf_add(a, a, kf_scalar_i64(1), x.out()), KF_OK) << last_error();
  kf_testasync_kernel_delay_ms.store(0);
  ASSERT_EQ(kf_stream_synchronize(s.h), KF_OK) << last_error();
  // After the wait the result is there even for a raw read of device memory (host memory here).
  float value = 0;
  std::memcpy(&value, data_of(x), sizeof(value));
  EXPECT_EQ(value, 10.0f);
  EXPECT_EQ(kf_tensor_record_stream(a, s.h), KF_OK) << last_error();
  set_current(ta0, nullptr);
}

// ------------------------------------------------------------- record_stream

TEST_F(Async, RecordStreamKeepsMemoryFromReuseUntilTheOtherStreamPassed) {
  const int64_t shape[1] = {1000};
  Stream s1(ta0), s2(ta0);
  set_current(ta0, s1.h);
  T x;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, x.out()), KF_OK) << last_error();
  void* px = data_of(x);
  kf_testasync_hold.store(true);  // nothing runs until released
  set_current(ta0, s2.h);
  T y;
  ASSERT_EQ(kf_add(x, x, kf_scalar_i64(1), y.out()), KF_OK) << last_error();  // x read on s2
  ASSERT_EQ(kf_tensor_record_stream(x, s2.h), KF_OK) << last_error();
  kf_tensor_release(x.h);
  x.h = nullptr;
  set_current(ta0, s1.h);
  T z;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, z.out()), KF_OK) << last_error();
  EXPECT_NE(data_of(z), px) << "memory still used by s2 was handed out again on s1";
  kf_testasync_hold.store(false);
  ASSERT_EQ(kf_stream_synchronize(s2.h), KF_OK) << last_error();
  T w;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, w.out()), KF_OK) << last_error();
  EXPECT_EQ(data_of(w), px) << "once s2 passed it, the block returns to s1's cache";
  set_current(ta0, nullptr);
}

TEST_F(Async, WithoutRecordStreamTheBlockIsReusedAtOnce) {
  // The control of the test above: the allocator reuses a freed block on its own stream at once.
  const int64_t shape[1] = {1000};
  Stream s1(ta0);
  set_current(ta0, s1.h);
  T x;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, x.out()), KF_OK) << last_error();
  void* px = data_of(x);
  kf_tensor_release(x.h);
  x.h = nullptr;
  T z;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, z.out()), KF_OK) << last_error();
  EXPECT_EQ(data_of(z), px);
  set_current(ta0, nullptr);
}

TEST_F(Async, BlocksAreKeptPerStream) {
  const int64_t shape[1] = {2000};
  Stream s1(ta0), s2(ta0);
  set_current(ta0, s1.h);
  T x;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, x.out()), KF_OK) << last_error();
  void* px = data_of(x);
  kf_tensor_release(x.h);
  x.h = nullptr;
  set_current(ta0, s2.h);
  T y;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, y.out()), KF_OK) << last_error();
  EXPECT_NE(data_of(y), px) << "a block of s1 was handed to s2";
  set_current(ta0, nullptr);
}

// ---------------------------------------------------------------------- events

TEST_F(Async, EventsAnswerQueriesAndTimeTheWorkBetweenThem) {
  T a, x;
  make<float>(a, {1}, {1}, KF_FLOAT32, ta0);
  Event start(ta0), end(ta0);
  ASSERT_EQ(kf_event_record(start.h, nullptr), KF_OK) << last_error();
  kf_testasync_kernel_delay_ms.store(60);
  ASSERT_EQ(kf_add(a, a, kf_scalar_i64(1), x.out()), KF_OK) << last_error();
  kf_testasync_kernel_delay_ms.store(0);
  ASSERT_EQ(kf_event_record(end.h, nullptr), KF_OK) << last_error();
  ASSERT_EQ(kf_event_synchronize(end.h), KF_OK) << last_error();
  bool done = false;
  ASSERT_EQ(kf_event_query(end.h, &done), KF_OK) << last_error();
  EXPECT_TRUE(done);
  double ms = 0;
  ASSERT_EQ(kf_event_elapsed_ms(start.h, end.h, &ms), KF_OK) << last_error();
  EXPECT_GE(ms, 55.0) << "a kernel that sleeps 60 ms ran between the two events";
  kf_testasync_hold.store(true);
  Event held(ta0);
  ASSERT_EQ(kf_event_record(held.h, nullptr), KF_OK) << last_error();
  ASSERT_EQ(kf_event_query(held.h, &done), KF_OK) << last_error();
  EXPECT_FALSE(done) << "the queue is held: the event cannot have passed";
  kf_testasync_hold.store(false);
  ASSERT_EQ(kf_event_synchronize(held.h), KF_OK) << last_error();
  ASSERT_EQ(kf_event_query(held.h, &done), KF_OK) << last_error();
  EXPECT_TRUE(done);
}

TEST_F(Async, BadStreamAndEventArgumentsAreCleanErrors) {
  Stream s(ta0);
  EXPECT_EQ(kf_set_current_stream(ta1, s.h), KF_INVALID_ARGUMENT);
  EXPECT_HAS(last_error(), "testasync:0");
  EXPECT_HAS(last_error(), "testasync:1");
  EXPECT_EQ(kf_stream_synchronize(nullptr), KF_INVALID_ARGUMENT);
  EXPECT_HAS(last_error(), "kf_synchronize");
  kf_stream_t gone = nullptr;
  ASSERT_EQ(kf_stream_create(ta0, &gone), KF_OK) << last_error();
  ASSERT_EQ(kf_stream_release(gone), KF_OK) << last_error();
  EXPECT_EQ(kf_stream_synchronize(gone), KF_INVALID_ARGUMENT);
  EXPECT_HAS(last_error(), "already released");
  Event a(ta0), b(ta1);
  double ms = 0;
  EXPECT_EQ(kf_event_elapsed_ms(a.h, a.h, &ms), KF_FAILED_PRECONDITION);
  EXPECT_EQ(kf_event_elapsed_ms(a.h, b.h, &ms), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_event_record(b.h, s.h), KF_INVALID_ARGUMENT) << "a stream of another device";
  EXPECT_EQ(kf_stream_create(kf_device_t{ta0.type, 7}, &gone), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_event_query(nullptr, nullptr), KF_INVALID_ARGUMENT);
}

// --------------------------------------------------------- copies between devices

TEST_F(Async, MovesBetweenDevicesStageThroughPinnedMemory) {
  T a, b;
  make<int32_t>(a, {1, 2, 3, -4}, {4}, KF_INT32, ta0);
  const long long total = kf_testasync_pinned_total.load();
  ASSERT_EQ(kf_tensor_to(a, ta1, KF_DTYPE_UNDEFINED, b.out()), KF_OK) << last_error();
  EXPECT_EQ(host<int32_t>(b), (std::vector<int32_t>{1, 2, 3, -4}));
  EXPECT_EQ(kf_testasync_pinned_total.load(), total + 1);
  EXPECT_EQ(kf_testasync_pinned_live.load(), 0);
}

TEST_F(Async, EmptyCacheGivesEveryStreamsBlocksBack) {
  ASSERT_EQ(kf_empty_cache(ta0), KF_OK) << last_error();
  const long long base = kf_testasync_live_allocations[0].load();
  {
    Stream s(ta0);
    set_current(ta0, s.h);
    T x, y;
    const int64_t shape[1] = {4096};
    ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, ta0, x.out()), KF_OK) << last_error();
    ASSERT_EQ(kf_tensor_empty(shape, 1, KF_INT64, ta0, y.out()), KF_OK) << last_error();
    set_current(ta0, nullptr);
  }
  EXPECT_GT(kf_testasync_live_allocations[0].load(), base) << "freed blocks stay cached";
  ASSERT_EQ(kf_empty_cache(ta0), KF_OK) << last_error();
  EXPECT_EQ(kf_testasync_live_allocations[0].load(), base);
}

TEST_F(Async, EachThreadHasItsOwnCurrentStream) {
  Stream s(ta0);
  set_current(ta0, s.h);
  kf_stream_t other = s.h;
  std::thread t([&] { EXPECT_EQ(kf_current_stream(ta0, &other), KF_OK); });
  t.join();
  EXPECT_EQ(other, nullptr);
  set_current(ta0, nullptr);
}

// ------------------------------------------------- a synchronous backend (the CPU)

TEST_F(Async, StreamsAndEventsWorkOnASynchronousBackend) {
  Stream s(cpu);
  set_current(cpu, s.h);
  T a, c;
  make<float>(a, {1, 2}, {2}, KF_FLOAT32, cpu);
  Event start(cpu), end(cpu);
  ASSERT_EQ(kf_event_record(start.h, s.h), KF_OK) << last_error();
  ASSERT_EQ(kf_add(a, a, kf_scalar_i64(1), c.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_event_record(end.h, s.h), KF_OK) << last_error();
  ASSERT_EQ(kf_stream_wait_event(nullptr, end.h), KF_OK) << last_error();
  ASSERT_EQ(kf_event_synchronize(end.h), KF_OK) << last_error();
  double ms = -1;
  ASSERT_EQ(kf_event_elapsed_ms(start.h, end.h, &ms), KF_OK) << last_error();
  EXPECT_GE(ms, 0.0);
  EXPECT_EQ(kf_tensor_record_stream(a, s.h), KF_OK) << last_error();
  ASSERT_EQ(kf_stream_synchronize(s.h), KF_OK) << last_error();
  EXPECT_EQ(host<float>(c), (std::vector<float>{2, 4}));
  set_current(cpu, nullptr);
}

}  // namespace
}  // namespace dispatch_test
