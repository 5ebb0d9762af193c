// Dtype facts, PyTorch's type promotion and can_cast, and the dtype names of the C ABI.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/dtype.hpp"
#include "kernforge/dtypes.hpp"
#include "kernforge/kernforge.h"

namespace {

// ---------------------------------------------------------------------------- promote_types

// torch.promote_types(a, b), written out from PyTorch (c10/core/ScalarType.cpp,
// _promoteTypesLookup) in PyTorch's own order u8 i8 i16 i32 i64 f16 f32 f64 bool bf16, so it
// does not share a layout with kernforge's table (which is in kernforge's dtype order).
constexpr kf_dtype_t u1 = KF_UINT8, i1 = KF_INT8, i2 = KF_INT16, i4 = KF_INT32, i8 = KF_INT64,
                     f2 = KF_FLOAT16, f4 = KF_FLOAT32, f8 = KF_FLOAT64, b1 = KF_BOOL,
                     bf = KF_BFLOAT16;
constexpr kf_dtype_t kTorchOrder[10] = {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf};
constexpr kf_dtype_t kTorchPromote[10][10] = {
    /*         u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
};

TEST(Promote, MatchesPyTorchPromoteTypesForEveryPair) {
  for (int a = 0; a < 10; ++a) {
    for (int b = 0; b < 10; ++b) {
      const kf_dtype_t x = kTorchOrder[a], y = kTorchOrder[b];
      EXPECT_EQ(kf::promote(x, y), kTorchPromote[a][b])
          << "promote(" << kf::dtype_name(x) << ", " << kf::dtype_name(y) << ") is "
          << kf::dtype_name(kf::promote(x, y)) << ", PyTorch gives "
          << kf::dtype_name(kTorchPromote[a][b]);
    }
  }
}

TEST(Promote, IsSymmetricAndIdempotent) {
  for (int a = 0; a < KF_DTYPE_COUNT; ++a) {
    const auto x = static_cast<kf_dtype_t>(a);
    EXPECT_EQ(kf::promote(x, x), x) << kf::dtype_name(x);
    for (int b = 0; b < KF_DTYPE_COUNT; ++b) {
      const auto y = static_cast<kf_dtype_t>(b);
      EXPECT_EQ(kf::promote(x, y), kf::promote(y, x))
          << kf::dtype_name(x) << " vs " << kf::dtype_name(y);
    }
  }
}

TEST(Promote, BoolInt8Uint8Corners) {
  EXPECT_EQ(kf::promote(KF_UINT8, KF_INT8), KF_INT16);    // neither holds the other
  EXPECT_EQ(kf::promote(KF_INT8, KF_UINT8), KF_INT16);
  EXPECT_EQ(kf::promote(KF_BOOL, KF_UINT8), KF_UINT8);    // bool is below every other type
  EXPECT_EQ(kf::promote(KF_BOOL, KF_INT8), KF_INT8);
  EXPECT_EQ(kf::promote(KF_BOOL, KF_BOOL), KF_BOOL);
  EXPECT_EQ(kf::promote(KF_UINT8, KF_INT16), KF_INT16);
  EXPECT_EQ(kf::promote(KF_FLOAT16, KF_BFLOAT16), KF_FLOAT32);  // neither holds the other
  EXPECT_EQ(kf::promote(KF_INT64, KF_FLOAT16), KF_FLOAT16);     // any float beats any int
  EXPECT_EQ(kf::promote(KF_INT64, KF_BFLOAT16), KF_BFLOAT16);
  EXPECT_EQ(kf::promote(KF_BOOL, KF_BFLOAT16), KF_BFLOAT16);
}

// The array API standard's promotion tables (2023.12, "Type Promotion Rules"), written out by
// hand: the integers, signed and unsigned, and the floating and complex dtypes. A blank in the
// standard's table (uint64 with a signed integer) is KF_DTYPE_UNDEFINED here.
TEST(Promote, MatchesTheArrayApiTables) {
  constexpr kf_dtype_t u2 = KF_UINT16, u4 = KF_UINT32, u8 = KF_UINT64, no = KF_DTYPE_UNDEFINED;
  const kf_dtype_t ints[8] = {i1, i2, i4, i8, u1, u2, u4, u8};
  const kf_dtype_t int_table[8][8] = {
      /*        i1  i2  i4  i8  u1  u2  u4  u8 */
      /* i1 */ {i1, i2, i4, i8, i2, i4, i8, no},
      /* i2 */ {i2, i2, i4, i8, i2, i4, i8, no},
      /* i4 */ {i4, i4, i4, i8, i4, i4, i8, no},
      /* i8 */ {i8, i8, i8, i8, i8, i8, i8, no},
      /* u1 */ {i2, i2, i4, i8, u1, u2, u4, u8},
      /* u2 */ {i4, i4, i4, i8, u2, u2, u4, u8},
      /* u4 */ {i8, i8, i8, i8, u4, u4, u4, u8},
      /* u8 */ {no, no, no, no, u8, u8, u8, u8},
  };
  constexpr kf_dtype_t c8 = KF_COMPLEX64, c16 = KF_COMPLEX128;
  const kf_dtype_t inexact[4] = {f4, f8, c8, c16};
  const kf_dtype_t inexact_table[4][4] = {
      /*         f4   f8   c8   c16 */
      /* f4 */  {f4, f8, c8, c16},
      /* f8 */  {f8, f8, c16, c16},
      /* c8 */  {c8, c16, c8, c16},
      /* c16 */ {c16, c16, c16, c16},
  };
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      EXPECT_EQ(kf::promote(ints[a], ints[b]), int_table[a][b])
          << kf::dtype_name(ints[a]) << ", " << kf::dtype_name(ints[b]);
    }
  }
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      EXPECT_EQ(kf::promote(inexact[a], inexact[b]), inexact_table[a][b])
          << kf::dtype_name(inexact[a]) << ", " << kf::dtype_name(inexact[b]);
    }
  }
  // Mixed kinds (PyTorch's rule): the float or complex operand wins, widened as needed.
  EXPECT_EQ(kf::promote(KF_UINT64, KF_FLOAT16), KF_FLOAT16);
  EXPECT_EQ(kf::promote(KF_INT32, KF_COMPLEX64), KF_COMPLEX64);
  EXPECT_EQ(kf::promote(KF_FLOAT16, KF_COMPLEX64), KF_COMPLEX64);
  EXPECT_EQ(kf::promote(KF_BFLOAT16, KF_COMPLEX128), KF_COMPLEX128);
  EXPECT_EQ(kf::promote(KF_BOOL, KF_COMPLEX64), KF_COMPLEX64);
}

TEST(Promote, UndefinedIsTheIdentity) {
  EXPECT_EQ(kf::promote(KF_DTYPE_UNDEFINED, KF_INT32), KF_INT32);
  EXPECT_EQ(kf::promote(KF_FLOAT16, KF_DTYPE_UNDEFINED), KF_FLOAT16);
}

TEST(Promote, CAbiAgreesAndRejectsInvalidDtypes) {
  kf_dtype_t out = KF_DTYPE_UNDEFINED;
  ASSERT_EQ(kf_promote_types(KF_UINT8, KF_INT8, &out), KF_OK);
  EXPECT_EQ(out, KF_INT16);
  EXPECT_EQ(kf_promote_types(static_cast<kf_dtype_t>(42), KF_INT8, &out), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("42"), std::string::npos)
      << kf_last_error_message();
  EXPECT_EQ(kf_promote_types(KF_INT8, KF_INT8, nullptr), KF_INVALID_ARGUMENT);
}

// ---------------------------------------------------------------------------------- can_cast

// torch.can_cast(from, to): no floating -> integral, no non-bool -> bool; everything else,
// narrowing within a category included, is allowed.
TEST(CanCast, MatchesPyTorch) {
  const kf_dtype_t floats[] = {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16};
  const kf_dtype_t ints[] = {KF_INT8,   KF_UINT8,  KF_INT16,  KF_INT32,
                             KF_INT64,  KF_UINT16, KF_UINT32, KF_UINT64};
  for (kf_dtype_t f : floats) {
    for (kf_dtype_t g : floats) EXPECT_TRUE(kf::can_cast(f, g)) << kf::dtype_name(f);
    for (kf_dtype_t i : ints) EXPECT_FALSE(kf::can_cast(f, i)) << kf::dtype_name(f);
    EXPECT_FALSE(kf::can_cast(f, KF_BOOL)) << kf::dtype_name(f);
    EXPECT_TRUE(kf::can_cast(KF_BOOL, f));
  }
  for (kf_dtype_t i : ints) {
    for (kf_dtype_t f : floats) EXPECT_TRUE(kf::can_cast(i, f)) << kf::dtype_name(i);
    for (kf_dtype_t j : ints) EXPECT_TRUE(kf::can_cast(i, j)) << kf::dtype_name(i);
    EXPECT_FALSE(kf::can_cast(i, KF_BOOL)) << kf::dtype_name(i);
    EXPECT_TRUE(kf::can_cast(KF_BOOL, i));
  }
  EXPECT_TRUE(kf::can_cast(KF_BOOL, KF_BOOL));
  for (kf_dtype_t c : {KF_COMPLEX64, KF_COMPLEX128}) {  // complex is above float
    EXPECT_FALSE(kf::can_cast(c, KF_FLOAT64)) << kf::dtype_name(c);
    EXPECT_TRUE(kf::can_cast(KF_FLOAT32, c)) << kf::dtype_name(c);
    EXPECT_TRUE(kf::can_cast(KF_INT64, c)) << kf::dtype_name(c);
  }
  EXPECT_TRUE(kf::can_cast(KF_INT64, KF_INT8));       // narrowing is a cast PyTorch allows
  EXPECT_TRUE(kf::can_cast(KF_FLOAT64, KF_FLOAT16));
}

// ------------------------------------------------------------------------------ dtype facts

TEST(DtypeFacts, ItemsizeAndCategories) {
  const struct {
    kf_dtype_t d;
    size_t size;
    bool floating;
    bool integral;
  } cases[] = {{KF_FLOAT32, 4, true, false}, {KF_FLOAT64, 8, true, false},
               {KF_FLOAT16, 2, true, false}, {KF_BFLOAT16, 2, true, false},
               {KF_INT8, 1, false, true},    {KF_UINT8, 1, false, true},
               {KF_INT16, 2, false, true},   {KF_INT32, 4, false, true},
               {KF_INT64, 8, false, true},   {KF_BOOL, 1, false, false},
               {KF_UINT16, 2, false, true},  {KF_UINT32, 4, false, true},
               {KF_UINT64, 8, false, true},  {KF_COMPLEX64, 8, false, false},
               {KF_COMPLEX128, 16, false, false}};
  for (const auto& c : cases) {
    EXPECT_EQ(kf::itemsize(c.d), c.size) << kf::dtype_name(c.d);
    EXPECT_EQ(kf_dtype_size(c.d), c.size) << kf::dtype_name(c.d);
    EXPECT_EQ(kf::is_floating(c.d), c.floating) << kf::dtype_name(c.d);
    EXPECT_EQ(kf::is_integral(c.d, false), c.integral) << kf::dtype_name(c.d);
  }
  EXPECT_TRUE(kf::is_integral(KF_BOOL, true));
  EXPECT_EQ(kf::itemsize(KF_DTYPE_UNDEFINED), 0u);
  EXPECT_EQ(kf::itemsize(static_cast<kf_dtype_t>(KF_DTYPE_COUNT)), 0u);
  EXPECT_FALSE(kf::is_valid_dtype(KF_DTYPE_UNDEFINED));
}

TEST(DtypeFacts, ScalarDefaultDtypes) {
  EXPECT_EQ(kf::scalar_default_dtype(kf_scalar_f64(1.5)), KF_FLOAT32);
  EXPECT_EQ(kf::scalar_default_dtype(kf_scalar_i64(7)), KF_INT64);
  EXPECT_EQ(kf::scalar_default_dtype(kf_scalar_bool(true)), KF_BOOL);
  EXPECT_EQ(kf::scalar_default_dtype(kf_scalar_u64(UINT64_MAX)), KF_UINT64);
  EXPECT_EQ(kf::scalar_default_dtype(kf_scalar_c128(1, 2)), KF_COMPLEX64);
}

// --------------------------------------------------------------------------- names, parse

TEST(DtypeNames, RoundTripLongAndShortNames) {
  const struct {
    kf_dtype_t d;
    const char* name;
    const char* short_name;
  } cases[] = {{KF_FLOAT32, "float32", "f32"}, {KF_FLOAT64, "float64", "f64"},
               {KF_FLOAT16, "float16", "f16"}, {KF_BFLOAT16, "bfloat16", "bf16"},
               {KF_INT8, "int8", "i8"},        {KF_UINT8, "uint8", "u8"},
               {KF_INT16, "int16", "i16"},     {KF_INT32, "int32", "i32"},
               {KF_INT64, "int64", "i64"},     {KF_BOOL, "bool", "bool"},
               {KF_UINT16, "uint16", "u16"},   {KF_UINT32, "uint32", "u32"},
               {KF_UINT64, "uint64", "u64"},   {KF_COMPLEX64, "complex64", "c64"},
               {KF_COMPLEX128, "complex128", "c128"}};
  for (const auto& c : cases) {
    EXPECT_STREQ(kf_dtype_name(c.d), c.name);
    kf_dtype_t got = KF_DTYPE_UNDEFINED;
    ASSERT_EQ(kf_dtype_parse(c.name, &got), KF_OK) << c.name << ": " << kf_last_error_message();
    EXPECT_EQ(got, c.d) << c.name;
    got = KF_DTYPE_UNDEFINED;
    ASSERT_EQ(kf_dtype_parse(c.short_name, &got), KF_OK) << c.short_name;
    EXPECT_EQ(got, c.d) << c.short_name;
  }
  EXPECT_STREQ(kf_dtype_name(KF_DTYPE_UNDEFINED), "undefined");
  EXPECT_STREQ(kf_dtype_name(static_cast<kf_dtype_t>(99)), "undefined");
}

TEST(DtypeNames, UnknownNameIsRejectedWithTheKnownOnes) {
  kf_dtype_t got = KF_INT32;
  for (const char* bad : {"float128", "", "Float32", "float32 ", "i"}) {
    EXPECT_EQ(kf_dtype_parse(bad, &got), KF_INVALID_ARGUMENT) << "'" << bad << "'";
    const std::string msg = kf_last_error_message();
    EXPECT_NE(msg.find(std::string("'") + bad + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("bfloat16"), std::string::npos) << msg;  // lists the known dtypes
  }
  EXPECT_EQ(got, KF_INT32);  // untouched on failure
  EXPECT_EQ(kf_dtype_parse(nullptr, &got), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_dtype_parse("f32", nullptr), KF_INVALID_ARGUMENT);
}

}  // namespace

// ------------------------------------------------------ the SDK's facts (kernforge/dtypes.hpp)

// Element types by kind and bytes, and the two 16-bit floats told apart.
static_assert(std::is_same_v<kf::element_t<KF_FLOAT32>, float>);
static_assert(std::is_same_v<kf::element_t<KF_FLOAT64>, double>);
static_assert(std::is_same_v<kf::element_t<KF_FLOAT16>, kf::Half>);
static_assert(std::is_same_v<kf::element_t<KF_BFLOAT16>, kf::BFloat16>);
static_assert(std::is_same_v<kf::element_t<KF_INT8>, int8_t>);
static_assert(std::is_same_v<kf::element_t<KF_UINT8>, uint8_t>);
static_assert(std::is_same_v<kf::element_t<KF_INT64>, int64_t>);
static_assert(std::is_same_v<kf::element_t<KF_BOOL>, bool>);
static_assert(std::is_same_v<kf::element_t<KF_UINT16>, uint16_t>);
static_assert(std::is_same_v<kf::element_t<KF_UINT32>, uint32_t>);
static_assert(std::is_same_v<kf::element_t<KF_UINT64>, uint64_t>);
static_assert(std::is_same_v<kf::element_t<KF_COMPLEX64>, std::complex<float>>);
static_assert(std::is_same_v<kf::element_t<KF_COMPLEX128>, std::complex<double>>);

// The scalar of C ABI 2.0: 24 bytes, passed by value, its payload 8-aligned after the tag.
static_assert(sizeof(kf_scalar_t) == 24);
static_assert(offsetof(kf_scalar_t, v) == 8);
static_assert(sizeof(kf_complex128_t) == 16);
static_assert(kf::is_brain_float(KF_BFLOAT16) && !kf::is_brain_float(KF_FLOAT16));

TEST(SdkDtypes, MasksFollowEachDtypesKind) {
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    const char kind = kf_dtype_kind(d);  // types.h's own reading of the list
    const uint32_t bit = kf::dtype_bit(d);
    const char* name = kf_dtype_string(d);
    EXPECT_EQ((kf::kFloatDtypes & bit) != 0, kind == 'f') << name;
    EXPECT_EQ((kf::kComplexDtypes & bit) != 0, kind == 'c') << name;
    EXPECT_EQ((kf::kIntDtypes & bit) != 0, kind == 'i' || kind == 'u') << name;
    EXPECT_EQ((kf::kUnsignedDtypes & bit) != 0, kind == 'u') << name;
    EXPECT_EQ((kf::kRealDtypes & bit) != 0, kind == 'f' || kind == 'i' || kind == 'u') << name;
    EXPECT_EQ((kf::kNumericDtypes & bit) != 0, kind != 'b') << name;
    EXPECT_EQ(kf::dtype_kind(d), kind) << name;
    EXPECT_EQ(kf::dtype_bytes(d), kf_dtype_itemsize(d)) << name;
    EXPECT_STREQ(kf::dtype_text(d), name);
  }
  EXPECT_EQ(kf::kHalfDtypes, kf::dtype_bit(KF_FLOAT16) | kf::dtype_bit(KF_BFLOAT16));
  EXPECT_EQ(kf::kAllDtypes, (uint64_t{1} << KF_DTYPE_COUNT) - 1);
  EXPECT_EQ(kf::dtype_kind(KF_DTYPE_COUNT), 0);
  EXPECT_EQ(kf::dtype_bytes(KF_DTYPE_UNDEFINED), 0u);
  EXPECT_STREQ(kf::dtype_text(-7), "undefined");
}

TEST(SdkDtypes, ForEachVisitsEveryDtypeOnceInOrderWithItsElementType) {
  std::vector<int> seen;
  kf::for_each_dtype([&](auto tag) {
    using T = typename decltype(tag)::type;
    EXPECT_EQ(sizeof(T), kf::dtype_bytes(tag.kDtype)) << kf::dtype_text(tag.kDtype);
    seen.push_back(tag.kDtype);
  });
  ASSERT_EQ(seen.size(), static_cast<size_t>(KF_DTYPE_COUNT));
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) EXPECT_EQ(seen[d], d);
}

TEST(Promote, IntegersWithFloatsAndBoolFollowTheRuleForEveryPair) {
  // The rule of Note [Promotion by rule], restated over kinds for the pairs of mixed kinds.
  for (int a = 0; a < KF_DTYPE_COUNT; ++a) {
    for (int b = 0; b < KF_DTYPE_COUNT; ++b) {
      const auto x = static_cast<kf_dtype_t>(a), y = static_cast<kf_dtype_t>(b);
      const kf_dtype_t r = kf::promote(x, y);
      if (kf::dtype_kind(a) == 'b') {
        EXPECT_EQ(r, y);
      }
      if (kf::is_integer_dtype(a) && kf::is_floating_dtype(b)) {
        EXPECT_EQ(r, y);
      }
      const bool u64_with_signed = (x == KF_UINT64 && kf::dtype_kind(b) == 'i') ||
                                   (y == KF_UINT64 && kf::dtype_kind(a) == 'i');
      if (kf::is_integer_dtype(a) && kf::is_integer_dtype(b) && !u64_with_signed) {
        EXPECT_TRUE(kf::is_integer_dtype(r)) << kf::dtype_name(x) << ", " << kf::dtype_name(y);
        EXPECT_GE(kf::dtype_bytes(r), std::max(kf::dtype_bytes(a), kf::dtype_bytes(b)));
      }
      if (u64_with_signed) {
        EXPECT_EQ(r, KF_DTYPE_UNDEFINED) << kf::dtype_name(x) << ", " << kf::dtype_name(y);
      }
      if (kf::is_integer_dtype(a) && kf::is_complex_dtype(b)) {
        EXPECT_EQ(r, y);
      }
    }
  }
}
