#include "cache_entry.hpp"

#include <cstring>

namespace kf::opencl {
namespace {

constexpr char kMagic[] = "kernforge-opencl-cache 2\n";

/// A cursor over the bytes of an entry; every read checks the bounds.
struct Reader {
  const unsigned char* p;
  size_t left;

  bool literal(const char* text) {
    const size_t n = std::strlen(text);
    if (left < n || std::memcmp(p, text, n) != 0) return false;
    p += n;
    left -= n;
    return true;
  }

  /// A decimal number up to `max`, without leading zeros, then '\n'.
  bool number(uint64_t max, uint64_t& out) {
    out = 0;
    size_t digits = 0;
    while (digits < left && p[digits] >= '0' && p[digits] <= '9') {
      if (digits == 20) return false;
      const uint64_t d = static_cast<uint64_t>(p[digits] - '0');
      if (out > (max - d) / 10) return false;
      out = out * 10 + d;
      ++digits;
    }
    if (digits == 0 || (digits > 1 && p[0] == '0') || digits == left || p[digits] != '\n') {
      return false;
    }
    p += digits + 1;
    left -= digits + 1;
    return true;
  }

  /// 64 lowercase hex digits, then '\n'.
  bool digest(Digest& out) {
    if (left < 2 * out.size() + 1 || p[2 * out.size()] != '\n') return false;
    for (size_t i = 0; i < 2 * out.size(); ++i) {
      const unsigned char c = p[i];
      const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (v < 0) return false;
      out[i / 2] = static_cast<unsigned char>(i % 2 == 0 ? v << 4 : out[i / 2] | v);
    }
    p += 2 * out.size() + 1;
    left -= 2 * out.size() + 1;
    return true;
  }
};

}  // namespace

std::string hex(const Digest& d) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * d.size());
  for (unsigned char b : d) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string format_entry(const CacheEntry& e) {
  return std::string(kMagic) + "key-bytes " + std::to_string(e.key.size()) + "\nbinary-bytes " +
         std::to_string(e.binary_bytes) + "\nbinary-sha256 " + hex(e.binary_sha256) + "\n\n" +
         e.key;
}

size_t max_entry_bytes(size_t key_bytes) {
  // The header with the longest numbers (20 digits each) and the key.
  return std::strlen(kMagic) + std::strlen("key-bytes \nbinary-bytes \nbinary-sha256 \n\n") +
         2 * 20 + 64 + key_bytes;
}

std::optional<CacheEntry> parse_entry(const unsigned char* data, size_t size) {
  if (data == nullptr) return std::nullopt;
  Reader r{data, size};
  CacheEntry e;
  uint64_t key_bytes = 0;
  if (!r.literal(kMagic) || !r.literal("key-bytes ") || !r.number(kMaxKeyBytes, key_bytes) ||
      !r.literal("binary-bytes ") || !r.number(kMaxBinaryBytes, e.binary_bytes) ||
      e.binary_bytes == 0 || !r.literal("binary-sha256 ") || !r.digest(e.binary_sha256) ||
      !r.literal("\n") || r.left != key_bytes) {
    return std::nullopt;
  }
  e.key.assign(reinterpret_cast<const char*>(r.p), r.left);
  return e;
}

}  // namespace kf::opencl
