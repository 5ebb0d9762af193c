// The program families: names, embedded sources, build options, the dtypes they serve.
#include <string>

#include "clkernels/kernels.hpp"
#include "kernforge/dtypes.hpp"

namespace kf::clk {

const char* family_source_by_name(const char* name) noexcept;  // generated (embed_sources.cmake)

const char* family_name(Family family) noexcept {
  switch (family) {
    case Family::Copy: return "copy";
    case Family::Fill: return "fill";
    case Family::Binary: return "binary";
    case Family::Unary: return "unary";
    case Family::Reduce: return "reduce";
    case Family::Linalg: return "linalg";
    case Family::Softmax: return "softmax";
    case Family::Index: return "index";
    case Family::Scan: return "scan";
    case Family::Sort: return "sort";
    case Family::Count: break;
  }
  return "unknown";
}

const char* family_source(Family family) noexcept {
  return family_source_by_name(family_name(family));
}

std::string build_options(ProgramKey key, const Capabilities& caps) {
  return "-cl-std=CL1.2 -DKF_DT=" + std::to_string(key.dtype) +
         " -DKF_HAS_FP64=" + (caps.fp64 ? "1" : "0");
}

uint32_t supported_dtypes(const Capabilities& caps, bool with_complex) noexcept {
  uint32_t mask = with_complex ? kf::kAllDtypes : kf::kAllDtypes & ~kf::kComplexDtypes;
  if (!caps.fp64) mask &= ~((1u << KF_FLOAT64) | (1u << KF_COMPLEX128));
  return mask;
}

}  // namespace kf::clk
