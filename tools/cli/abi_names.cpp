#include "abi_names.hpp"

namespace kf::cli {

std::string dtype_short_name(kf_dtype_t dtype) {
  switch (static_cast<int32_t>(dtype)) {
#define KF_CLI_SHORT_NAME_(suffix, value, name, short_name, bytes, kind, cpp_name) \
  case value: return short_name;
    KF_DTYPE_LIST(KF_CLI_SHORT_NAME_)
#undef KF_CLI_SHORT_NAME_
    default: return kf_dtype_name(dtype);
  }
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
