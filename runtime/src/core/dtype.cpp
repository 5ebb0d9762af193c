#include "core/dtype.hpp"

#include <cstring>
#include <string>

#include "core/error.hpp"
#include "kernforge/kernforge.h"

namespace kf {
namespace {

struct DtypeInfo {
  const char* name;
  const char* short_name;
  size_t size;
};

constexpr DtypeInfo kInfo[KF_DTYPE_COUNT] = {
    {"float32", "f32", 4}, {"float64", "f64", 8}, {"float16", "f16", 2},
    {"bfloat16", "bf16", 2}, {"int8", "i8", 1},    {"uint8", "u8", 1},
    {"int16", "i16", 2},   {"int32", "i32", 4},   {"int64", "i64", 8},
    {"bool", "bool", 1}};

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

}  // namespace

bool is_valid_dtype(kf_dtype_t d) noexcept { return d >= 0 && d < KF_DTYPE_COUNT; }

bool is_floating(kf_dtype_t d) noexcept {
  return d == KF_FLOAT32 || d == KF_FLOAT64 || d == KF_FLOAT16 || d == KF_BFLOAT16;
}

bool is_integral(kf_dtype_t d, bool include_bool) noexcept {
  if (d == KF_BOOL) return include_bool;
  return d == KF_INT8 || d == KF_UINT8 || d == KF_INT16 || d == KF_INT32 || d == KF_INT64;
}

const char* dtype_name(kf_dtype_t d) noexcept {
  return is_valid_dtype(d) ? kInfo[d].name : "undefined";
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

extern "C" {

KF_API const char* kf_dtype_name(kf_dtype_t dtype) { return kf::dtype_name(dtype); }

KF_API size_t kf_dtype_size(kf_dtype_t dtype) { return kf::itemsize(dtype); }

KF_API kf_status_t kf_dtype_parse(const char* name, kf_dtype_t* out) {
  return kf::guard([&] {
    if (name == nullptr || out == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_dtype_parse: name and out must not be NULL");
    }
    for (int i = 0; i < KF_DTYPE_COUNT; ++i) {
      if (std::strcmp(name, kf::kInfo[i].name) == 0 ||
          std::strcmp(name, kf::kInfo[i].short_name) == 0) {
        *out = static_cast<kf_dtype_t>(i);
        return;
      }
    }
    std::string known;
    for (const auto& info : kf::kInfo) known += std::string(known.empty() ? "" : ", ") + info.name;
    kf::fail(KF_INVALID_ARGUMENT, "unknown dtype '{}'; known dtypes: {}", name, known);
  });
}

KF_API kf_status_t kf_promote_types(kf_dtype_t a, kf_dtype_t b, kf_dtype_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_promote_types: out must not be NULL");
    if (!kf::is_valid_dtype(a) || !kf::is_valid_dtype(b)) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_promote_types: invalid dtype values {} and {}",
               static_cast<int>(a), static_cast<int>(b));
    }
    *out = kf::promote(a, b);
  });
}

}  // extern "C"
