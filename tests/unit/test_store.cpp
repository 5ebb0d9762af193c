// The core's own key-value store (env:// rendezvous, runtime/distributed/store_*.hpp): the
// protocol's reader on good, short and hostile bytes; the table; and on POSIX a real server and
// client on loopback: set, get, add, wait, a get that times out, a client that finds no server,
// a hostile client (the server closes it and serves the others), and a server that closes in
// the middle of a reply. Timeouts are short (a few hundred ms); nothing checks a duration.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "distributed/store_protocol.hpp"
#include "distributed/store_table.hpp"

namespace {

using namespace kf::store;

const unsigned char* bytes_of(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

DecodeResult read(const std::string& s, Request& r) { return decode_request(bytes_of(s), s.size(), r); }

std::string u32(uint32_t v) {
  std::string out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
  return out;
}

TEST(StoreProtocol, RequestsRoundTrip) {
  for (const Request& in : {Request{Op::set, "k/0", std::string("a\0b", 3), 0},
                            Request{Op::get, "key", "", 0}, Request{Op::add, "n", "", -5}}) {
    const std::string frame = encode_request(in);
    Request out;
    const DecodeResult r = read(frame, out);
    ASSERT_EQ(r.state, Decoded::complete) << r.why;
    EXPECT_EQ(r.used, frame.size());
    EXPECT_EQ(out.op, in.op);
    EXPECT_EQ(out.key, in.key);
    EXPECT_EQ(out.value, in.value);
    EXPECT_EQ(out.delta, in.delta);
    for (size_t k = 0; k < frame.size(); ++k) {
      EXPECT_EQ(decode_request(bytes_of(frame), k, out).state, Decoded::need_more) << k;
    }
  }
}

TEST(StoreProtocol, HostileRequestsAreMalformedWithAReason) {
  const std::string key = u32(1) + "k";
  const struct {
    std::string frame;
    const char* why;
  } cases[] = {
      {u32(0xfffffff0u) + "x", "over the limit"},
      {u32(0), "empty frame"},
      {u32(6) + "\x09" + key, "unknown op"},
      {u32(5) + "\x02" + u32(0), "empty key"},
      {u32(6) + "\x02" + u32(100) + "k", "runs past the body"},
      {u32(5 + 5000) + "\x02" + u32(5000) + std::string(5000, 'k'), "over the limit"},
      {u32(9) + "\x02" + key + "junk", "left over"},
      {u32(8) + "\x03" + key + "ab", "ends early"},
  };
  for (const auto& c : cases) {
    Request out;
    const DecodeResult r = read(c.frame, out);
    EXPECT_EQ(r.state, Decoded::malformed) << c.why;
    EXPECT_NE(r.why.find(c.why), std::string::npos) << r.why;
  }
}

TEST(StoreProtocol, RepliesRoundTripAndLimitsAreKept) {
  for (const Reply& in : {Reply{ReplyKind::done, ""}, Reply{ReplyKind::value, "v"},
                          Reply{ReplyKind::missing, ""}, Reply{ReplyKind::error, "full"}}) {
    const std::string frame = encode_reply(in);
    Reply out;
    const DecodeResult r = decode_reply(bytes_of(frame), frame.size(), out);
    ASSERT_EQ(r.state, Decoded::complete) << r.why;
    EXPECT_EQ(out.kind, in.kind);
    EXPECT_EQ(out.value, in.value);
  }
  EXPECT_THROW(encode_request(Request{Op::get, std::string(kMaxKey + 1, 'k'), "", 0}),
               std::length_error);
  EXPECT_THROW(encode_request(Request{Op::get, "", "", 0}), std::length_error);
  EXPECT_THROW(encode_reply(Reply{ReplyKind::value, std::string(kMaxValue + 1, 'v')}),
               std::length_error);
}

TEST(StoreTable, SetGetAddAndFull) {
  Table t;
  EXPECT_EQ(t.apply(Request{Op::get, "a", "", 0}).kind, ReplyKind::missing);
  EXPECT_EQ(t.apply(Request{Op::set, "a", "1", 0}).kind, ReplyKind::done);
  EXPECT_EQ(t.apply(Request{Op::get, "a", "", 0}).value, "1");
  EXPECT_EQ(t.apply(Request{Op::add, "n", "", 2}).value, std::string("\x02\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(t.apply(Request{Op::add, "n", "", -3}).value, std::string(8, '\xff'));
  const std::string big(kMaxValue, 'x');
  ReplyKind last = ReplyKind::done;
  for (int i = 0; i < 80 && last != ReplyKind::error; ++i) {
    last = t.apply(Request{Op::set, "big" + std::to_string(i), big, 0}).kind;
  }
  EXPECT_EQ(last, ReplyKind::error);
  EXPECT_LE(t.bytes(), kMaxTableBytes);
}

}  // namespace

#if !defined(_WIN32)

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "distributed/host_store.hpp"
#include "distributed/store_client.hpp"
#include "distributed/store_server.hpp"

namespace {

kf_status_t status_of(const std::function<void()>& fn, std::string* message = nullptr) {
  try {
    fn();
    return KF_OK;
  } catch (const kf::Error& e) {
    if (message != nullptr) *message = e.what();
    return e.status();
  }
}

TEST(StoreServer, SetGetAddWaitBetweenClients) {
  Server server("127.0.0.1", 0);
  Client a("127.0.0.1", server.port(), 2000);
  Client b("127.0.0.1", server.port(), 2000);
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    a.set("late", "here");
  });
  EXPECT_EQ(b.get("late", 5000), "here");  // waits for it
  later.join();
  b.wait({"late"}, 1000);
  EXPECT_EQ(a.add("n", 5), 5);
  EXPECT_EQ(b.add("n", -2), 3);
  EXPECT_FALSE(a.try_get("none").has_value());
}

TEST(StoreServer, ManyClientsAtOnce) {
  Server server("127.0.0.1", 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Client c("127.0.0.1", server.port(), 5000);
      for (int i = 0; i < 50; ++i) (void)c.add("n", 1);
      c.set("done" + std::to_string(t), "1");
    });
  }
  for (std::thread& t : threads) t.join();
  Client c("127.0.0.1", server.port(), 5000);
  EXPECT_EQ(c.add("n", 0), 400);
  c.wait({"done0", "done7"}, 1000);
}

TEST(StoreServer, GetOfAMissingKeyTimesOut) {
  Server server("127.0.0.1", 0);
  Client c("127.0.0.1", server.port(), 2000);
  std::string message;
  EXPECT_EQ(status_of([&] { (void)c.get("never", 200); }, &message), KF_TIMEOUT);
  EXPECT_NE(message.find("'never'"), std::string::npos) << message;
  EXPECT_EQ(status_of([&] { c.wait({"never"}, 100); }), KF_TIMEOUT);
}

TEST(StoreServer, NoServerIsATimeoutNamingTheAddress) {
  uint16_t port = 0;
  { port = Server("127.0.0.1", 0).port(); }  // a port nobody listens on now
  std::string message;
  EXPECT_EQ(status_of([&] { Client("127.0.0.1", port, 200); }, &message), KF_TIMEOUT);
  EXPECT_NE(message.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << message;
}

int raw_connect(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  return fd;
}

TEST(StoreServer, HostileClientsAreClosedAndTheOthersServed) {
  Server server("127.0.0.1", 0);
  const int hostile = raw_connect(server.port());
  const std::string junk = u32(0xfffffff0u) + "garbage";
  ASSERT_EQ(send(hostile, junk.data(), junk.size(), 0), static_cast<ssize_t>(junk.size()));
  char byte = 0;
  EXPECT_EQ(recv(hostile, &byte, 1, 0), 0);  // closed by the server
  close(hostile);
  EXPECT_EQ(server.rejected(), 1u);
  const int half = raw_connect(server.port());  // half a request, then gone
  const std::string start = encode_request(Request{Op::set, "k", "value", 0}).substr(0, 7);
  ASSERT_EQ(send(half, start.data(), start.size(), 0), static_cast<ssize_t>(start.size()));
  close(half);
  Client c("127.0.0.1", server.port(), 2000);
  c.set("k", "v");
  EXPECT_EQ(c.get("k", 1000), "v");
}

TEST(StoreClient, AServerClosingMidReplyIsUnavailable) {
  kf::store::Fd listener = listen_on("127.0.0.1", 0);
  const uint16_t port = bound_port(listener.get());
  std::thread fake([&] {
    int fd = -1;
    while ((fd = accept(listener.get(), nullptr, nullptr)) < 0) std::this_thread::yield();
    unsigned char buf[256];
    (void)recv(fd, buf, sizeof buf, 0);
    const std::string reply = encode_reply(Reply{ReplyKind::value, "a long value"});
    (void)send(fd, reply.data(), 6, 0);
    close(fd);
  });
  Client c("127.0.0.1", port, 2000);
  std::string message;
  EXPECT_EQ(status_of([&] { (void)c.try_get("k"); }, &message), KF_UNAVAILABLE);
  EXPECT_NE(message.find("in the middle of a reply"), std::string::npos) << message;
  fake.join();
  EXPECT_EQ(status_of([&] { c.set("k", "v"); }), KF_UNAVAILABLE);  // the connection is gone
}

TEST(HostStore, TableAndBarrierAcrossRanks) {
  const uint16_t port = [] { return Server("127.0.0.1", 0).port(); }();
  kf::HostStore rank0("127.0.0.1", port, 0, 3000);
  std::thread other([&] {
    kf::HostStore rank1("127.0.0.1", port, 1, 3000);
    const kf_rendezvous_store_t* t = rank1.table();
    char error[256] = {0};
    EXPECT_EQ(t->set(t->self, "addr1", "xyz", 3, error, sizeof error), KF_OK) << error;
    rank1.barrier("joined", 2);
  });
  const kf_rendezvous_store_t* t = rank0.table();
  std::string got;
  char error[256] = {0};
  const auto sink = [](void* ctx, const void* v, size_t n) {
    static_cast<std::string*>(ctx)->assign(static_cast<const char*>(v), n);
  };
  EXPECT_EQ(t->get(t->self, "addr1", 3000, sink, &got, error, sizeof error), KF_OK) << error;
  EXPECT_EQ(got, "xyz");
  EXPECT_EQ(t->get(t->self, "none", 100, sink, &got, error, sizeof error), KF_TIMEOUT);
  int64_t n = 0;
  EXPECT_EQ(t->add(t->self, "c", 7, &n, error, sizeof error), KF_OK);
  EXPECT_EQ(n, 7);
  rank0.barrier("joined", 2);
  other.join();
}

}  // namespace

#endif  // !_WIN32
