// kernforge/dtypes.hpp — the C++ side of KF_DTYPE_LIST (kernforge/types.h), for plugins, the core
// and the C++ frontend alike: each dtype's bytes, kind and element type, the dtype masks by kind,
// and a loop over every dtype. All of it is derived from the list; nothing here names a dtype
// except the two 16-bit floats, whose bytes and kind do not tell them apart. A new dtype is one
// line of KF_DTYPE_LIST plus its kernels: its element type follows from its kind and bytes (an
// 'i' of 4 bytes is int32_t, a 'c' of 8 bytes std::complex<float>), and the static_asserts at the
// end fail the build of every plugin when a line has no element type or its type has the wrong
// size. Header-only, constexpr throughout (usable in CUDA device code with
// --expt-relaxed-constexpr).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernforge/types.h"

namespace kf {

/// IEEE 754 binary16 stored as its bits. No arithmetic: kernels convert it to float.
struct Half {
  uint16_t bits;
};

/// bfloat16 (the upper half of a float32) stored as its bits. No arithmetic either.
struct BFloat16 {
  uint16_t bits;
};

namespace dtype_detail {

constexpr bool same_text(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

/// The element type of a dtype by its kind and bytes (void where there is none).
template <char Kind, unsigned Bytes, bool Brain>
struct ByKind {
  using type = void;
};
template <> struct ByKind<'b', 1, false> { using type = bool; };
template <> struct ByKind<'i', 1, false> { using type = int8_t; };
template <> struct ByKind<'i', 2, false> { using type = int16_t; };
template <> struct ByKind<'i', 4, false> { using type = int32_t; };
template <> struct ByKind<'i', 8, false> { using type = int64_t; };
template <> struct ByKind<'u', 1, false> { using type = uint8_t; };
template <> struct ByKind<'u', 2, false> { using type = uint16_t; };
template <> struct ByKind<'u', 4, false> { using type = uint32_t; };
template <> struct ByKind<'u', 8, false> { using type = uint64_t; };
template <> struct ByKind<'f', 2, false> { using type = Half; };
template <> struct ByKind<'f', 2, true> { using type = BFloat16; };
template <> struct ByKind<'f', 4, false> { using type = float; };
template <> struct ByKind<'f', 8, false> { using type = double; };
template <> struct ByKind<'c', 8, false> { using type = std::complex<float>; };
template <> struct ByKind<'c', 16, false> { using type = std::complex<double>; };

}  // namespace dtype_detail

// Switches over the list, not tables, so that CUDA device code may call them too; a value used
// twice in the list is a duplicate case, a compile error.
/// Bytes per element of `d` (0 when it is not a dtype).
constexpr unsigned dtype_bytes(int d) {
  switch (d) {
#define KF_DTYPE_BYTES_(suffix, value, name, short_name, bytes, kind, cpp_name) case value: return bytes;
    KF_DTYPE_LIST(KF_DTYPE_BYTES_)
#undef KF_DTYPE_BYTES_
    default: return 0u;
  }
}
/// 'f' (floating point), 'c' (complex), 'i' (signed), 'u' (unsigned) or 'b' (bool); 0 when `d`
/// is not a dtype.
constexpr char dtype_kind(int d) {
  switch (d) {
#define KF_DTYPE_KIND_(suffix, value, name, short_name, bytes, kind, cpp_name) case value: return kind;
    KF_DTYPE_LIST(KF_DTYPE_KIND_)
#undef KF_DTYPE_KIND_
    default: return 0;
  }
}
/// "float32", ... (the list's name), or "undefined".
constexpr const char* dtype_text(int d) {
  switch (d) {
#define KF_DTYPE_TEXT_(suffix, value, name, short_name, bytes, kind, cpp_name) case value: return name;
    KF_DTYPE_LIST(KF_DTYPE_TEXT_)
#undef KF_DTYPE_TEXT_
    default: return "undefined";
  }
}
/// bfloat16 and its kin: the one fact bytes and kind do not give (a float of the brain format).
constexpr bool is_brain_float(int d) {
  return dtype_kind(d) == 'f' && dtype_detail::same_text(dtype_text(d), "bfloat16");
}

constexpr bool is_floating_dtype(int d) { return dtype_kind(d) == 'f'; }
constexpr bool is_complex_dtype(int d) { return dtype_kind(d) == 'c'; }
/// Signed or unsigned integer (not bool).
constexpr bool is_integer_dtype(int d) { return dtype_kind(d) == 'i' || dtype_kind(d) == 'u'; }

/// The bit of `d` in a dtype mask.
constexpr uint32_t dtype_bit(int d) { return 1u << static_cast<uint32_t>(d); }

/// The mask of every dtype for which `pred(d)` holds.
template <class Pred>
constexpr uint32_t dtype_mask_where(Pred pred) {
  uint32_t mask = 0;
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (pred(d)) mask |= dtype_bit(d);
  }
  return mask;
}

// The dtype masks by kind, shared by kernels' registrations and their dispatch.
/// Real floating point dtypes, the 16-bit ones included.
constexpr uint32_t kFloatDtypes = dtype_mask_where([](int d) { return is_floating_dtype(d); });
/// The 16-bit floats, which compute in float.
constexpr uint32_t kHalfDtypes =
    dtype_mask_where([](int d) { return is_floating_dtype(d) && dtype_bytes(d) == 2; });
/// Complex dtypes.
constexpr uint32_t kComplexDtypes = dtype_mask_where([](int d) { return is_complex_dtype(d); });
/// Signed and unsigned integers (not bool).
constexpr uint32_t kIntDtypes = dtype_mask_where([](int d) { return is_integer_dtype(d); });
/// Unsigned integers.
constexpr uint32_t kUnsignedDtypes = dtype_mask_where([](int d) { return dtype_kind(d) == 'u'; });
/// Every real number type: floats and integers, not bool, not complex.
constexpr uint32_t kRealDtypes = kFloatDtypes | kIntDtypes;
/// Every number type: kRealDtypes and the complex ones.
constexpr uint32_t kNumericDtypes = kRealDtypes | kComplexDtypes;
/// Every dtype.
constexpr uint32_t kAllDtypes = dtype_mask_where([](int d) { return dtype_kind(d) != 0; });

/// The element type of dtype D as memory holds it (Half and BFloat16 for the 16-bit floats).
template <int D>
using element_t = typename dtype_detail::ByKind<dtype_kind(D), dtype_bytes(D),
                                                is_brain_float(D)>::type;

/// A dtype as a type, for the generic lambdas of a dispatch: tag.kDtype and tag's ::type.
template <int D, class T = element_t<D>>
struct DtypeTag {
  static constexpr int kDtype = D;
  using type = T;
};

/// Calls f(DtypeTag<D>{}) for every dtype D of KF_DTYPE_LIST, in the list's order.
template <class F>
constexpr void for_each_dtype(F&& f) {
#define KF_DTYPE_VISIT_(suffix, value, name, short_name, bytes, kind, cpp_name) f(DtypeTag<KF_##suffix>{});
  KF_DTYPE_LIST(KF_DTYPE_VISIT_)
#undef KF_DTYPE_VISIT_
}

// The list and its facts agree: every dtype's value is its place in the list (the enum counts
// the lines; a repeated value is a duplicate case above), a mask has a bit for each, and each
// has an element type of its size.
static_assert(KF_DTYPE_COUNT <= 32, "a dtype mask is 32 bits: widen the masks before this dtype");
#define KF_DTYPE_CHECK_(suffix, value, name, short_name, bytes, kind, cpp_name)                            \
  static_assert(KF_##suffix == value && value >= 0 && value < KF_DTYPE_COUNT,                \
                "KF_DTYPE_LIST: " name "'s value is not its place in the list");             \
  static_assert(!std::is_void_v<element_t<KF_##suffix>>,                                     \
                "KF_DTYPE_LIST: " name " has no element type (kernforge/dtypes.hpp, ByKind)"); \
  static_assert(sizeof(element_t<KF_##suffix>) == bytes,                                     \
                "KF_DTYPE_LIST: " name "'s element type is not " #bytes " bytes");
KF_DTYPE_LIST(KF_DTYPE_CHECK_)
#undef KF_DTYPE_CHECK_

}  // namespace kf
