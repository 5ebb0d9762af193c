#include "timed_store.hpp"

#include <algorithm>

namespace kfgloo {

void TimedStore::set(const std::string& key, const std::vector<char>& data) {
  inner_.set(key, data);
}

std::vector<char> TimedStore::get(const std::string& key) {
  inner_.wait({key}, timeout_);  // then the inner get finds it at once
  return inner_.get(key);
}

void TimedStore::wait(const std::vector<std::string>& keys) { inner_.wait(keys, timeout_); }

void TimedStore::wait(const std::vector<std::string>& keys,
                      const std::chrono::milliseconds& timeout) {
  inner_.wait(keys, std::min(timeout, timeout_));
}

}  // namespace kfgloo
