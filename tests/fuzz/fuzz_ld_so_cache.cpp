// Fuzz target for the reader of the dynamic loader's cache (runtime/loader/ld_so_cache.hpp),
// which the driver gate and the dependency search read without loading anything. Two checks on
// every input:
// 1. Any bytes as a cache, any soname: never a crash or a read out of bounds (ASan), and every
//    path returned is absolute and stands in the bytes as a NUL-terminated string, as does the
//    soname it was asked for.
// 2. A well-formed cache built from the input (the format written out here, from glibc's
//    elf/dl-cache.h, independently of the reader): every entry without a hwcap and with an
//    absolute path is found, in the table's order, and nothing else is.
//
// Input: byte 0 the soname's length (mod 32), the soname, then the cache bytes. For check 2 the
// rest is cut into entries of (a name byte, a path byte, a hwcap byte).
//
// Built two ways (CMakeLists.txt): with clang as a libFuzzer target, and with any compiler as a
// replay driver of the seed corpus (a CTest case). The cache exists on glibc systems only.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if !defined(_WIN32)
#include "loader/ld_so_cache.hpp"

namespace {

bool stands_in(const std::string& bytes, const std::string& s) {
  return bytes.find(s + std::string(1, '\0')) != std::string::npos;
}

void check_any_bytes(const std::string& soname, const std::string& cache) {
  for (const std::string& path : kf::os::ld_so_cache_lookup(cache, soname)) {
    if (path.empty() || path[0] != '/') __builtin_trap();
    if (!stands_in(cache, path) || !stands_in(cache, soname)) __builtin_trap();
  }
}

struct Entry {
  std::string name, path;
  uint64_t hwcap;
};

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// glibc's "glibc-ld.so.cache1.1" layout: a 48-byte header, 24-byte entries, then the strings;
// string offsets count from the start of the header. Little-endian (the fuzzers' machines).
std::string write_cache(const std::vector<Entry>& entries) {
  std::string strings, table;
  const uint32_t strings_at = static_cast<uint32_t>(48 + 24 * entries.size());
  for (const Entry& e : entries) {
    const uint32_t key = strings_at + static_cast<uint32_t>(strings.size());
    strings += e.name + std::string(1, '\0');
    const uint32_t value = strings_at + static_cast<uint32_t>(strings.size());
    strings += e.path + std::string(1, '\0');
    put<int32_t>(table, 0x0303);  // flags: ELF, x86-64 libc6
    put<uint32_t>(table, key);
    put<uint32_t>(table, value);
    put<uint32_t>(table, 0);  // osversion
    put<uint64_t>(table, e.hwcap);
  }
  std::string out = "glibc-ld.so.cache1.1";
  put<uint32_t>(out, static_cast<uint32_t>(entries.size()));
  put<uint32_t>(out, static_cast<uint32_t>(strings.size()));
  out += std::string(1, '\2') + std::string(19, '\0');  // little-endian; padding, extension
  return out + table + strings;
}

void check_built_cache(const std::string& soname, const uint8_t* data, size_t size) {
  static const char* const kNames[] = {"libx.so.1", "liby.so.2", "libz.so"};
  static const char* const kPaths[] = {"/a/", "/usr/lib/", "rel/", ""};
  std::vector<Entry> entries;
  for (size_t i = 0; i + 3 <= size && entries.size() < 64; i += 3) {
    const std::string name = data[i] % 4 == 3 ? soname : kNames[data[i] % 4];
    entries.push_back({name, kPaths[data[i + 1] % 4] + name, data[i + 2] % 5 == 0 ? 1u : 0u});
  }
  const std::string cache = write_cache(entries);
  for (const std::string& asked : {soname, std::string(kNames[0]), std::string(kNames[2])}) {
    std::vector<std::string> expected;
    for (const Entry& e : entries) {
      if (!asked.empty() && e.name == asked && e.hwcap == 0 && e.path[0] == '/') {
        expected.push_back(e.path);
      }
    }
    if (kf::os::ld_so_cache_lookup(cache, asked) != expected) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t n = std::min<size_t>(data[0] % 32, size - 1);
  const std::string soname(reinterpret_cast<const char*>(data) + 1, n);
  const std::string cache(reinterpret_cast<const char*>(data) + 1 + n, size - 1 - n);
  check_any_bytes(soname, cache);
  if (soname.find('\0') == std::string::npos) {
    check_built_cache(soname, data + 1 + n, size - 1 - n);
  }
  return 0;
}

#else  // _WIN32: there is no ld.so.cache to read; the replay runs the corpus through nothing.

extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }

#endif
