// A client of the core's own key-value store (env:// rendezvous; the server is
// store_server.hpp, the protocol store_protocol.hpp). It connects to host:port, trying again
// until the deadline while rank 0 has not started serving yet, and sends one request at a time.
// A get that must wait for its key asks again, every few milliseconds, until the key is there or
// the timeout passes (KF_TIMEOUT naming the key). A server that closes the connection, mid-reply
// or not, is KF_UNAVAILABLE; one that answers with a malformed reply too. Not built on Windows.
// Thread safety: every call may come from any thread (one request at a time).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "distributed/store_protocol.hpp"
#include "distributed/store_socket.hpp"

namespace kf::store {

class Client {
 public:
  /// Connects, trying again until `timeout_ms` passes: then KF_TIMEOUT saying that no store
  /// answers at host:port (rank 0 not started, or another MASTER_ADDR/MASTER_PORT).
  Client(const std::string& host, uint16_t port, int64_t timeout_ms);

  void set(const std::string& key, const std::string& value);
  /// The value, or nullopt when the key is not there yet.
  std::optional<std::string> try_get(const std::string& key);
  /// The value, once the key is there; KF_TIMEOUT after `timeout_ms`.
  std::string get(const std::string& key, int64_t timeout_ms);
  /// Adds `delta` to the counter at `key` (0 when missing); the counter after it.
  int64_t add(const std::string& key, int64_t delta);
  /// Returns once every key is there; KF_TIMEOUT naming the first missing one after `timeout_ms`.
  void wait(const std::vector<std::string>& keys, int64_t timeout_ms);

  const std::string& peer() const noexcept { return peer_; }

 private:
  Reply call(const Request& request);
  std::string peer_;  // "host:port"
  int64_t io_timeout_ms_;
  std::mutex mutex_;
  Fd fd_;
  std::string in_;  // bytes of a reply not yet whole
};

}  // namespace kf::store
