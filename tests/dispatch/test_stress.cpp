// Concurrency: threads dispatching ops, creating and releasing tensors, switching streams and
// recording events, querying backends and ops, while another thread loads plugins. Every result
// is checked; CI runs this under ThreadSanitizer (the tsan preset), which reports any data race
// the runtime has on these paths. Own process per test (ctest), so the loads really happen here.
#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

constexpr int kIters = 150;

// Every thread starts together and the dispatching threads go on until the plugins are loaded,
// so loading overlaps the rest.
struct Phase {
  std::atomic<bool> go{false};
  std::atomic<bool> loaded{false};
  void wait_go() const {
    while (!go.load()) std::this_thread::yield();
  }
};

// Counts failures and keeps the first message.
struct Failures {
  std::atomic<int> count{0};
  std::string first;
  std::atomic<bool> taken{false};
  void add(const std::string& what) {
    if (count++ == 0 && !taken.exchange(true)) first = what + ": " + last_error();
  }
};

void check(Failures& f, kf_status_t s, const char* what) {
  if (s != KF_OK) f.add(what);
}

// c = a + 2 * b on `device`, read back and compared.
void add_round_trip(Failures& f, kf_device_t device, int seed) {
  const std::vector<float> a{1.0f * seed, 2, 3}, b{4, 5.0f * seed, 6};
  const int64_t shape[1] = {3};
  T ta, tb, c;
  check(f, kf_tensor_from_data(a.data(), shape, 1, KF_FLOAT32, device, ta.out()), "from_data");
  check(f, kf_tensor_from_data(b.data(), shape, 1, KF_FLOAT32, device, tb.out()), "from_data");
  if (ta.h == nullptr || tb.h == nullptr) return;
  check(f, kf_add(ta, tb, kf_scalar_i64(2), c.out()), "add");
  if (c.h == nullptr) return;
  float out[3] = {};
  check(f, kf_tensor_copy_to_host(c, out, sizeof out), "copy_to_host");
  for (int i = 0; i < 3; ++i) {
    if (out[i] != a[static_cast<size_t>(i)] + 2 * b[static_cast<size_t>(i)]) f.add("wrong sum");
  }
}

void dispatcher(Failures& f, const Phase& p, int id) {
  p.wait_go();
  for (int it = 0; it < kIters || !p.loaded.load(); ++it) {
    add_round_trip(f, kf_device_cpu(), id * 1000 + it);
    T x, s;
    const int64_t shape[2] = {4, 5};
    check(f, kf_ones(shape, 2, KF_FLOAT32, kf_device_cpu(), x.out()), "ones");
    const int64_t dim = 1;
    check(f, kf_sum(x, &dim, 1, false, KF_DTYPE_UNDEFINED, s.out()), "sum");
    if (s.h != nullptr && host<float>(s) != std::vector<float>(4, 5.0f)) f.add("wrong sum");
  }
}

// Streams on the CPU: create, make current, run, record an event, switch back, release.
void stream_switcher(Failures& f, const Phase& p) {
  p.wait_go();
  const kf_device_t cpu = kf_device_cpu();
  for (int it = 0; it < kIters || !p.loaded.load(); ++it) {
    kf_stream_t s = nullptr;
    kf_event_t e = nullptr;
    check(f, kf_stream_create(cpu, &s), "stream_create");
    check(f, kf_set_current_stream(cpu, s), "set_current_stream");
    add_round_trip(f, cpu, it);
    check(f, kf_event_create(cpu, &e), "event_create");
    check(f, kf_event_record(e, s), "event_record");
    check(f, kf_event_synchronize(e), "event_synchronize");
    check(f, kf_set_current_stream(cpu, nullptr), "set_current_stream(NULL)");
    check(f, kf_event_release(e), "event_release");
    check(f, kf_stream_release(s), "stream_release");
  }
}

// The registry and the load report, read while plugins load.
void reader(Failures& f, const Phase& p, const std::atomic<bool>& done) {
  p.wait_go();
  std::vector<char> buf(1 << 20);
  while (!done.load()) {
    for (int32_t i = 0; i < kf_backend_count(); ++i) {
      kf_backend_info_t info{};
      info.struct_size = sizeof(info);
      check(f, kf_backend_info(i, &info), "backend_info");
      if (info.name == nullptr || info.reason == nullptr) f.add("null backend strings");
    }
    for (int32_t i = 0; i < kf_op_count(); ++i) {
      kf_op_t op = nullptr;
      check(f, kf_op_at(i, &op), "op_at");
      if (op != nullptr && kf_op_name(op)[0] == '\0') f.add("an op without a name");
    }
    size_t needed = 0;
    check(f, kf_runtime_report_json(buf.data(), buf.size(), &needed), "report_json");
  }
}

// Loads cdev and testasync, then works on testasync with streams, events and record_stream.
void loader_then_async(Failures& f, Phase& p) {
  p.wait_go();
  check(f, kf_load_plugin(KF_CDEV_MANIFEST), "load cdev");
  check(f, kf_load_plugin(KF_TESTASYNC_MANIFEST), "load testasync");
  p.loaded.store(true);
  kf_device_t ta{};
  check(f, kf_device_parse("testasync", &ta), "device_parse");
  for (int it = 0; it < kIters / 3; ++it) {
    kf_stream_t s = nullptr;
    check(f, kf_stream_create(ta, &s), "stream_create");
    T a;
    make<float>(a, {1, 2, 3}, {3}, KF_FLOAT32, ta);
    check(f, kf_set_current_stream(ta, s), "set_current_stream");
    T b;
    check(f, kf_add(a, a, kf_scalar_i64(1), b.out()), "add on testasync");
    check(f, kf_tensor_record_stream(a, s), "record_stream");
    if (b.h != nullptr && host<float>(b) != std::vector<float>{2, 4, 6}) f.add("wrong async add");
    check(f, kf_set_current_stream(ta, nullptr), "set_current_stream(NULL)");
    check(f, kf_stream_release(s), "stream_release");
  }
}

TEST(Stress, DispatchStreamsQueriesAndLoadsAtOnce) {
  ASSERT_EQ(kf_load_plugin(KF_TESTDEV_MANIFEST), KF_OK) << last_error();
  Failures f;
  Phase phase;
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int id = 0; id < 3; ++id) {
    threads.emplace_back(dispatcher, std::ref(f), std::cref(phase), id);
  }
  threads.emplace_back(stream_switcher, std::ref(f), std::cref(phase));
  std::thread read(reader, std::ref(f), std::cref(phase), std::cref(done));
  threads.emplace_back(loader_then_async, std::ref(f), std::ref(phase));
  phase.go.store(true);
  for (std::thread& t : threads) t.join();
  done.store(true);
  read.join();
  EXPECT_EQ(f.count.load(), 0) << "first failure: " << f.first;
  EXPECT_GE(backend_index("testasync"), 0);
  EXPECT_GE(backend_index("cdev"), 0);
}

}  // namespace
}  // namespace dispatch_test
