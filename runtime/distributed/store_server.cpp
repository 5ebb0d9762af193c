#include "distributed/store_server.hpp"

#if !defined(_WIN32)

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "core/logging.hpp"
#include "distributed/store_table.hpp"

namespace kf::store {
namespace {

struct Connection {
  Fd fd;
  std::string in;   // bytes read, not yet a whole request
  std::string out;  // replies not yet written
};

// One loop of the server: the table, the connections and what poll watches.
class Loop {
 public:
  Loop(int listener, int wake, std::atomic<bool>& stop, std::atomic<uint64_t>& rejected)
      : listener_(listener), wake_(wake), stop_(stop), rejected_(rejected) {}
  void run();

 private:
  void accept_all();
  bool read_from(Connection& c);   // false: close it
  bool serve(Connection& c);       // false: close it (malformed)
  bool write_to(Connection& c);    // false: close it
  void close(size_t index, const char* why);

  int listener_;
  int wake_;
  std::atomic<bool>& stop_;
  std::atomic<uint64_t>& rejected_;
  Table table_;
  std::vector<std::unique_ptr<Connection>> conns_;
};

void Loop::accept_all() {
  for (;;) {
    Fd fd(::accept(listener_, nullptr, nullptr));
    if (!fd) return;  // EAGAIN: none left (or a failed accept, tried again on the next poll)
    if (conns_.size() >= kMaxConnections) {
      log().warn("kernforge store: refused a connection: already {} open", kMaxConnections);
      continue;
    }
    set_nonblocking(fd.get());
    auto c = std::make_unique<Connection>();
    c->fd = std::move(fd);
    conns_.push_back(std::move(c));
  }
}

bool Loop::serve(Connection& c) {
  size_t at = 0;
  while (c.out.empty()) {  // one reply at a time: it must be read before the next request
    Request request;
    const DecodeResult r = decode_request(
        reinterpret_cast<const unsigned char*>(c.in.data()) + at, c.in.size() - at, request);
    if (r.state == Decoded::need_more) break;
    if (r.state == Decoded::malformed) {
      log().warn("kernforge store: closing a connection: a malformed request: {}", r.why);
      rejected_.fetch_add(1);
      return false;
    }
    at += r.used;
    c.out += encode_reply(table_.apply(request));
  }
  c.in.erase(0, at);
  return true;
}

bool Loop::read_from(Connection& c) {
  unsigned char buf[65536];
  const ssize_t n = ::recv(c.fd.get(), buf, sizeof buf, 0);
  if (n == 0) return false;  // the client closed (mid-message or not)
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
  c.in.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
  return serve(c);
}

bool Loop::write_to(Connection& c) {
  const ssize_t n = ::send(c.fd.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
  c.out.erase(0, static_cast<size_t>(n));
  return c.out.empty() ? serve(c) : true;  // requests that waited for this reply
}

void Loop::close(size_t index, const char* why) {
  log().debug("kernforge store: connection closed: {}", why);
  conns_.erase(conns_.begin() + static_cast<std::ptrdiff_t>(index));
}

void Loop::run() {
  while (!stop_.load()) {
    std::vector<pollfd> fds{{wake_, POLLIN, 0}, {listener_, POLLIN, 0}};
    for (const auto& c : conns_) {
      fds.push_back({c->fd.get(), static_cast<short>(c->out.empty() ? POLLIN : POLLOUT), 0});
    }
    if (::poll(fds.data(), fds.size(), 1000) <= 0) continue;
    for (size_t i = fds.size() - 2; i-- > 0;) {  // the connections polled (closing from the end)
      const short ev = fds[i + 2].revents;
      if (ev == 0) continue;
      Connection& c = *conns_[i];
      bool keep = true;
      if (ev & POLLOUT) keep = write_to(c);
      else if (ev & POLLIN) keep = read_from(c);
      else keep = false;  // POLLERR, POLLHUP, POLLNVAL
      if (!keep) close(i, "closed by the client, failed, or malformed");
    }
    if (fds[1].revents & POLLIN) accept_all();  // after: the new ones were not polled
  }
}

}  // namespace

Server::Server(const std::string& host, uint16_t port) : listener_(listen_on(host, port)) {
  port_ = bound_port(listener_.get());
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    fail(KF_UNAVAILABLE, "the store cannot make its wake-up pipe: {}", std::strerror(errno));
  }
  wake_read_ = Fd(pipe_fds[0]);
  wake_write_ = Fd(pipe_fds[1]);
  set_nonblocking(wake_read_.get());
  thread_ = std::thread([this] { run(); });
}

Server::~Server() {
  stop_.store(true);
  const char byte = 1;
  (void)!::write(wake_write_.get(), &byte, 1);
  if (thread_.joinable()) thread_.join();
}

void Server::run() noexcept {
  try {
    Loop(listener_.get(), wake_read_.get(), stop_, rejected_).run();
  } catch (const std::exception& e) {
    log().error("kernforge store: the server stopped: {}", e.what());
  }
}

}  // namespace kf::store

#endif  // !_WIN32
