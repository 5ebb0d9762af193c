#include "core/dtype.hpp"

#include <cstring>
#include <string>

namespace kf {
namespace {

// Note [Promotion by rule]: the promotion table is computed at compile time from each dtype's kind
// and bytes, so a new line of KF_DTYPE_LIST promotes without a new row here. PyTorch's rules
// (the array API standard's table where it has one):
//  - bool is below every other dtype;
//  - integers: the wider of two with the same signedness; a signed and an unsigned one give
//    the signed one when it is wider, else the signed one twice as wide as the unsigned one
//    (uint8 with int8 is int16), and none when there is no such dtype;
//  - an integer with a float or complex gives the float or complex dtype unchanged;
//  - two floats: the wider; two of the same width (float16, bfloat16) give the next wider
//    ordinary float (float32);
//  - complex with a float or complex: the complex dtype whose parts are as wide as the wider
//    of the two operands' parts.
// tests/unit/test_dtype.cpp holds the rule to PyTorch's table, pair by pair.

/// The ordinary (not brain) dtype of `kind` and `bytes`, or KF_DTYPE_UNDEFINED.
constexpr kf_dtype_t dtype_of(char kind, unsigned bytes) {
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (dtype_kind(d) == kind && dtype_bytes(d) == bytes && !is_brain_float(d)) {
      return static_cast<kf_dtype_t>(d);
    }
  }
  return KF_DTYPE_UNDEFINED;
}

constexpr unsigned wider(unsigned x, unsigned y) { return x > y ? x : y; }

constexpr kf_dtype_t promote_integers(kf_dtype_t a, kf_dtype_t b) {
  const char ka = dtype_kind(a), kb = dtype_kind(b);
  const unsigned ba = dtype_bytes(a), bb = dtype_bytes(b);
  if (ka == kb) return ba >= bb ? a : b;
  const kf_dtype_t s = ka == 'i' ? a : b, u = ka == 'i' ? b : a;
  if (dtype_bytes(s) > dtype_bytes(u)) return s;
  return dtype_of('i', 2 * dtype_bytes(u));
}

constexpr kf_dtype_t promote_rule(kf_dtype_t a, kf_dtype_t b) {
  if (a == b) return a;
  const char ka = dtype_kind(a), kb = dtype_kind(b);
  if (ka == 'b') return b;
  if (kb == 'b') return a;
  const bool ia = is_integer_dtype(a), ib = is_integer_dtype(b);
  if (ia && ib) return promote_integers(a, b);
  if (ia) return b;
  if (ib) return a;
  const unsigned pa = ka == 'c' ? dtype_bytes(a) / 2 : dtype_bytes(a);  // bytes of one part
  const unsigned pb = kb == 'c' ? dtype_bytes(b) / 2 : dtype_bytes(b);
  if (ka == 'c' || kb == 'c') return dtype_of('c', 2 * wider(wider(pa, pb), 4));
  if (pa == pb) return dtype_of('f', 4);  // float16 with bfloat16
  return pa > pb ? a : b;
}

struct PromoteTable {
  kf_dtype_t to[KF_DTYPE_COUNT][KF_DTYPE_COUNT] = {};
  constexpr PromoteTable() {
    for (int a = 0; a < KF_DTYPE_COUNT; ++a) {
      for (int b = 0; b < KF_DTYPE_COUNT; ++b) {
        to[a][b] = promote_rule(static_cast<kf_dtype_t>(a), static_cast<kf_dtype_t>(b));
      }
    }
  }
};
constexpr PromoteTable kPromote;

struct Names {
  const char* name;
  const char* short_name;
};
constexpr Names kNames[KF_DTYPE_COUNT] = {
#define KF_DTYPE_NAMES_(suffix, value, name, short_name, bytes, kind, cpp_name) {name, short_name},
    KF_DTYPE_LIST(KF_DTYPE_NAMES_)
#undef KF_DTYPE_NAMES_
};

constexpr char kAllNames[] =
#define KF_DTYPE_JOINED_(suffix, value, name, short_name, bytes, kind, cpp_name) name ", "
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
  return kPromote.to[a][b];
}

kf_dtype_t complex_part_dtype(kf_dtype_t complex) noexcept {
  if (!is_complex_dtype(complex)) return KF_DTYPE_UNDEFINED;
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (dtype_kind(d) == 'f' && 2 * dtype_bytes(d) == dtype_bytes(complex) && !is_brain_float(d)) {
      return static_cast<kf_dtype_t>(d);
    }
  }
  return KF_DTYPE_UNDEFINED;
}

int dtype_category(kf_dtype_t d) noexcept {
  switch (dtype_kind(d)) {
    case 'b': return 0;
    case 'f': return 2;
    case 'c': return 3;
    default: return 1;
  }
}

bool can_cast(kf_dtype_t from, kf_dtype_t to) noexcept {
  return dtype_category(from) <= dtype_category(to);
}

kf_dtype_t scalar_default_dtype(const kf_scalar_t& s) noexcept {
  switch (s.tag) {
    case KF_SCALAR_BOOL: return KF_BOOL;
    case KF_SCALAR_INT64: return KF_INT64;
    case KF_SCALAR_UINT64: return KF_UINT64;
    case KF_SCALAR_COMPLEX128: return KF_COMPLEX64;
    default: return KF_FLOAT32;
  }
}

}  // namespace kf
