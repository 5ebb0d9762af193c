// Streams (immediate command lists in stream order) and events (signal, wait, query,
// synchronize, timestamps, lifetime).
#include <vector>

#include "xpu_test_util.hpp"

namespace {

using xpu_test::contains;
using xpu_test::XpuTest;

class Streams : public XpuTest {
 protected:
  void SetUp() override {
    XpuTest::SetUp();
    fake::state().deferred = true;  // work runs only when the host waits for it
  }
};

TEST_F(Streams, AStreamIsAnImmediateListOnTheComputeGroup) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  const int lists = fake::state().lists;
  void* s = rt->at(0).create_stream();
  EXPECT_EQ(fake::state().lists, lists + 1);
  EXPECT_EQ(fake::state().list_ordinals.back(), 1u);
  rt->at(0).destroy_stream(s);
  EXPECT_EQ(fake::state().lists, lists);
}

TEST_F(Streams, CommandsOfAStreamAreSeparatedByBarriers) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* s = d.create_stream();
  void* dev = d.allocate(64);
  char host[64] = {};
  d.copy_async(dev, host, 64, s);
  d.copy_async(host, dev, 64, s);
  d.copy_async(dev, host, 64, s);
  const std::vector<std::string> expected{"copy", "barrier", "copy", "barrier", "copy"};
  EXPECT_EQ(fake::state().list_ops, expected);
  d.stream(s).synchronize();
  EXPECT_TRUE(fake::state().queue.empty()) << "synchronize ran the stream's work";
  EXPECT_EQ(fake::state().list_ops.back(), "barrier") << "a signalling barrier, not doubled";
  d.destroy_stream(s);
  d.deallocate(dev);
}

TEST_F(Streams, AnEventNeverRecordedHasPassed) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* e = d.create_event();
  EXPECT_TRUE(d.event(e).query());
  d.event(e).wait(d.stream(nullptr));
  d.event(e).synchronize();
  EXPECT_TRUE(fake::state().list_ops.empty()) << "nothing appended for an unrecorded event";
  d.destroy_event(e);
  EXPECT_EQ(d.events().live(), 0u);
}

TEST_F(Streams, ARecordedEventPassesWhenItsStreamGetsThere) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* s = d.create_stream();
  void* e = d.create_event();
  d.event(e).record(d.stream(s));
  EXPECT_FALSE(d.event(e).query()) << "queued, not run";
  d.event(e).synchronize();
  EXPECT_TRUE(d.event(e).query());
  d.destroy_event(e);
  d.destroy_stream(s);
}

TEST_F(Streams, AWaitFollowsTheRecordItWaitsFor) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* a = d.create_stream();
  void* b = d.create_stream();
  void* e = d.create_event();
  d.event(e).record(d.stream(a));
  d.event(e).wait(d.stream(b));
  EXPECT_EQ(fake::state().list_ops.back(), "wait");
  d.synchronize();
  EXPECT_EQ(fake::state().waits_on_unsignalled, 0);
  d.destroy_event(e);
  d.destroy_stream(a);
  d.destroy_stream(b);
}

TEST_F(Streams, RecordingAgainTakesAFreshEventAndEarlierWaitsKeepTheOldPoint) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* other = d.create_stream();
  void* e = d.create_event();
  d.record_event(e, nullptr);
  const ze_event_handle_t first = d.event(e).slot().event;
  d.event(e).wait(d.stream(other));  // appended before the second record
  d.event(e).synchronize();
  d.record_event(e, nullptr);
  EXPECT_NE(d.event(e).slot().event, first);
  EXPECT_FALSE(d.event(e).query()) << "the new point is not passed: no stale signal";
  EXPECT_EQ(d.events().retired(), 1u) << "the old event is kept for the wait";
  d.synchronize();
  EXPECT_TRUE(d.event(e).query());
  EXPECT_EQ(d.events().retired(), 0u);
  EXPECT_EQ(fake::state().waits_on_unsignalled, 0);
  d.destroy_event(e);
  d.destroy_stream(other);
}

TEST_F(Streams, ElapsedTimeIsTheTimestampDifferenceTimesTheResolution) {
  auto rt = make_runtime();  // timer resolution 2 ns; the fake clock steps 1000 ticks
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* start = d.create_event();
  void* end = d.create_event();
  EXPECT_THROW(kf::xpu::Event::elapsed_ms(d.event(start), d.event(end), d.info()),
               kf::xpu::ZeError);
  d.event(start).record(d.stream(nullptr));
  d.event(end).record(d.stream(nullptr));
  try {
    kf::xpu::Event::elapsed_ms(d.event(start), d.event(end), d.info());
    FAIL() << "elapsed_ms before the events passed";
  } catch (const kf::xpu::ZeError& e) {
    EXPECT_EQ(e.status(), KF_FAILED_PRECONDITION);
  }
  d.event(end).synchronize();
  EXPECT_DOUBLE_EQ(kf::xpu::Event::elapsed_ms(d.event(start), d.event(end), d.info()), 0.002);
  EXPECT_DOUBLE_EQ(kf::xpu::Event::elapsed_ms(d.event(end), d.event(start), d.info()), -0.002);
  d.destroy_event(start);
  d.destroy_event(end);
}

TEST_F(Streams, ANarrowTimestampWrapsAround) {
  fake::state().drivers[0].devices[0].timestamp_bits = 32;
  fake::state().clock = 0xffffff00u;
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* start = d.create_event();
  void* end = d.create_event();
  d.event(start).record(d.stream(nullptr));
  d.event(end).record(d.stream(nullptr));
  d.synchronize();
  EXPECT_DOUBLE_EQ(kf::xpu::Event::elapsed_ms(d.event(start), d.event(end), d.info()), 0.002);
  d.destroy_event(start);
  d.destroy_event(end);
}

TEST_F(Streams, AReleasedRecordedEventIsKeptUntilTheDeviceIsIdle) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* e = d.create_event();
  d.event(e).record(d.stream(nullptr));
  d.destroy_event(e);
  EXPECT_EQ(d.events().retired(), 1u);
  EXPECT_EQ(d.events().live(), 1u) << "a stream may still wait on it";
  d.synchronize();
  EXPECT_EQ(d.events().retired(), 0u);
  EXPECT_EQ(d.events().live(), 0u);
}

TEST_F(Streams, RetiredEventsStayBounded) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  for (size_t i = 0; i < kf::xpu::Event::kRetiredLimit + 10; ++i) {
    void* e = d.create_event();
    d.event(e).record(d.stream(nullptr));
    d.destroy_event(e);
  }
  EXPECT_LE(d.events().retired(), kf::xpu::Event::kRetiredLimit);
  EXPECT_LE(d.events().pools(), kf::xpu::Event::kRetiredLimit / kf::xpu::EventPool::kChunk + 2);
}

TEST_F(Streams, SynchronizingTheDeviceWaitsForEveryStream) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* a = d.create_stream();
  void* b = d.create_stream();
  void* dev = d.allocate(8);
  const char in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  char out[8] = {};
  d.copy_async(dev, in, 8, a);
  d.copy_async(out, dev, 8, b);
  d.synchronize();
  EXPECT_TRUE(fake::state().queue.empty());
  d.destroy_stream(a);
  d.destroy_stream(b);
  d.deallocate(dev);
}

TEST_F(Streams, HandlesOfAnotherKindAreInvalidArguments) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* e = d.create_event();
  try {
    d.stream(e);
    FAIL() << "an event was taken for a stream";
  } catch (const kf::xpu::ZeError& err) {
    EXPECT_EQ(err.status(), KF_INVALID_ARGUMENT);
    EXPECT_PRED2(contains, err.what(), "is not a stream of this device");
  }
  EXPECT_THROW(d.event(&d), kf::xpu::ZeError);
  d.destroy_event(e);
}

}  // namespace
