// cpu_isa.hpp — the instruction-set levels that matter for GEMM, for this CPU and for what a
// GEMM library runs on it.
//
// The levels are ordered: a library whose kernels are of a lower level than the CPU's runs
// below the machine (Debian's OpenBLAS 0.3.21 runs its Prescott (SSE3) kernels on CPUs newer
// than it knows). cpu_isa() reads CPUID once (with the OS's support for the wide registers,
// through __builtin_cpu_supports); it is thread-safe and never allocates.
#pragma once

#include <cstdint>

namespace kf::cpu {

enum class Isa : int32_t {
  kGeneric = 0,  // no vector extension we know of (or not x86)
  kSse3,         // SSE3 .. SSE4.2
  kAvx,          // AVX
  kAvx2,         // AVX2 + FMA
  kAvx512,       // AVX-512 F/BW/DQ/VL
  kAvx512Bf16,   // AVX-512 with BF16 dot products
  kAmx,          // AMX tiles (bf16/int8)
};

/// This CPU's level (with the OS's support for its registers).
Isa cpu_isa();

/// "AVX-512", "AVX2", ... for `isa`.
const char* isa_name(Isa isa);

/// The level of the kernels OpenBLAS runs for a core name (openblas_get_corename():
/// "Prescott", "Haswell", "SkylakeX", "Cooperlake", "SapphireRapids", "Zen", ...);
/// kGeneric for a name it does not know.
Isa openblas_core_isa(const char* core_name);

}  // namespace kf::cpu
