#include "loader/requirements.hpp"

namespace kf {
namespace {

const char* this_os() {
#if defined(__linux__)
  return "linux";
#elif defined(_WIN32)
  return "windows";
#elif defined(__APPLE__)
  return "macos";
#else
  return "unknown";
#endif
}

const char* this_arch() {
#if defined(__x86_64__) || defined(_M_X64)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

// __builtin_cpu_supports checks CPUID and the OS's XSAVE support for the register state.
bool cpu_has(const std::string& f) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (f == "sse4_2") return __builtin_cpu_supports("sse4.2");
  if (f == "avx") return __builtin_cpu_supports("avx");
  if (f == "avx2") return __builtin_cpu_supports("avx2");
  if (f == "fma") return __builtin_cpu_supports("fma");
  if (f == "avx512f") return __builtin_cpu_supports("avx512f");
  if (f == "avx512bw") return __builtin_cpu_supports("avx512bw");
  if (f == "avx512vl") return __builtin_cpu_supports("avx512vl");
#endif
  return false;
}

}  // namespace

std::string unmet_requirements(const Manifest& m) {
  if (!m.requires_os.empty() && m.requires_os != this_os()) {
    return "requires OS " + m.requires_os + ", this is " + this_os();
  }
  if (!m.requires_arch.empty() && m.requires_arch != this_arch()) {
    return "requires architecture " + m.requires_arch + ", this is " + this_arch();
  }
  for (const std::string& f : m.cpu_features) {
    if (!cpu_has(f)) return "requires CPU feature " + f + ", which this CPU or OS lacks";
  }
  return "";
}

}  // namespace kf
