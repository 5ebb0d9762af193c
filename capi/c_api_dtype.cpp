// The dtype part of the C ABI: names, sizes, parsing and promotion.
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "kernforge/kernforge.h"

extern "C" {

KF_API const char* kf_dtype_name(kf_dtype_t dtype) { return kf::dtype_name(dtype); }

KF_API size_t kf_dtype_size(kf_dtype_t dtype) { return kf::itemsize(dtype); }

KF_API kf_status_t kf_dtype_parse(const char* name, kf_dtype_t* out) {
  return kf::guard([&] {
    if (name == nullptr || out == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_dtype_parse: name and out must not be NULL");
    }
    const kf_dtype_t d = kf::dtype_from_name(name);
    if (d == KF_DTYPE_UNDEFINED) {
      kf::fail(KF_INVALID_ARGUMENT, "unknown dtype '{}'; known dtypes: {}", name,
               kf::dtype_names());
    }
    *out = d;
  });
}

KF_API kf_status_t kf_promote_types(kf_dtype_t a, kf_dtype_t b, kf_dtype_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_promote_types: out must not be NULL");
    if (!kf::is_valid_dtype(a) || !kf::is_valid_dtype(b)) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_promote_types: invalid dtype values {} and {}",
               static_cast<int>(a), static_cast<int>(b));
    }
    const kf_dtype_t r = kf::promote(a, b);
    if (r == KF_DTYPE_UNDEFINED) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_promote_types: no dtype holds both {} and {} (uint64 "
               "values reach 2^64 - 1, signed ones go below 0); cast one of them first",
               kf::dtype_name(a), kf::dtype_name(b));
    }
    *out = r;
  });
}

}  // extern "C"
