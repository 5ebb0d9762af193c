// The wire protocol of the core's own key-value store (env:// rendezvous, docs/distributed.md):
// pure functions over bytes, no sockets. Every message is a frame: a 4-byte little-endian
// length of the body, then the body.
//
//   request body:  op (1 byte: 1 set, 2 get, 3 add), key length (4 bytes), key,
//                  then set: value length (4 bytes), value; add: the delta (8 bytes, signed)
//   reply body:    kind (1 byte: 0 done, 1 value, 2 missing, 3 error),
//                  then value and error: length (4 bytes), bytes
//
// Integers are little-endian. A key is 1 to kMaxKey bytes, a value at most kMaxValue bytes; an
// add's value is its counter as 8 bytes. Nothing read is trusted: a length past its limit or
// past the frame, an unknown op or kind, or bytes left over in the body make the message
// malformed, and the reader says why. Thread safety: no state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kf::store {

constexpr size_t kMaxKey = 4096;
constexpr size_t kMaxValue = size_t{1} << 20;  // 1 MiB: addresses and ids, not tensors
constexpr size_t kMaxBody = 1 + 4 + kMaxKey + 4 + kMaxValue;
constexpr size_t kHeader = 4;  // the body's length

enum class Op : uint8_t { set = 1, get = 2, add = 3 };
enum class ReplyKind : uint8_t { done = 0, value = 1, missing = 2, error = 3 };

struct Request {
  Op op = Op::get;
  std::string key;
  std::string value;  // set
  int64_t delta = 0;  // add
};

struct Reply {
  ReplyKind kind = ReplyKind::done;
  std::string value;  // value: the bytes; error: the text
};

/// What a reader made of the bytes it was given.
enum class Decoded {
  complete,   // one message; `used` bytes were its frame
  need_more,  // a prefix of a valid frame: read more bytes
  malformed,  // never a valid frame: `why` says what is wrong
};

struct DecodeResult {
  Decoded state = Decoded::need_more;
  size_t used = 0;
  std::string why;
};

/// The frame of a request (its key and value within the limits; else throws std::length_error).
std::string encode_request(const Request& r);
/// The frame of a reply (a value or text within kMaxValue; else throws std::length_error).
std::string encode_reply(const Reply& r);
/// Reads the first frame of `data` (n bytes) as a request into `out`.
DecodeResult decode_request(const unsigned char* data, size_t n, Request& out);
/// Reads the first frame of `data` (n bytes) as a reply into `out`.
DecodeResult decode_reply(const unsigned char* data, size_t n, Reply& out);
/// "set", "get", "add", or "op <n>".
std::string op_name(Op op);

}  // namespace kf::store
