// The keys and values of the core's own key-value store (env:// rendezvous): what the server
// does with one request (store_protocol.hpp). A set replaces the value; a get answers the value
// or "missing" at once (a client that must wait asks again); an add treats the key as a signed
// 64-bit counter (8 bytes, little-endian; a missing key is 0), adds the delta (wrapping) and
// answers the counter. The table holds at most kMaxTableBytes of keys and values: past that a
// set or add of a new key is answered with an error, never taken. Thread safety: none (the
// server owns one table and serves one request at a time).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "distributed/store_protocol.hpp"

namespace kf::store {

constexpr size_t kMaxTableBytes = size_t{64} << 20;

class Table {
 public:
  Reply apply(const Request& request);
  size_t bytes() const noexcept { return bytes_; }
  size_t size() const noexcept { return values_.size(); }

 private:
  Reply put(const std::string& key, std::string value);
  std::map<std::string, std::string> values_;
  size_t bytes_ = 0;
};

}  // namespace kf::store
