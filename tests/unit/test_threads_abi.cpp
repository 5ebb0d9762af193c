// Thread safety of tensor creation and release (the pools' thread-local lists, the caching
// allocator's lock, atomic reference counts): 4 threads create, view, hand over and release
// tensors; afterwards every byte is accounted for.
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "abi_unit_util.hpp"

namespace {

using kfunit::kCpu;
using kfunit::stats;

constexpr int kThreads = 4;

struct Failures {
  std::atomic<int> count{0};
  std::mutex mutex;
  std::string first;
  void add(const std::string& what) {
    if (count++ == 0) {
      std::lock_guard<std::mutex> lock(mutex);
      first = what + ": " + kf_last_error_message();
    }
  }
};

// Thread t hands every third tensor to thread (t + 1) % kThreads, which releases it: objects
// then go back to another thread's pool list than the one they came from.
struct Handoff {
  std::mutex mutex[kThreads];
  std::deque<kf_tensor_t> queue[kThreads];

  void give(int to, kf_tensor_t t) {
    std::lock_guard<std::mutex> lock(mutex[to]);
    queue[to].push_back(t);
  }
  void release_mine(int t, Failures& failures) {
    std::deque<kf_tensor_t> mine;
    {
      std::lock_guard<std::mutex> lock(mutex[t]);
      mine.swap(queue[t]);
    }
    for (kf_tensor_t h : mine)
      if (kf_tensor_release(h) != KF_OK) failures.add("kf_tensor_release(handed over)");
  }
};

// One iteration of thread t: a tensor of its own values, a view of it, the values read back
// through the view; the base released here, the view here or by the next thread.
void create_view_and_hand_over(int t, int it, Failures& failures, Handoff& handoff,
                               std::atomic<int>& wrong_values, std::atomic<uint64_t>& created) {
  const int64_t n = 1 + (it * 37 + t * 11) % 700;  // several size classes
  std::vector<float> host(static_cast<size_t>(n), static_cast<float>(t * 100000 + it));
  const int64_t shape[] = {n};
  kf_tensor_t x = nullptr;
  if (kf_tensor_from_data(host.data(), shape, 1, KF_FLOAT32, kCpu, &x) != KF_OK) {
    failures.add("kf_tensor_from_data");
    return;
  }
  created++;
  kf_tensor_t v = nullptr;
  const int64_t as[] = {1, n};
  if (kf_reshape(x, as, 2, &v) != KF_OK) failures.add("kf_reshape");
  std::vector<float> back(static_cast<size_t>(n), -1.0f);
  if (kf_tensor_copy_to_host(v != nullptr ? v : x, back.data(),
                             static_cast<size_t>(n) * sizeof(float)) != KF_OK) {
    failures.add("kf_tensor_copy_to_host");
  } else if (back != host) {
    wrong_values++;
  }
  if (kf_tensor_release(x) != KF_OK) failures.add("kf_tensor_release(base)");
  if (v == nullptr) return;
  if (it % 3 == 0) {
    handoff.give((t + 1) % kThreads, v);
  } else if (kf_tensor_release(v) != KF_OK) {
    failures.add("kf_tensor_release(view)");
  }
}

TEST(Threads, ConcurrentCreateViewAndCrossThreadRelease) {
  KF_REQUIRE_CPU();
  constexpr int kIters = 1500;
  const kf_memory_stats_t s0 = stats();
  Failures failures;
  std::atomic<int> wrong_values{0};
  std::atomic<uint64_t> created{0};
  Handoff handoff;
  auto work = [&](int t) {
    for (int it = 0; it < kIters; ++it) {
      create_view_and_hand_over(t, it, failures, handoff, wrong_values, created);
      handoff.release_mine(t, failures);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work, t);
  for (std::thread& th : threads) th.join();
  for (auto& q : handoff.queue)
    for (kf_tensor_t h : q) EXPECT_EQ(kf_tensor_release(h), KF_OK) << kf_last_error_message();

  EXPECT_EQ(failures.count.load(), 0) << "first: " << failures.first;
  EXPECT_EQ(wrong_values.load(), 0);
  EXPECT_EQ(created.load(), uint64_t{kThreads} * kIters);
  const kf_memory_stats_t s1 = stats();
  EXPECT_EQ(s1.allocated_bytes, s0.allocated_bytes) << "bytes leaked or freed twice";
  EXPECT_EQ(s1.num_allocs - s0.num_allocs, created.load()) << "one allocation per tensor";
  EXPECT_LE(s1.reserved_bytes, s0.reserved_bytes + 64 * 1024 * 1024);
}

TEST(Threads, SharedTensorRetainReleaseIsAtomic) {
  KF_REQUIRE_CPU();
  const kf_memory_stats_t s0 = stats();
  kf_tensor_t shared = kfunit::bytes_tensor(1 << 16);
  ASSERT_NE(shared, nullptr);
  constexpr int kIters = 20000;
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kIters; ++i) {
        if (kf_tensor_retain(shared) != KF_OK) errors++;
        int32_t ndim = 0;
        if (kf_tensor_ndim(shared, &ndim) != KF_OK || ndim != 1) errors++;
        if (kf_tensor_release(shared) != KF_OK) errors++;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(errors.load(), 0);
  int32_t ndim = 0;
  ASSERT_EQ(kf_tensor_ndim(shared, &ndim), KF_OK) << "the owner's reference must remain";
  ASSERT_EQ(kf_tensor_release(shared), KF_OK);
  EXPECT_EQ(kf_tensor_ndim(shared, &ndim), KF_INVALID_ARGUMENT);
  EXPECT_EQ(stats().allocated_bytes, s0.allocated_bytes);
}

TEST(Threads, ErrorMessagesAreThreadLocal) {
  std::atomic<int> mixed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string bad = "nodevice" + std::to_string(t);
      for (int i = 0; i < 2000; ++i) {
        kf_device_t d{};
        if (kf_device_parse(bad.c_str(), &d) != KF_INVALID_ARGUMENT ||
            std::string(kf_last_error_message()).find("'" + bad + "'") == std::string::npos) {
          mixed++;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(mixed.load(), 0);
}

}  // namespace
