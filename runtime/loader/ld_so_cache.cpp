#include "loader/ld_so_cache.hpp"

#if !defined(_WIN32)

#include <cstdint>
#include <cstring>

#include "loader/os.hpp"

namespace kf::os {
namespace {

// glibc's elf/dl-cache.h: struct cache_file_new, then nlibs struct file_entry_new.
constexpr char kMagic[] = "glibc-ld.so.cache1.1";  // magic and version, 20 bytes
constexpr size_t kMagicSize = sizeof(kMagic) - 1;
constexpr size_t kHeaderSize = 48;  // magic, nlibs, len_strings, flags, pad, extension, unused
constexpr size_t kEntrySize = 24;   // int32 flags, uint32 key, value, osversion, uint64 hwcap
constexpr size_t kMaxCacheBytes = 64u << 20;
// cache_file_new.flags: the byte order ldconfig wrote (0: not recorded).
constexpr uint8_t kEndianLittle = 2;
constexpr uint8_t kEndianBig = 3;

template <class T>
T load(const std::string& bytes, size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(v));
  return v;
}

bool native_order(uint8_t flags) {
  const uint16_t one = 1;
  const bool little = *reinterpret_cast<const uint8_t*>(&one) == 1;
  return flags == 0 || flags == (little ? kEndianLittle : kEndianBig);
}

// The NUL-terminated string at `offset` from `base`, or "" when it leaves the bytes.
std::string string_at(const std::string& bytes, size_t base, uint32_t offset) {
  const size_t at = base + offset;
  if (offset >= bytes.size() || at >= bytes.size()) return "";
  const void* end = std::memchr(bytes.data() + at, '\0', bytes.size() - at);
  if (end == nullptr) return "";
  return std::string(bytes.data() + at, static_cast<const char*>(end) - (bytes.data() + at));
}

}  // namespace

std::vector<std::string> ld_so_cache_lookup(const std::string& cache, const std::string& soname) {
  std::vector<std::string> out;
  const size_t base = cache.find(std::string(kMagic, kMagicSize));
  if (base == std::string::npos || cache.size() - base < kHeaderSize || soname.empty()) {
    return out;
  }
  const uint32_t nlibs = load<uint32_t>(cache, base + kMagicSize);
  if (!native_order(load<uint8_t>(cache, base + kMagicSize + 8))) return out;
  const size_t room = (cache.size() - base - kHeaderSize) / kEntrySize;
  for (size_t i = 0; i < nlibs && i < room; ++i) {
    const size_t e = base + kHeaderSize + i * kEntrySize;
    if (load<uint64_t>(cache, e + 16) != 0) continue;  // a hwcap-specific build
    if (string_at(cache, base, load<uint32_t>(cache, e + 4)) != soname) continue;
    const std::string path = string_at(cache, base, load<uint32_t>(cache, e + 8));
    if (is_absolute(path)) out.push_back(path);
  }
  return out;
}

std::vector<std::string> system_ld_so_cache_paths(const std::string& soname) {
  const FileFacts facts = inspect_file("/etc/ld.so.cache");  // may be a symbolic link
  if (facts.real.empty() || !facts.not_regular.empty()) return {};
  const FileText f = read_regular_file(facts.real, kMaxCacheBytes, &facts.identity);
  if (!f.error.empty()) return {};
  return ld_so_cache_lookup(f.text, soname);
}

}  // namespace kf::os

#endif  // !_WIN32
