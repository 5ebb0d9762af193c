// The safetensors code of each dtype, derived from KF_DTYPE_LIST (Note [The safetensors format]):
// the kind's letter and the bits ("F32", "I8", "U64", "C64": complex by the bits of the pair),
// with the format's own names for bfloat16 ("BF16") and bool ("BOOL"). The format has no code
// for complex128.
#include <string>

#include "kernforge/dtypes.hpp"
#include "serialization/safetensors_format.hpp"

namespace kf::safetensors {
namespace {

/// The codes, made once from the dtype list; an empty string where the format has none.
struct Codes {
  std::string code[KF_DTYPE_COUNT];
  Codes() {
    for (int d = 0; d < KF_DTYPE_COUNT; ++d) code[d] = make(d);
  }
  static std::string make(int d) {
    if (dtype_kind(d) == 'b') return "BOOL";
    if (is_brain_float(d)) return "BF16";
    const unsigned bits = dtype_bytes(d) * 8;
    if (dtype_kind(d) == 'c' && bits > 64) return "";  // no complex128 in the format
    const char letter = static_cast<char>(dtype_kind(d) - 'a' + 'A');
    return std::string(1, letter) + std::to_string(bits);
  }
};

const Codes& codes() {
  static const Codes c;
  return c;
}

}  // namespace

const char* dtype_code(kf_dtype_t dtype) noexcept {
  if (dtype < 0 || dtype >= KF_DTYPE_COUNT) return nullptr;
  const std::string& c = codes().code[dtype];
  return c.empty() ? nullptr : c.c_str();
}

kf_dtype_t dtype_from_code(std::string_view code) noexcept {
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    const std::string& c = codes().code[d];
    if (!c.empty() && c == code) return static_cast<kf_dtype_t>(d);
  }
  return KF_DTYPE_UNDEFINED;
}

}  // namespace kf::safetensors
