// lru_cache.hpp — a bounded, thread-safe map that forgets its least recently used entry when
// full: the cuFFT plan cache's (fft_plans.hpp). Values are held by shared_ptr, so an entry
// evicted while a call still uses it lives until that call lets go of it. Pure host code,
// unit-tested without a GPU (tests/cuda).
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kf::cuda {

template <class Key, class Value, class Hash>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity) {}

  /// The value of `key` (now the most recently used), or null.
  std::shared_ptr<Value> find(const Key& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  /// Stores `value` under `key` unless another thread stored one first, and returns the one
  /// kept; the least recently used entries beyond the capacity go.
  std::shared_ptr<Value> insert(const Key& key, std::shared_ptr<Value> value) {
    std::vector<std::shared_ptr<Value>> evicted;  // destroyed after the lock is released
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = index_.find(key);
    if (it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return it->second->second;
    }
    std::shared_ptr<Value> kept = value;  // the caller's, even when the bound is 0
    order_.emplace_front(key, std::move(value));
    index_.emplace(key, order_.begin());
    trim(evicted);
    return kept;
  }

  /// Changes the bound (0 keeps nothing), dropping the oldest entries beyond it.
  void set_capacity(size_t capacity) {
    std::vector<std::shared_ptr<Value>> evicted;
    std::lock_guard<std::mutex> lock(mutex_);
    capacity_ = capacity;
    trim(evicted);
  }

  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return order_.size();
  }

  size_t capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return capacity_;
  }

 private:
  void trim(std::vector<std::shared_ptr<Value>>& evicted) {
    while (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      evicted.push_back(std::move(order_.back().second));
      order_.pop_back();
    }
  }

  mutable std::mutex mutex_;
  size_t capacity_;
  std::list<std::pair<Key, std::shared_ptr<Value>>> order_;  // most recently used first
  std::unordered_map<Key, typename decltype(order_)::iterator, Hash> index_;
};

}  // namespace kf::cuda
