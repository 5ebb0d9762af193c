#include "host_store.hpp"

#include "gloo_errors.hpp"

namespace kfgloo {
namespace {

constexpr size_t kErrorCap = 1024;

void check(kf_status_t s, const char* error, const char* what) {
  if (s == KF_OK) return;
  throw PluginError(s, std::string("the host's store (") + what + "): " + error);
}

void append(void* context, const void* value, size_t size) {
  const auto* p = static_cast<const char*>(value);
  static_cast<std::vector<char>*>(context)->assign(p, p + size);
}

}  // namespace

void HostStore::set(const std::string& key, const std::vector<char>& data) {
  char error[kErrorCap] = {0};
  check(table_.set(table_.self, key.c_str(), data.data(), data.size(), error, sizeof error),
        error, "set");
}

std::vector<char> HostStore::get(const std::string& key) {
  char error[kErrorCap] = {0};
  std::vector<char> out;
  check(table_.get(table_.self, key.c_str(), timeout_.count(), &append, &out, error, sizeof error),
        error, "get");
  return out;
}

void HostStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void HostStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  std::vector<const char*> names;
  for (const std::string& k : keys) names.push_back(k.c_str());
  char error[kErrorCap] = {0};
  check(table_.wait(table_.self, names.data(), names.size(), timeout.count(), error, sizeof error),
        error, "wait");
}

}  // namespace kfgloo
