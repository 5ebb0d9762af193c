#include "abi_names.hpp"

#include <string_view>

namespace kf::cli {

const char* backend_state_name(int32_t state) {
  switch (state) {
    case KF_BACKEND_LOADED: return "loaded";
    case KF_BACKEND_UNAVAILABLE: return "unavailable";
    case KF_BACKEND_REJECTED: return "rejected";
    case KF_BACKEND_SHADOWED: return "shadowed";
    default: return "unknown";
  }
}

const char* kernel_kind_name(int32_t kind) {
  switch (kind) {
    case KF_KERNEL_BACKEND: return "backend";
    case KF_KERNEL_COMPOSITE: return "composite";
    case KF_KERNEL_VIEW: return "view";
    case KF_KERNEL_FALLBACK: return "fallback";
    case KF_KERNEL_NONE: return "none";
    default: return "unknown";
  }
}

std::string dtype_short_name(kf_dtype_t dtype) {
  const std::string name = kf_dtype_name(dtype);
  // Longest prefixes first: "bfloat" before "float", "uint" before "int".
  static constexpr std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"bfloat", "bf"}, {"float", "f"}, {"uint", "u"}, {"int", "i"}};
  for (const auto& [prefix, short_prefix] : kPrefixes) {
    if (name.compare(0, prefix.size(), prefix) == 0 && name.size() > prefix.size()) {
      return std::string(short_prefix) + name.substr(prefix.size());
    }
  }
  return name;
}

std::vector<std::string> dtype_short_names(uint32_t mask) {
  std::vector<std::string> names;
  for (int d = 0; d < KF_DTYPE_COUNT && d < 32; ++d) {
    if (mask & (1u << d)) names.push_back(dtype_short_name(static_cast<kf_dtype_t>(d)));
  }
  return names;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

}  // namespace kf::cli
