// cache_entry.hpp — the entry file of the program cache (Note [Program cache] in
// program_cache.hpp): what a binary was built from (the key) and which binary that is (its size
// and SHA-256 digest). Pure functions over bytes, no I/O, no OpenCL: tests/fuzz/fuzz_cache_entry
// fuzzes the parser.
//
// An entry file is
//   kernforge-opencl-cache 2\n
//   key-bytes <n>\n
//   binary-bytes <m>\n
//   binary-sha256 <64 lowercase hex digits>\n
//   \n
//   <the key: n bytes>
// with n and m in decimal without leading zeros, n up to kMaxKeyBytes, m from 1 to
// kMaxBinaryBytes, and nothing after the key. Anything else is not an entry.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace kf::opencl {

using Digest = std::array<unsigned char, 32>;  // SHA-256

constexpr size_t kMaxKeyBytes = size_t{1} << 22;      // 4 MiB: options and a program's source
constexpr uint64_t kMaxBinaryBytes = uint64_t{1} << 28;  // 256 MiB

struct CacheEntry {
  std::string key;
  uint64_t binary_bytes = 0;
  Digest binary_sha256{};
};

/// The text of the entry file for `e`.
std::string format_entry(const CacheEntry& e);

/// The entry in `size` bytes at `data`, or nullopt when they are not exactly one entry.
std::optional<CacheEntry> parse_entry(const unsigned char* data, size_t size);

/// The most bytes an entry file with a key of `key_bytes` bytes can have.
size_t max_entry_bytes(size_t key_bytes);

/// 64 lowercase hex digits.
std::string hex(const Digest& d);

}  // namespace kf::opencl
