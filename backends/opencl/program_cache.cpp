// Note [Program cache] is in program_cache.hpp.
#include "program_cache.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <optional>
#include <vector>

#include "cache_entry.hpp"
#include "digest.hpp"
#include "host_store.hpp"
#include "kernforge/plugin.hpp"

namespace kf::opencl {
namespace {

std::string cache_key(const DeviceInfo& d, const std::string& source, const std::string& options) {
  return "kernforge-opencl-cache 2\n" + d.platform_name + "\n" + d.platform_version + "\n" +
         d.name + "\n" + d.version + "\n" + d.driver_version + "\n" + options + "\n" + source;
}

bool cache_on() {
  const char* off = std::getenv("KERNFORGE_OPENCL_CACHE");
  return !(off != nullptr && std::string(off) == "0") && host_has_store();
}

void log_cache(kf_log_level_t level, const std::string& message) {
  kf::plugin::log(level, "opencl", "program cache: " + message);
}

std::string build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
          CL_SUCCESS || size == 0) {
    return "";
  }
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// The entry file's name for `key`: its SHA-256 in hex, "" when it cannot be computed.
std::string entry_name(const std::string& key) {
  Digest d{};
  return sha256(key.data(), key.size(), d) ? hex(d) + ".entry" : "";
}

/// The binary the cache holds for `key`, only when its entry names it and it matches the
/// entry's size and digest; empty otherwise.
std::vector<unsigned char> read_cached(const std::string& name, const std::string& key) {
  std::vector<unsigned char> bytes;
  if (store_read(name, max_entry_bytes(key.size()), bytes) != KF_OK) return {};
  const std::optional<CacheEntry> entry = parse_entry(bytes.data(), bytes.size());
  if (!entry || entry->key != key) return {};
  const std::string binary_name = hex(entry->binary_sha256) + ".bin";
  std::vector<unsigned char> binary;
  Digest actual{};
  // A file longer than its entry says is as much a mismatch as one whose bytes differ.
  const kf_status_t read = store_read(binary_name, static_cast<size_t>(entry->binary_bytes), binary);
  if (read != KF_OK && read != KF_BUFFER_TOO_SMALL) return {};
  if (read == KF_BUFFER_TOO_SMALL || binary.size() != entry->binary_bytes ||
      !sha256(binary.data(), binary.size(), actual) || actual != entry->binary_sha256) {
    log_cache(KF_LOG_WARN, binary_name + " does not match the digest of its entry " + name +
                               " (changed or damaged); the program is built from source and "
                               "the file replaced");
    return {};
  }
  return binary;
}

/// The program's binary, empty when the driver gives none.
std::vector<unsigned char> program_binary(cl_program program) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) !=
          CL_SUCCESS || size == 0 || size > kMaxBinaryBytes) {
    return {};
  }
  std::vector<unsigned char> binary(size);
  unsigned char* p = binary.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof p, &p, nullptr) != CL_SUCCESS) return {};
  return binary;
}

/// Keeps the binary (under its digest) and then the entry that names it; whether both were.
bool write_cached(const std::string& name, const std::string& key, cl_program program) {
  CacheEntry entry;
  entry.key = key;
  const std::vector<unsigned char> binary = program_binary(program);
  if (binary.empty() || !sha256(binary.data(), binary.size(), entry.binary_sha256)) return false;
  entry.binary_bytes = binary.size();
  if (!store_write(hex(entry.binary_sha256) + ".bin", binary.data(), binary.size())) return false;
  const std::string text = format_entry(entry);
  return store_write(name, text.data(), text.size());
}

/// Zero bytes past a binary's end in the buffer the driver is given. PoCL 3.1 reads its
/// binary header before it checks the length: a 20-byte binary made it read 48 bytes past the
/// end (valgrind) and, under ASan's allocator, fault. The length passed is still the binary's.
constexpr size_t kDriverSlack = 4096;

BuildResult from_binary(cl_context context, const DeviceInfo& d,
                        const std::vector<unsigned char>& cached) {
  BuildResult r;
  std::vector<unsigned char> binary(cached.size() + kDriverSlack, 0);
  std::copy(cached.begin(), cached.end(), binary.begin());
  const unsigned char* bytes = binary.data();
  const size_t size = cached.size();
  cl_int binary_status = CL_SUCCESS;
  r.program = clCreateProgramWithBinary(context, 1, &d.device, &size, &bytes, &binary_status,
                                        &r.error);
  if (r.program == nullptr || r.error != CL_SUCCESS || binary_status != CL_SUCCESS) {
    if (r.program != nullptr) clReleaseProgram(r.program);
    r.program = nullptr;
    return r;
  }
  r.error = clBuildProgram(r.program, 1, &d.device, nullptr, nullptr, nullptr);
  if (r.error != CL_SUCCESS) {
    clReleaseProgram(r.program);
    r.program = nullptr;
  }
  r.from_cache = r.program != nullptr;
  return r;
}

BuildResult from_source(cl_context context, const DeviceInfo& d, const std::string& source,
                        const std::string& options) {
  BuildResult r;
  const char* text = source.c_str();
  const size_t length = source.size();
  r.program = clCreateProgramWithSource(context, 1, &text, &length, &r.error);
  if (r.program == nullptr || r.error != CL_SUCCESS) {
    r.program = nullptr;
    return r;
  }
  r.error = clBuildProgram(r.program, 1, &d.device, options.c_str(), nullptr, nullptr);
  if (r.error != CL_SUCCESS) {
    r.log = build_log(r.program, d.device);
    clReleaseProgram(r.program);
    r.program = nullptr;
  }
  return r;
}

/// The program from the cache, when it holds a binary for `key` that the driver takes.
std::optional<BuildResult> from_cache(cl_context context, const DeviceInfo& device,
                                      const std::string& name, const std::string& key) {
  const std::vector<unsigned char> binary = read_cached(name, key);
  if (binary.empty()) return std::nullopt;
  BuildResult cached = from_binary(context, device, binary);
  if (cached.program == nullptr) {
    log_cache(KF_LOG_INFO, "the driver refused the binary of " + name + "; rebuilt from source");
    return std::nullopt;
  }
  log_cache(KF_LOG_DEBUG, "loaded " + name);
  return cached;
}

}  // namespace

std::string cache_folder() { return cache_on() ? store_folder() : ""; }

BuildResult build_program(cl_context context, const DeviceInfo& device, const std::string& source,
                          const std::string& options) {
  std::string key, name;
  try {
    if (cache_on()) {
      key = cache_key(device, source, options);
      name = entry_name(key);
    }
    if (!name.empty()) {
      if (std::optional<BuildResult> cached = from_cache(context, device, name, key)) {
        return *cached;
      }
    }
  } catch (const std::bad_alloc&) {
    name.clear();  // no memory for the cache: build from source
  }
  BuildResult built = from_source(context, device, source, options);
  if (built.program != nullptr && !name.empty()) {
    try {
      const bool kept = write_cached(name, key, built.program);
      log_cache(KF_LOG_DEBUG, "built from source" + (kept ? ", kept as " + name : ", not kept"));
    } catch (const std::bad_alloc&) {
      // the program is built; only the cache misses it
    }
  }
  return built;
}

}  // namespace kf::opencl
