#include "distributed/store_protocol.hpp"

#include <stdexcept>

namespace kf::store {
namespace {

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

void put_i64(std::string& out, int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((u >> (8 * i)) & 0xffu));
}

void put_bytes(std::string& out, const std::string& bytes, size_t limit, const char* what) {
  if (bytes.size() > limit) {
    throw std::length_error(std::string("store: a ") + what + " of " +
                            std::to_string(bytes.size()) + " bytes is over the limit of " +
                            std::to_string(limit));
  }
  put_u32(out, static_cast<uint32_t>(bytes.size()));
  out += bytes;
}

std::string framed(const std::string& body) {
  std::string out;
  put_u32(out, static_cast<uint32_t>(body.size()));
  return out + body;
}

uint32_t get_u32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// Reads one body; every read is checked against what is left.
class Body {
 public:
  Body(const unsigned char* p, size_t n) : p_(p), n_(n) {}
  bool u8(uint8_t& v) {
    if (n_ - at_ < 1) return false;
    v = p_[at_++];
    return true;
  }
  bool i64(int64_t& v) {
    if (n_ - at_ < 8) return false;
    uint64_t u = 0;
    for (int i = 0; i < 8; ++i) u |= uint64_t{p_[at_ + i]} << (8 * i);
    at_ += 8;
    v = static_cast<int64_t>(u);
    return true;
  }
  // A length-prefixed byte string of at most `limit` bytes; `why` on failure.
  bool bytes(std::string& out, size_t limit, const char* what, std::string& why) {
    if (n_ - at_ < 4) return fail(why, std::string("the body ends inside the ") + what + "'s length");
    const uint32_t len = get_u32(p_ + at_);
    at_ += 4;
    if (len > limit) {
      return fail(why, std::string("a ") + what + " of " + std::to_string(len) +
                           " bytes is over the limit of " + std::to_string(limit));
    }
    if (n_ - at_ < len) return fail(why, std::string("the ") + what + " runs past the body");
    out.assign(reinterpret_cast<const char*>(p_ + at_), len);
    at_ += len;
    return true;
  }
  bool done() const { return at_ == n_; }
  size_t left() const { return n_ - at_; }

 private:
  static bool fail(std::string& why, std::string text) {
    why = std::move(text);
    return false;
  }
  const unsigned char* p_;
  size_t n_;
  size_t at_ = 0;
};

// The body of the first frame, or why there is none (yet).
DecodeResult frame_of(const unsigned char* data, size_t n, size_t& body_size) {
  DecodeResult r;
  if (n < kHeader) return r;
  body_size = get_u32(data);
  if (body_size > kMaxBody) {
    r.state = Decoded::malformed;
    r.why = "a frame of " + std::to_string(body_size) + " bytes is over the limit of " +
            std::to_string(kMaxBody);
    return r;
  }
  if (body_size == 0) {
    r.state = Decoded::malformed;
    r.why = "an empty frame";
    return r;
  }
  if (n - kHeader < body_size) return r;
  r.state = Decoded::complete;
  r.used = kHeader + body_size;
  return r;
}

DecodeResult malformed(std::string why) {
  DecodeResult r;
  r.state = Decoded::malformed;
  r.why = std::move(why);
  return r;
}

DecodeResult finish(const Body& b, DecodeResult frame, std::string& why, bool ok) {
  if (!ok) return malformed(why.empty() ? "the body ends early" : why);
  if (!b.done()) return malformed(std::to_string(b.left()) + " bytes left over in the body");
  return frame;
}

bool read_request_fields(Body& b, Request& out, std::string& why) {
  uint8_t op = 0;
  if (!b.u8(op)) return false;
  if (op < 1 || op > 3) {
    why = "an unknown op " + std::to_string(op) + " (1 set, 2 get, 3 add)";
    return false;
  }
  out.op = static_cast<Op>(op);
  if (!b.bytes(out.key, kMaxKey, "key", why)) return false;
  if (out.key.empty()) {
    why = "an empty key";
    return false;
  }
  if (out.op == Op::set) return b.bytes(out.value, kMaxValue, "value", why);
  if (out.op == Op::add) return b.i64(out.delta);
  return true;
}

bool read_reply_fields(Body& b, Reply& out, std::string& why) {
  uint8_t kind = 0;
  if (!b.u8(kind)) return false;
  if (kind > 3) {
    why = "an unknown reply kind " + std::to_string(kind) + " (0 done, 1 value, 2 missing, 3 error)";
    return false;
  }
  out.kind = static_cast<ReplyKind>(kind);
  out.value.clear();
  if (out.kind == ReplyKind::value) return b.bytes(out.value, kMaxValue, "value", why);
  if (out.kind == ReplyKind::error) return b.bytes(out.value, kMaxValue, "error text", why);
  return true;
}

}  // namespace

std::string encode_request(const Request& r) {
  std::string body(1, static_cast<char>(r.op));
  if (r.key.empty()) throw std::length_error("store: an empty key");
  put_bytes(body, r.key, kMaxKey, "key");
  if (r.op == Op::set) put_bytes(body, r.value, kMaxValue, "value");
  if (r.op == Op::add) put_i64(body, r.delta);
  return framed(body);
}

std::string encode_reply(const Reply& r) {
  std::string body(1, static_cast<char>(r.kind));
  if (r.kind == ReplyKind::value) put_bytes(body, r.value, kMaxValue, "value");
  if (r.kind == ReplyKind::error) put_bytes(body, r.value.substr(0, kMaxValue), kMaxValue, "error");
  return framed(body);
}

DecodeResult decode_request(const unsigned char* data, size_t n, Request& out) {
  size_t size = 0;
  DecodeResult frame = frame_of(data, n, size);
  if (frame.state != Decoded::complete) return frame;
  Body b(data + kHeader, size);
  std::string why;
  const bool ok = read_request_fields(b, out, why);
  return finish(b, frame, why, ok);
}

DecodeResult decode_reply(const unsigned char* data, size_t n, Reply& out) {
  size_t size = 0;
  DecodeResult frame = frame_of(data, n, size);
  if (frame.state != Decoded::complete) return frame;
  Body b(data + kHeader, size);
  std::string why;
  const bool ok = read_reply_fields(b, out, why);
  return finish(b, frame, why, ok);
}

std::string op_name(Op op) {
  switch (op) {
    case Op::set: return "set";
    case Op::get: return "get";
    case Op::add: return "add";
  }
  return "op " + std::to_string(static_cast<int>(op));
}

}  // namespace kf::store
