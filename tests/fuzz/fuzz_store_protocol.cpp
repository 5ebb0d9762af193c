// Fuzz target for the wire protocol of the core's own key-value store (env:// rendezvous,
// runtime/distributed/store_protocol.hpp) and the table that serves it (store_table.hpp).
//
// Input: byte 0 picks the reader (even: requests, odd: replies); the rest is a stream of bytes
// as a connection would deliver it. Frames are read one after another, as the server reads
// them, until the stream ends or one is malformed. Every frame read must encode back to exactly
// its bytes; every proper prefix of it must read as "need more" (a reader never answers early,
// never reads past the frame); a request is applied to one table, whose reply must encode and
// read back as itself, and whose size must stay within its limit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "distributed/store_protocol.hpp"
#include "distributed/store_table.hpp"

namespace {

using kf::store::Decoded;
using kf::store::DecodeResult;

void require(bool ok) {
  if (!ok) std::abort();
}

// Each proper prefix of a complete frame must read as need_more.
template <class Read>
void check_prefixes(const unsigned char* data, size_t used, Read&& read) {
  const size_t step = used > 64 ? used / 32 : 1;  // bounded work for large frames
  for (size_t k = 0; k < used; k += step) require(read(data, k).state == Decoded::need_more);
}

DecodeResult read_request(const unsigned char* d, size_t n, kf::store::Request& r) {
  return kf::store::decode_request(d, n, r);
}

void check_reply(const kf::store::Reply& reply) {
  const std::string bytes = kf::store::encode_reply(reply);
  kf::store::Reply back;
  const DecodeResult r = kf::store::decode_reply(
      reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), back);
  require(r.state == Decoded::complete && r.used == bytes.size());
  require(back.kind == reply.kind && back.value == reply.value);
}

void requests(const unsigned char* data, size_t size) {
  kf::store::Table table;
  size_t at = 0;
  while (at < size) {
    kf::store::Request request;
    const DecodeResult r = read_request(data + at, size - at, request);
    if (r.state != Decoded::complete) {
      require(r.state == Decoded::need_more || !r.why.empty());
      return;
    }
    require(r.used >= kf::store::kHeader && r.used <= size - at);
    require(kf::store::encode_request(request) ==
            std::string(reinterpret_cast<const char*>(data + at), r.used));
    kf::store::Request scratch;
    check_prefixes(data + at, r.used, [&](const unsigned char* d, size_t n) {
      return read_request(d, n, scratch);
    });
    check_reply(table.apply(request));
    require(table.bytes() <= kf::store::kMaxTableBytes);
    at += r.used;
  }
}

void replies(const unsigned char* data, size_t size) {
  size_t at = 0;
  while (at < size) {
    kf::store::Reply reply;
    const DecodeResult r = kf::store::decode_reply(data + at, size - at, reply);
    if (r.state != Decoded::complete) {
      require(r.state == Decoded::need_more || !r.why.empty());
      return;
    }
    require(kf::store::encode_reply(reply) ==
            std::string(reinterpret_cast<const char*>(data + at), r.used));
    kf::store::Reply scratch;
    check_prefixes(data + at, r.used, [&](const unsigned char* d, size_t n) {
      return kf::store::decode_reply(d, n, scratch);
    });
    at += r.used;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    requests(data + 1, size - 1);
  } else {
    replies(data + 1, size - 1);
  }
  return 0;
}
