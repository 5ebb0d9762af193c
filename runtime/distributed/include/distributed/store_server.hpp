// The server of the core's own key-value store (env:// rendezvous): rank 0's process serves one
// Table (store_table.hpp) on MASTER_PORT from a thread of its own, for as long as the object
// lives. One thread polls the listening socket and every connection; requests are served in the
// order they arrive, a get never waits (the client asks again), and a connection's reply must
// be read before more of its requests are (so a client that does not read cannot grow the
// server's memory). A malformed or oversized message closes that connection, logged with the
// reason (store_protocol.hpp); it never stops the server. Not built on Windows.
// Thread safety: construct and destroy on one thread; the server thread touches nothing else.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "distributed/store_socket.hpp"

namespace kf::store {

constexpr size_t kMaxConnections = 4096;

class Server {
 public:
  /// Listens on `port` (0: a free one) of the wildcard address of `host`'s family and starts
  /// the thread; throws KF_UNAVAILABLE when it cannot listen.
  Server(const std::string& host, uint16_t port);
  /// Stops the thread (the connections close) and waits for it.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  uint16_t port() const noexcept { return port_; }
  /// Connections closed for a malformed message so far (for the tests).
  uint64_t rejected() const noexcept { return rejected_.load(); }

 private:
  void run() noexcept;
  Fd listener_;
  Fd wake_read_;
  Fd wake_write_;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> rejected_{0};
  std::thread thread_;
};

}  // namespace kf::store
