// The POSIX sockets under the core's own key-value store (env:// rendezvous): an owned file
// descriptor, resolving a host, listening, connecting, and reading and writing with a deadline.
// Errors throw kf::Error naming the address and the system's text. Not built on Windows (there
// env:// answers KF_UNIMPLEMENTED, docs/distributed.md). Thread safety: none per descriptor.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace kf::store {

using Clock = std::chrono::steady_clock;

/// An owned socket descriptor, closed when it goes.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const noexcept { return fd_; }
  int release() noexcept;
  void reset() noexcept;
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

/// A listening socket on every interface of the family `host` resolves to (the wildcard
/// address: the ranks on other machines reach it through `host`), port `port` (0: any free
/// one). Throws KF_UNAVAILABLE naming host:port and why (a port in use, ...).
Fd listen_on(const std::string& host, uint16_t port);
/// The port a socket is bound to.
uint16_t bound_port(int fd);
/// A connected socket to host:port, or an invalid Fd when nobody listens there yet (the caller
/// retries). Throws KF_INVALID_ARGUMENT when `host` does not resolve.
Fd try_connect(const std::string& host, uint16_t port, Clock::time_point deadline);
/// Writes all of `data`; throws KF_TIMEOUT past the deadline, KF_UNAVAILABLE when the peer
/// closed or the write failed (`peer` names it in the message).
void send_all(int fd, const std::string& data, Clock::time_point deadline, const std::string& peer);
/// Reads what is there (at most `cap` bytes, waiting for some until the deadline); 0 when the
/// peer closed. Throws KF_TIMEOUT past the deadline, KF_UNAVAILABLE when the read failed.
size_t recv_some(int fd, unsigned char* buf, size_t cap, Clock::time_point deadline,
                 const std::string& peer);
/// Makes the descriptor non-blocking and close-on-exec.
void set_nonblocking(int fd);

}  // namespace kf::store
