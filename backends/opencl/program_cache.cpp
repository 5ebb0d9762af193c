// Note [Program cache] is in program_cache.hpp.
#include "program_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "cl_status.hpp"

namespace kf::opencl {
namespace {

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string cache_key(const DeviceInfo& d, const std::string& source, const std::string& options) {
  return "kernforge-opencl-cache 1\n" + d.platform_name + "\n" + d.platform_version + "\n" +
         d.name + "\n" + d.version + "\n" + d.driver_version + "\n" + options + "\n" + source;
}

bool make_folders(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') continue;
    const std::string part = path.substr(0, i);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
  }
  return true;
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

/// The cached binary of `key`, empty when there is none (or it belongs to another key).
std::vector<unsigned char> read_cached(const std::string& file, const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  if (bytes.size() <= key.size() + 1 || std::string(bytes.begin(), bytes.begin() +
                                                    static_cast<long>(key.size())) != key ||
      bytes[key.size()] != '\0') {
    return {};
  }
  return std::vector<unsigned char>(bytes.begin() + static_cast<long>(key.size()) + 1,
                                    bytes.end());
}

void write_cached(const std::string& folder, const std::string& file, const std::string& key,
                  cl_program program) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) !=
          CL_SUCCESS || size == 0 || !make_folders(folder)) {
    return;
  }
  std::vector<unsigned char> binary(size);
  unsigned char* p = binary.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof p, &p, nullptr) != CL_SUCCESS) return;
  const std::string temp = file + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    out.put('\0');
    out.write(reinterpret_cast<const char*>(binary.data()),
              static_cast<std::streamsize>(binary.size()));
    if (!out) {
      std::remove(temp.c_str());
      return;
    }
  }
  if (std::rename(temp.c_str(), file.c_str()) != 0) std::remove(temp.c_str());
}

BuildResult from_binary(cl_context context, const DeviceInfo& d,
                        const std::vector<unsigned char>& binary) {
  BuildResult r;
  const unsigned char* bytes = binary.data();
  const size_t size = binary.size();
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

}  // namespace

std::string cache_folder() {
  const char* off = std::getenv("KERNFORGE_OPENCL_CACHE");
  if (off != nullptr && std::string(off) == "0") return "";
  if (const char* dir = std::getenv("KERNFORGE_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    return std::string(dir) + "/opencl";
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return std::string(xdg) + "/kernforge/opencl";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/') {
    return std::string(home) + "/.cache/kernforge/opencl";
  }
  return "";
}

BuildResult build_program(cl_context context, const DeviceInfo& device, const std::string& source,
                          const std::string& options) {
  const std::string folder = cache_folder();
  const std::string key = cache_key(device, source, options);
  char name[32];
  std::snprintf(name, sizeof name, "/%016llx.bin",
                static_cast<unsigned long long>(fnv1a(key)));
  const std::string file = folder.empty() ? "" : folder + name;
  if (!file.empty()) {
    const std::vector<unsigned char> binary = read_cached(file, key);
    if (!binary.empty()) {
      BuildResult cached = from_binary(context, device, binary);
      if (cached.program != nullptr) return cached;
    }
  }
  BuildResult built = from_source(context, device, source, options);
  if (built.program != nullptr && !file.empty()) write_cached(folder, file, key, built.program);
  return built;
}

}  // namespace kf::opencl
