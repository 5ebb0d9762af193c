#include "distributed/store_socket.hpp"

#if !defined(_WIN32)

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/error.hpp"

namespace kf::store {
namespace {

using AddrList = std::unique_ptr<addrinfo, decltype(&freeaddrinfo)>;

AddrList resolve(const std::string& host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
  if (rc != 0) {
    fail(KF_INVALID_ARGUMENT, "the store's host '{}' does not resolve: {}; set MASTER_ADDR to "
         "rank 0's host name or address", host, gai_strerror(rc));
  }
  return AddrList(found, &freeaddrinfo);
}

int ms_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  if (left.count() <= 0) return 0;
  return left.count() > 60000 ? 60000 : static_cast<int>(left.count());
}

// Waits until `fd` is ready for `events`; false past the deadline.
bool wait_ready(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rc = poll(&p, 1, ms_until(deadline));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return true;  // the call that follows says why
    if (rc == 0 && Clock::now() >= deadline) return false;
  }
}

bool connect_one(const addrinfo* a, Clock::time_point deadline, Fd& out) {
  Fd fd(socket(a->ai_family, a->ai_socktype, a->ai_protocol));
  if (!fd) return false;
  set_nonblocking(fd.get());
  if (connect(fd.get(), a->ai_addr, a->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return false;
    if (!wait_ready(fd.get(), POLLOUT, deadline)) return false;
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) return false;
  }
  const int one = 1;
  (void)setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  out = std::move(fd);
  return true;
}

}  // namespace

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

int Fd::release() noexcept {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void Fd::reset() noexcept {
  if (fd_ >= 0) (void)::close(fd_);
  fd_ = -1;
}

void set_nonblocking(int fd) {
  (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
  (void)fcntl(fd, F_SETFD, fcntl(fd, F_GETFD, 0) | FD_CLOEXEC);
}

Fd listen_on(const std::string& host, uint16_t port) {
  const AddrList found = resolve(host, port);
  const int family = found->ai_family;
  Fd fd(socket(family, SOCK_STREAM, 0));
  if (!fd) fail(KF_UNAVAILABLE, "the store cannot make a socket: {}", std::strerror(errno));
  const int one = 1;
  (void)setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_storage any{};
  socklen_t len = sizeof(sockaddr_in);
  if (family == AF_INET6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&any);
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_any;
    a->sin6_port = htons(port);
    len = sizeof(sockaddr_in6);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&any);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_ANY);
    a->sin_port = htons(port);
  }
  if (bind(fd.get(), reinterpret_cast<sockaddr*>(&any), len) != 0 || listen(fd.get(), 128) != 0) {
    fail(KF_UNAVAILABLE, "rank 0 cannot serve the store on port {} (MASTER_PORT): {}; another "
         "job may use that port: pick a free one", port, std::strerror(errno));
  }
  set_nonblocking(fd.get());
  return fd;
}

uint16_t bound_port(int fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return 0;
  if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
}

Fd try_connect(const std::string& host, uint16_t port, Clock::time_point deadline) {
  const AddrList found = resolve(host, port);
  Fd out;
  for (const addrinfo* a = found.get(); a != nullptr; a = a->ai_next) {
    if (connect_one(a, deadline, out)) return out;
  }
  return out;
}

void send_all(int fd, const std::string& data, Clock::time_point deadline,
              const std::string& peer) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_ready(fd, POLLOUT, deadline)) {
        fail(KF_TIMEOUT, "the store at {} took no request inside the timeout", peer);
      }
      continue;
    }
    fail(KF_UNAVAILABLE, "the store at {} closed the connection: {}", peer,
         std::strerror(errno));
  }
}

size_t recv_some(int fd, unsigned char* buf, size_t cap, Clock::time_point deadline,
                 const std::string& peer) {
  for (;;) {
    const ssize_t n = ::recv(fd, buf, cap, 0);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      fail(KF_UNAVAILABLE, "the store at {} failed: {}", peer, std::strerror(errno));
    }
    if (!wait_ready(fd, POLLIN, deadline)) {
      fail(KF_TIMEOUT, "the store at {} did not answer inside the timeout", peer);
    }
  }
}

}  // namespace kf::store

#endif  // !_WIN32
