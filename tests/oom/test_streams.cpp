// The sweep through streams, events and the caching allocator's per-stream blocks on an
// asynchronous device (oomasync): two streams, a tensor made on one and recorded on the other
// (its block waits on the pending list when released), a second tensor that takes the block back
// once its event passed, and kf_empty_cache. The whole scenario is the armed call, so every
// allocation point of it fails once; host allocations, and device allocations once and from N on
// (the allocator then gives the per-stream blocks back and asks again). Afterwards no tensor may
// still count as allocated.
#include <gtest/gtest.h>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

kf_device_t oomasync() {
  kf_device_t d{};
  (void)kf_device_parse("oomasync", &d);
  return d;
}

// What the scenario made (each child has its own copy).
struct Scene {
  kf_stream_t s1 = nullptr, s2 = nullptr;
  kf_tensor_t t = nullptr, u = nullptr;
};
Scene g_scene;

#define KF_STEP(call)                                    \
  do {                                                   \
    if (kf_status_t s_ = (call); s_ != KF_OK) return s_; \
  } while (0)

kf_status_t scenario() {
  const kf_device_t d = oomasync();
  const int64_t shape[] = {16};
  KF_STEP(kf_stream_create(d, &g_scene.s1));
  KF_STEP(kf_stream_create(d, &g_scene.s2));
  KF_STEP(kf_set_current_stream(d, g_scene.s1));
  KF_STEP(kf_tensor_empty(shape, 1, KF_FLOAT32, d, &g_scene.t));
  KF_STEP(kf_tensor_record_stream(g_scene.t, g_scene.s2));
  KF_STEP(kf_tensor_release(g_scene.t));  // the block waits for its event on s2
  g_scene.t = nullptr;
  KF_STEP(kf_tensor_empty(shape, 1, KF_FLOAT32, d, &g_scene.u));
  KF_STEP(kf_empty_cache(d));
  return KF_OK;
}

// Releases what the scenario made; "" or what failed.
std::string clean() {
  const kf_device_t d = oomasync();
  std::string problem = ok_or(kf_tensor_release(g_scene.u), "kf_tensor_release");
  (void)kf_tensor_release(g_scene.t);
  if (problem.empty()) problem = ok_or(kf_set_current_stream(d, nullptr), "kf_set_current_stream");
  if (g_scene.s1 != nullptr) (void)kf_stream_release(g_scene.s1);
  if (g_scene.s2 != nullptr) (void)kf_stream_release(g_scene.s2);
  g_scene = Scene{};
  if (problem.empty()) problem = ok_or(kf_empty_cache(d), "kf_empty_cache");
  kf_memory_stats_t stats{};
  stats.struct_size = sizeof(stats);
  if (problem.empty()) problem = ok_or(kf_memory_stats(d, &stats), "kf_memory_stats");
  if (problem.empty() && stats.allocated_bytes != 0) {
    problem = std::to_string(stats.allocated_bytes) + " bytes still count as allocated";
  }
  return problem;
}

Phase streams(const char* name, Kind kind, Mode mode) {
  Phase p;
  p.name = name;
  p.kind = kind;
  p.mode = mode;
  p.action = scenario;
  p.verify = [](const Attempt&) -> std::string {
    if (std::string p = clean(); !p.empty()) return p;
    if (std::string p = ok_or(scenario(), "the scenario again"); !p.empty()) return p;
    return clean();
  };
  return p;
}

class Streams : public ::testing::Test {
 protected:
  void SetUp() override {
    g_runtime_started_here = true;
    ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
    if (records_named("oomasync") == 0) {  // once per process
      ASSERT_EQ(kf_load_plugin(KF_OOMASYNC_MANIFEST), KF_OK) << kf_last_error_message();
    }
  }
};

TEST_F(Streams, HostAllocations) {
  expect_clean(sweep(streams("streams and record_stream (oomasync), host", Kind::Host,
                             Mode::Once)));
}

TEST_F(Streams, HostMemoryStaysExhausted) {
  expect_clean(sweep(streams("streams and record_stream (oomasync), host from N on",
                             Kind::Host, Mode::FromThenOn)));
}

TEST_F(Streams, DeviceAllocations) {
  expect_clean(sweep(streams("streams and record_stream (oomasync), device", Kind::Device,
                             Mode::Once)));
  expect_clean(sweep(streams("streams and record_stream (oomasync), device from N on",
                             Kind::Device, Mode::FromThenOn)));
}

}  // namespace
}  // namespace oomtest
