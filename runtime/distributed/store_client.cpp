#include "distributed/store_client.hpp"

#if !defined(_WIN32)

#include <algorithm>
#include <thread>

#include "core/error.hpp"

namespace kf::store {
namespace {

Clock::time_point deadline_after(int64_t ms) {
  return Clock::now() + std::chrono::milliseconds(std::max<int64_t>(ms, 0));
}

// Sleeps a little longer each time (1 ms up to 50 ms), never past the deadline.
void back_off(std::chrono::milliseconds& pause, Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  std::this_thread::sleep_for(std::max(std::chrono::milliseconds(0), std::min(pause, left)));
  pause = std::min(pause * 2, std::chrono::milliseconds(50));
}

}  // namespace

Client::Client(const std::string& host, uint16_t port, int64_t timeout_ms)
    : peer_(host + ":" + std::to_string(port)), io_timeout_ms_(timeout_ms) {
  const Clock::time_point deadline = deadline_after(timeout_ms);
  std::chrono::milliseconds pause(1);
  for (;;) {
    fd_ = try_connect(host, port, deadline);
    if (fd_) return;
    if (Clock::now() >= deadline) {
      fail(KF_TIMEOUT, "no key-value store answered at {} (MASTER_ADDR:MASTER_PORT) inside the "
           "timeout of {} ms: is rank 0 running, with the same MASTER_ADDR and MASTER_PORT?",
           peer_, timeout_ms);
    }
    back_off(pause, deadline);
  }
}

Reply Client::call(const Request& request) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!fd_) fail(KF_UNAVAILABLE, "the connection to the store at {} failed before", peer_);
  const Clock::time_point deadline = deadline_after(io_timeout_ms_);
  try {
    send_all(fd_.get(), encode_request(request), deadline, peer_);
    for (;;) {
      Reply reply;
      const DecodeResult r = decode_reply(reinterpret_cast<const unsigned char*>(in_.data()),
                                          in_.size(), reply);
      if (r.state == Decoded::complete) {
        in_.erase(0, r.used);
        return reply;
      }
      if (r.state == Decoded::malformed) {
        fail(KF_UNAVAILABLE, "the store at {} sent a malformed reply: {}", peer_, r.why);
      }
      unsigned char buf[65536];
      const size_t n = recv_some(fd_.get(), buf, sizeof buf, deadline, peer_);
      if (n == 0) {
        fail(KF_UNAVAILABLE, "the store at {} closed the connection{} (did rank 0 exit?)", peer_,
             in_.empty() ? "" : " in the middle of a reply");
      }
      in_.append(reinterpret_cast<const char*>(buf), n);
    }
  } catch (...) {
    fd_.reset();  // the stream is out of step: nothing more on it
    throw;
  }
}

void Client::set(const std::string& key, const std::string& value) {
  Request r{Op::set, key, value, 0};
  const Reply reply = call(r);
  if (reply.kind == ReplyKind::error) {
    fail(KF_UNAVAILABLE, "the store at {} refused to set '{}': {}", peer_, key, reply.value);
  }
}

std::optional<std::string> Client::try_get(const std::string& key) {
  const Reply reply = call(Request{Op::get, key, {}, 0});
  if (reply.kind == ReplyKind::missing) return std::nullopt;
  if (reply.kind != ReplyKind::value) {
    fail(KF_UNAVAILABLE, "the store at {} answered a get of '{}' with {}", peer_, key,
         reply.kind == ReplyKind::error ? reply.value : "no value");
  }
  return reply.value;
}

std::string Client::get(const std::string& key, int64_t timeout_ms) {
  const Clock::time_point deadline = deadline_after(timeout_ms);
  std::chrono::milliseconds pause(1);
  for (;;) {
    if (std::optional<std::string> v = try_get(key)) return *v;
    if (Clock::now() >= deadline) {
      fail(KF_TIMEOUT, "the key '{}' did not appear in the store at {} inside the timeout of {} "
           "ms: a rank did not arrive", key, peer_, timeout_ms);
    }
    back_off(pause, deadline);
  }
}

int64_t Client::add(const std::string& key, int64_t delta) {
  const Reply reply = call(Request{Op::add, key, {}, delta});
  if (reply.kind != ReplyKind::value || reply.value.size() != 8) {
    fail(KF_UNAVAILABLE, "the store at {} answered an add to '{}' with {}", peer_, key,
         reply.kind == ReplyKind::error ? reply.value : "no counter");
  }
  uint64_t u = 0;
  for (size_t i = 0; i < 8; ++i) u |= uint64_t{static_cast<unsigned char>(reply.value[i])} << (8 * i);
  return static_cast<int64_t>(u);
}

void Client::wait(const std::vector<std::string>& keys, int64_t timeout_ms) {
  const Clock::time_point deadline = deadline_after(timeout_ms);
  for (const std::string& key : keys) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    (void)get(key, std::max<int64_t>(left.count(), 0));
  }
}

}  // namespace kf::store

#endif  // !_WIN32
