#include "tensor/layout.hpp"

#include <limits>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf {
namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

void check_dims(const int64_t* shape, int32_t ndim, const char* what) {
  if (ndim < 0 || ndim > KF_MAX_NDIM) {
    fail(KF_INVALID_ARGUMENT, "{}: ndim {} is out of range (0..{})", what, ndim, KF_MAX_NDIM);
  }
  if (ndim > 0 && shape == nullptr) {
    fail(KF_INVALID_ARGUMENT, "{}: shape is NULL but ndim is {}", what, ndim);
  }
  for (int32_t i = 0; i < ndim; ++i) {
    if (shape[i] < 0) {
      fail(KF_INVALID_ARGUMENT, "{}: size {} at dim {} of shape {} is negative", what, shape[i],
           i, shape_string(shape, ndim));
    }
  }
}

// Rule 2, once rule 1 holds: says which product broke it.
[[noreturn]] KF_COLD void fail_product(const int64_t* shape, int32_t ndim, size_t item,
                                       const char* what) {
  int64_t numel = 1, extent = 1;
  bool numel_fits = true;
  for (int32_t i = 0; i < ndim; ++i) {
    numel_fits = numel_fits && checked_mul(numel, shape[i], &numel);
    if (!checked_mul(extent, shape[i] > 1 ? shape[i] : int64_t{1}, &extent)) extent = -1;
    if (extent < 0) break;
  }
  const std::string s = shape_string(shape, ndim);
  if (!numel_fits) {
    fail(KF_INVALID_ARGUMENT, "{}: shape {} has too many elements (more than 2^63-1)", what, s);
  }
  if (extent < 0) {
    fail(KF_INVALID_ARGUMENT,
         "{}: shape {} has no element, but the strides of its other dims (the product of its "
         "sizes other than 0) are too many elements to count in 64 bits", what, s);
  }
  fail(KF_INVALID_ARGUMENT,
       "{}: shape {} has {} elements of {} bytes: more bytes than 2^63-1, too many elements to "
       "address", what, s, extent, item);
}

std::string strides_text(const int64_t* shape, const int64_t* strides, int32_t ndim) {
  return "shape " + shape_string(shape, ndim) + " with strides " + shape_string(strides, ndim);
}

}  // namespace

void fail_shape(const int64_t* shape, int32_t ndim, size_t item, const char* what) {
  check_dims(shape, ndim, what);
  fail_product(shape, ndim, item, what);
}

int64_t check_shape(const int64_t* shape, int32_t ndim, size_t item, const char* what) {
  check_dims(shape, ndim, what);
  int64_t extent = 1, bytes = 0;
  bool empty = false;
  for (int32_t i = 0; i < ndim; ++i) {
    empty = empty || shape[i] == 0;
    if (!checked_mul(extent, shape[i] > 1 ? shape[i] : int64_t{1}, &extent)) {
      fail_product(shape, ndim, item, what);
    }
  }
  if (!checked_bytes(extent, item, &bytes)) fail_product(shape, ndim, item, what);
  return empty ? 0 : extent;
}

Reach check_strides(const int64_t* shape, const int64_t* strides, int32_t ndim, size_t item,
                    const char* what) {
  Reach r;
  r.numel = check_shape(shape, ndim, item, what);
  if (ndim > 0 && strides == nullptr) {
    fail(KF_INVALID_ARGUMENT, "{}: strides is NULL but ndim is {}", what, ndim);
  }
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t bytes = 0;
    if (strides[i] == std::numeric_limits<int64_t>::min() ||
        !checked_bytes(strides[i] < 0 ? -strides[i] : strides[i], item, &bytes)) {
      fail(KF_INVALID_ARGUMENT, "{}: stride {} at dim {} of {} is too large: {} bytes per step "
           "do not fit in 64 bits", what, strides[i], i, strides_text(shape, strides, ndim),
           item);
    }
  }
  if (r.numel == 0) return r;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t step = 0;
    int64_t& end = strides[i] < 0 ? r.lo : r.hi;
    if (!checked_mul(shape[i] - 1, strides[i], &step) || !checked_add(end, step, &end)) {
      fail(KF_INVALID_ARGUMENT, "{}: the elements of {} are more than 2^63-1 elements apart",
           what, strides_text(shape, strides, ndim));
    }
  }
  int64_t span = 0, bytes = 0;
  if (!checked_sub(r.hi, r.lo, &span) || span == kMaxInt64 ||
      !checked_bytes(span + 1, item, &bytes)) {
    fail(KF_INVALID_ARGUMENT, "{}: the elements of {} span more than 2^63-1 bytes of {}-byte "
         "elements", what, strides_text(shape, strides, ndim), item);
  }
  return r;
}

void check_in_storage(const int64_t* shape, const int64_t* strides, int32_t ndim, int64_t offset,
                      const Reach& r, size_t item, size_t storage_bytes, const char* what) {
  int64_t first = 0, last = 0, end_bytes = 0;
  if (offset < 0 || !checked_bytes(offset, item, &end_bytes)) {
    fail(KF_INVALID_ARGUMENT, "{}: storage offset {} of the view of {} is out of range", what,
         offset, strides_text(shape, strides, ndim));
  }
  if (r.numel == 0) return;
  const bool fits = checked_add(offset, r.lo, &first) && checked_add(offset, r.hi, &last) &&
                    last < kMaxInt64 && checked_bytes(last + 1, item, &end_bytes);
  if (!fits || first < 0 || static_cast<uint64_t>(end_bytes) > storage_bytes) {
    fail(KF_INVALID_ARGUMENT,
         "{}: the view of {} at storage offset {} reaches outside its storage of {} elements",
         what, strides_text(shape, strides, ndim), offset, storage_bytes / (item ? item : 1));
  }
}

}  // namespace kf
