// Fuzz target for the entry files of the opencl backend's program cache
// (backends/opencl/cache_entry.hpp, Note [Program cache]): any bytes are either exactly one
// entry, which formats back to the very same bytes, or refused; never a crash, a read out of
// bounds or an entry beyond the limits. And any key (the input itself) with any size and
// digest formats into an entry that parses back to the same fields.
//
// Built two ways (CMakeLists.txt): with clang as a libFuzzer target, and with any compiler as a
// replay driver of the seed corpus (a CTest case). Pure C++: no OpenCL, no OpenSSL.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "cache_entry.hpp"  // backends/opencl (the target's include folder)

namespace {

void check_parsed(const uint8_t* data, size_t size) {
  const std::optional<kf::opencl::CacheEntry> e = kf::opencl::parse_entry(data, size);
  if (!e) return;
  if (e->binary_bytes == 0 || e->binary_bytes > kf::opencl::kMaxBinaryBytes) __builtin_trap();
  if (e->key.size() > kf::opencl::kMaxKeyBytes) __builtin_trap();
  if (size > kf::opencl::max_entry_bytes(e->key.size())) __builtin_trap();
  const std::string again = kf::opencl::format_entry(*e);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) __builtin_trap();
}

void check_round_trip(const uint8_t* data, size_t size) {
  kf::opencl::CacheEntry e;
  e.key.assign(reinterpret_cast<const char*>(data), std::min(size, kf::opencl::kMaxKeyBytes));
  e.binary_bytes = 1 + (size * 2654435761u) % kf::opencl::kMaxBinaryBytes;
  for (size_t i = 0; i < e.binary_sha256.size(); ++i) {
    e.binary_sha256[i] = static_cast<unsigned char>(size > 0 ? data[i % size] + i : i);
  }
  const std::string text = kf::opencl::format_entry(e);
  const std::optional<kf::opencl::CacheEntry> back =
      kf::opencl::parse_entry(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  if (!back || back->key != e.key || back->binary_bytes != e.binary_bytes ||
      back->binary_sha256 != e.binary_sha256) {
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check_parsed(data, size);
  check_round_trip(data, size);
  return 0;
}
