// allocations.cpp — see allocations.hpp.
#include "allocations.hpp"

namespace kf::xpu {

void Allocations::add(void* ptr, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  live_.emplace(ptr, bytes);
  bytes_ += bytes;
}

bool Allocations::remove(void* ptr) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = live_.find(ptr);
  if (found == live_.end()) return false;
  bytes_ -= found->second;
  live_.erase(found);
  return true;
}

std::vector<std::pair<void*, size_t>> Allocations::take_all() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<void*, size_t>> all;
  try {
    all.assign(live_.begin(), live_.end());
  } catch (...) {
    return all;  // no memory for the list: the driver frees the context's memory with it
  }
  live_.clear();
  bytes_ = 0;
  return all;
}

size_t Allocations::count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.size();
}

size_t Allocations::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

}  // namespace kf::xpu
