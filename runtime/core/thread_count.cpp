#include "core/thread_count.hpp"

#include <algorithm>
#include <thread>

namespace kf {

int32_t max_thread_count() noexcept {
  static const int32_t bound = [] {
    const int64_t hardware = static_cast<int64_t>(std::thread::hardware_concurrency());
    return static_cast<int32_t>(std::clamp<int64_t>(4 * hardware, 64, 4096));
  }();
  return bound;
}

}  // namespace kf
