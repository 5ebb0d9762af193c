// The layout validator: which shapes, strides and offsets describe memory the core may address.
// Every construction of a tensor goes through it (new_tensor, new_output*, new_view,
// new_borrowed in tensor_impl.cpp), and the dispatcher checks the output shapes of every meta
// function with check_shape before anything is computed from them.
//
// Note [Layout rules]
// 1. ndim is in [0, KF_MAX_NDIM] and every size is >= 0.
// 2. The product of the sizes, a size 0 counted as 1, times the item size fits in int64. Then
//    numel, the byte count, every contiguous stride and the product of any subset of the sizes
//    fit too, so code that multiplies the sizes of a valid tensor needs no check of its own. (A
//    size-0 dim makes no element, but the contiguous strides of the other dims must exist.)
// 3. Every stride times the item size fits in int64: kernels step in bytes.
// 4. A view with elements reaches the element offsets [offset + lo, offset + hi] of its
//    storage, lo the sum of (size - 1) * stride over the negative strides and hi over the
//    positive ones; that range lies inside the storage: offset + lo >= 0 and
//    (offset + hi + 1) * item <= the storage's bytes. A view without elements reaches nothing;
//    its offset only has to be >= 0 with a byte offset that fits.
// Everything is computed with checked arithmetic (core/checked_math.hpp). A layout that breaks
// a rule is KF_INVALID_ARGUMENT, with a message naming the caller (`what`: an op, or the C ABI
// function), the shape and, for strided layouts, the strides and the offset.
//
// Functions without state: safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kf {

/// Rules 1 and 2 for a shape of elements of `item` bytes; returns numel.
int64_t check_shape(const int64_t* shape, int32_t ndim, size_t item, const char* what);

/// Rules 1 and 2 with item 1 (a shape before its dtype is known); returns numel.
inline int64_t checked_numel(const int64_t* shape, int32_t ndim, const char* what) {
  return check_shape(shape, ndim, 1, what);
}

/// What a strided layout reaches, in elements from element [0, ..., 0]: lo <= 0 <= hi (both 0
/// when numel is 0).
struct Reach {
  int64_t numel = 0;
  int64_t lo = 0;
  int64_t hi = 0;
};

/// Rules 1 to 3 for `shape` and `strides`; returns what they reach.
Reach check_strides(const int64_t* shape, const int64_t* strides, int32_t ndim, size_t item,
                    const char* what);

/// Rule 4: the layout that reaches `r`, placed at element `offset` of a storage of
/// `storage_bytes` bytes, stays inside it.
void check_in_storage(const int64_t* shape, const int64_t* strides, int32_t ndim, int64_t offset,
                      const Reach& r, size_t item, size_t storage_bytes, const char* what);

/// Throws the error of a contiguous shape that breaks rule 1 or 2 (for callers that check
/// inline on a hot path and only need the message when the check failed).
[[noreturn]] void fail_shape(const int64_t* shape, int32_t ndim, size_t item, const char* what);

}  // namespace kf
