#include "core/dtype.hpp"

#include <cstring>
#include <string>

namespace kf {
namespace {

// PyTorch's promotion lattice over kernforge's dtype order:
// f32 f64 f16 bf16 i8 u8 i16 i32 i64 bool
constexpr kf_dtype_t f4 = KF_FLOAT32, f8 = KF_FLOAT64, f2 = KF_FLOAT16, bf = KF_BFLOAT16,
                     i1 = KF_INT8, u1 = KF_UINT8, i2 = KF_INT16, i4 = KF_INT32, i8 = KF_INT64,
                     b1 = KF_BOOL;
constexpr kf_dtype_t kPromote[KF_DTYPE_COUNT][KF_DTYPE_COUNT] = {
    /* f32  */ {f4, f8, f4, f4, f4, f4, f4, f4, f4, f4},
    /* f64  */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* f16  */ {f4, f8, f2, f4, f2, f2, f2, f2, f2, f2},
    /* bf16 */ {f4, f8, f4, bf, bf, bf, bf, bf, bf, bf},
    /* i8   */ {f4, f8, f2, bf, i1, i2, i2, i4, i8, i1},
    /* u8   */ {f4, f8, f2, bf, i2, u1, i2, i4, i8, u1},
    /* i16  */ {f4, f8, f2, bf, i2, i2, i2, i4, i8, i2},
    /* i32  */ {f4, f8, f2, bf, i4, i4, i4, i4, i8, i4},
    /* i64  */ {f4, f8, f2, bf, i8, i8, i8, i8, i8, i8},
    /* bool */ {f4, f8, f2, bf, i1, u1, i2, i4, i8, b1}};

struct Names {
  const char* name;
  const char* short_name;
};
constexpr Names kNames[KF_DTYPE_COUNT] = {
#define KF_DTYPE_NAMES_(suffix, value, name, short_name, bytes, kind) {name, short_name},
    KF_DTYPE_LIST(KF_DTYPE_NAMES_)
#undef KF_DTYPE_NAMES_
};

constexpr char kAllNames[] =
#define KF_DTYPE_JOINED_(suffix, value, name, short_name, bytes, kind) name ", "
    KF_DTYPE_LIST(KF_DTYPE_JOINED_)
#undef KF_DTYPE_JOINED_
    ;

}  // namespace

kf_dtype_t dtype_from_name(const char* name) noexcept {
  if (name == nullptr) return KF_DTYPE_UNDEFINED;
  for (int i = 0; i < KF_DTYPE_COUNT; ++i) {
    if (std::strcmp(name, kNames[i].name) == 0 || std::strcmp(name, kNames[i].short_name) == 0) {
      return static_cast<kf_dtype_t>(i);
    }
  }
  return KF_DTYPE_UNDEFINED;
}

const char* dtype_names() noexcept {
  // Without the trailing ", " of the last entry. Static storage, not a std::string: a noexcept
  // function must not be able to run out of memory.
  struct Joined {
    char text[sizeof(kAllNames) - 2] = {};
    Joined() noexcept {
      for (size_t i = 0; i + 1 < sizeof(text); ++i) text[i] = kAllNames[i];
    }
  };
  static const Joined joined;
  return joined.text;
}

kf_dtype_t promote(kf_dtype_t a, kf_dtype_t b) noexcept {
  if (!is_valid_dtype(a)) return b;
  if (!is_valid_dtype(b)) return a;
  return kPromote[a][b];
}

int dtype_category(kf_dtype_t d) noexcept {
  if (d == KF_BOOL) return 0;
  return is_floating(d) ? 2 : 1;
}

bool can_cast(kf_dtype_t from, kf_dtype_t to) noexcept {
  return dtype_category(from) <= dtype_category(to);
}

kf_dtype_t scalar_default_dtype(const kf_scalar_t& s) noexcept {
  if (s.tag == KF_SCALAR_BOOL) return KF_BOOL;
  if (s.tag == KF_SCALAR_INT64) return KF_INT64;
  return KF_FLOAT32;
}

}  // namespace kf
