// A small test-and-test-and-set spin lock for critical sections of a few instructions (the
// caching allocator's free lists): uncontended it costs one atomic exchange, against a
// pthread mutex's call pair. Under contention it yields.
#pragma once

#include <atomic>
#include <thread>

namespace kf {

class SpinLock {
 public:
  void lock() noexcept {
    for (;;) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace kf
