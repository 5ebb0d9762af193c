// The C ABI from several threads: parallel ops while other threads read the backend table,
// thread-local error messages, stale handles used while their slots are reused.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "abi_util.hpp"

namespace kfabi {
namespace {

TEST(AbiThreads, ParallelAddsWhileReadingBackendInfo) {
  constexpr int kAdders = 4, kReaders = 2, kIters = 300, kN = 257;
  std::atomic<int> wrong{0}, errors{0}, adders_left{kAdders};
  std::atomic<long> reads{0};
  std::vector<std::string> first_error(kAdders);
  std::vector<std::thread> threads;
  for (int t = 0; t < kAdders; ++t) {
    threads.emplace_back([&, t] {
      const int64_t shape[1] = {kN};
      std::vector<float> a(kN), b(kN), out(kN);
      for (int it = 0; it < kIters; ++it) {
        for (int i = 0; i < kN; ++i) {
          a[static_cast<size_t>(i)] = static_cast<float>(t * 1000 + i);
          b[static_cast<size_t>(i)] = static_cast<float>(it);
        }
        Tensor ta, tb, r;
        kf_status_t s = kf_tensor_from_data(a.data(), shape, 1, KF_FLOAT32, kf_device_cpu(),
                                            ta.put());
        if (s == KF_OK)
          s = kf_tensor_from_data(b.data(), shape, 1, KF_FLOAT32, kf_device_cpu(), tb.put());
        if (s == KF_OK) s = kf_add(ta.get(), tb.get(), kf_scalar_i64(2), r.put());
        if (s == KF_OK) s = kf_tensor_copy_to_host(r.get(), out.data(), kN * sizeof(float));
        if (s != KF_OK) {
          if (errors++ == 0) first_error[static_cast<size_t>(t)] = kf_last_error_message();
          continue;
        }
        for (int i = 0; i < kN; ++i)
          if (out[static_cast<size_t>(i)] !=
              static_cast<float>(t * 1000 + i) + 2.0f * static_cast<float>(it))
            ++wrong;
      }
      --adders_left;
    });
  }
  for (int t = 0; t < kReaders; ++t) {
    threads.emplace_back([&] {
      // At least one pass: on a busy machine the adders may all finish before a reader starts.
      do {
        const int32_t n = kf_backend_count();
        for (int32_t i = 0; i < n; ++i) {
          kf_backend_info_t info{};
          info.struct_size = sizeof info;
          if (kf_backend_info(i, &info) != KF_OK || info.name == nullptr) ++errors;
        }
        kf_op_t op = nullptr;
        if (kf_op_find("add", &op) != KF_OK) ++errors;
        ++reads;
      } while (adders_left.load() > 0);
    });
  }
  for (std::thread& th : threads) th.join();
  std::string msgs;
  for (const std::string& m : first_error)
    if (!m.empty()) msgs += " [" + m + "]";
  EXPECT_EQ(errors.load(), 0) << msgs;
  EXPECT_EQ(wrong.load(), 0) << "wrong sums";
  EXPECT_GT(reads.load(), 0);
}

TEST(AbiThreads, ErrorMessagesAreThreadLocal) {
  Tensor b = full({2}, 1, KF_BOOL), r;
  ASSERT_EQ(kf_sub(b.get(), b.get(), kf_scalar_i64(1), r.put()), KF_INVALID_ARGUMENT);
  const std::string mine = kf_last_error_message();
  std::string theirs;
  std::thread other([&] {
    kf_op_t op = nullptr;
    (void)kf_op_find("no_such_op_in_thread", &op);
    theirs = kf_last_error_message();
  });
  other.join();
  EXPECT_TRUE(contains_ci(theirs, "no_such_op_in_thread")) << theirs;
  EXPECT_EQ(std::string(kf_last_error_message()), mine)
      << "another thread's failure changed this thread's message";
  EXPECT_TRUE(contains_ci(mine, "sub")) << mine;
}

// Each thread makes a tensor (which, with slots reused, takes the slot of the one it released
// last), uses its own last handle and its neighbour's last handle (an op, a release) while
// holding it, then releases it and publishes the stale handle. Every stale use is refused, and
// no thread's tensors are touched. Under TSan this also shows that the handle check reads
// nothing a thread reusing the slot writes.
TEST(AbiThreads, StaleHandlesStayRefusedWhileOtherThreadsReuseTheirSlots) {
  constexpr int kThreads = 4, kIters = 2000;
  std::atomic<kf_tensor_t> published[kThreads];
  for (auto& p : published) p.store(nullptr);
  std::atomic<int> accepted{0}, errors{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int me = 0; me < kThreads; ++me) {
    threads.emplace_back([&, me] {
      Tensor keep = full({2}, me);
      kf_tensor_t mine = nullptr;  // the handle this thread released last
      for (int it = 0; it < kIters; ++it) {
        const float value = static_cast<float>(1000 + it);
        Tensor fresh = full({2}, value);
        if (!fresh) {
          ++errors;
          continue;
        }
        int32_t nd = 0;
        if (mine != nullptr && kf_tensor_ndim(mine, &nd) != KF_INVALID_ARGUMENT) ++accepted;
        kf_tensor_t theirs = published[(me + 1) % kThreads].load(std::memory_order_acquire);
        if (theirs != nullptr) {
          Tensor r;
          if (kf_add(theirs, keep.get(), kf_scalar_i64(1), r.put()) != KF_INVALID_ARGUMENT)
            ++accepted;
          if (kf_tensor_release(theirs) != KF_INVALID_ARGUMENT) ++accepted;
        }
        float v[2] = {-1, -1};
        if (kf_tensor_copy_to_host(fresh.get(), v, sizeof v) != KF_OK) ++errors;
        if (v[0] != value || v[1] != value) ++wrong;
        mine = fresh.release();
        if (kf_tensor_release(mine) != KF_OK) ++errors;
        published[me].store(mine, std::memory_order_release);
      }
      float v[2] = {-1, -1};
      if (kf_tensor_copy_to_host(keep.get(), v, sizeof v) != KF_OK) ++errors;
      if (v[0] != static_cast<float>(me) || v[1] != static_cast<float>(me)) ++wrong;
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(accepted.load(), 0) << "a stale handle was accepted";
  EXPECT_EQ(errors.load(), 0) << "a live tensor was released through a stale handle";
  EXPECT_EQ(wrong.load(), 0) << "a live tensor was changed through a stale handle";
}

}  // namespace
}  // namespace kfabi
