// cpu_isa.cpp — CPUID levels of this CPU and of OpenBLAS's core names (cpu_isa.hpp).
#include "cpu_isa.hpp"

#include <cctype>
#include <cstring>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define KF_CPU_X86 1
#else
#define KF_CPU_X86 0
#endif

namespace kf::cpu {
namespace {

#if KF_CPU_X86
/// CPUID leaf 7 sub-leaf `sub`: register `which` (0 eax, 1 ebx, 2 ecx, 3 edx); 0 when absent.
uint32_t leaf7(unsigned sub, int which) {
  unsigned r[4] = {0, 0, 0, 0};
  if (__get_cpuid_max(0, nullptr) < 7) return 0;
  __cpuid_count(7, sub, r[0], r[1], r[2], r[3]);
  return r[which];
}

Isa detect() {
  __builtin_cpu_init();
  // __builtin_cpu_supports also checks that the OS saves the registers (XCR0).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    const bool amx = (leaf7(0, 3) >> 22) & 1u;   // AMX-BF16
    const bool bf16 = (leaf7(1, 0) >> 5) & 1u;   // AVX512_BF16
    if (amx) return Isa::kAmx;
    return bf16 ? Isa::kAvx512Bf16 : Isa::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::kAvx2;
  if (__builtin_cpu_supports("avx")) return Isa::kAvx;
  if (__builtin_cpu_supports("sse3")) return Isa::kSse3;
  return Isa::kGeneric;
}
#else
Isa detect() { return Isa::kGeneric; }
#endif

bool same_name(const char* a, const char* b) {
  for (; *a != '\0' && *b != '\0'; ++a, ++b) {
    if (std::tolower(static_cast<unsigned char>(*a)) != std::tolower(static_cast<unsigned char>(*b)))
      return false;
  }
  return *a == *b;
}

struct CoreLevel {
  const char* name;
  Isa isa;
};

// OpenBLAS's x86-64 core names (DYNAMIC_ARCH) and the instruction set of their kernels.
constexpr CoreLevel kCores[] = {
    {"Prescott", Isa::kSse3},      {"Core2", Isa::kSse3},        {"Penryn", Isa::kSse3},
    {"Dunnington", Isa::kSse3},    {"Nehalem", Isa::kSse3},      {"Atom", Isa::kSse3},
    {"Opteron", Isa::kSse3},       {"Opteron(SSE3)", Isa::kSse3}, {"Barcelona", Isa::kSse3},
    {"Bobcat", Isa::kSse3},        {"Sandybridge", Isa::kAvx},   {"Bulldozer", Isa::kAvx},
    {"Piledriver", Isa::kAvx},     {"Steamroller", Isa::kAvx},   {"Excavator", Isa::kAvx2},
    {"Haswell", Isa::kAvx2},       {"Zen", Isa::kAvx2},          {"SkylakeX", Isa::kAvx512},
    {"Cooperlake", Isa::kAvx512Bf16}, {"SapphireRapids", Isa::kAmx},
};

}  // namespace

Isa cpu_isa() {
  static const Isa isa = detect();
  return isa;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::kSse3: return "SSE3";
    case Isa::kAvx: return "AVX";
    case Isa::kAvx2: return "AVX2";
    case Isa::kAvx512: return "AVX-512";
    case Isa::kAvx512Bf16: return "AVX-512 BF16";
    case Isa::kAmx: return "AMX";
    default: return "generic";
  }
}

Isa openblas_core_isa(const char* core_name) {
  if (core_name == nullptr) return Isa::kGeneric;
  for (const CoreLevel& c : kCores) {
    if (same_name(c.name, core_name)) return c.isa;
  }
  return Isa::kGeneric;
}

}  // namespace kf::cpu
