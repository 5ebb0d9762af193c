// copy_kernels.cpp — copy_ and to_dtype: element conversion between any two dtypes
// (convert<To>(from): float to int truncates, nonzero to bool is true, 16-bit floats round to
// nearest even, complex to real keeps the real part). copy_'s src is broadcast to self's shape but
// not converted; its output aliases self and may be any strided view (a transposed view, an
// expanded src, ...). Same-dtype copies move raw bits by element size (one loop per width, not per
// dtype), but for bool, whose bytes are read as != 0 and written as 0 or 1 (Note [Bool bytes]).
#include <cstring>

#include "copy_elements.hpp"
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kCopyMask = kAllMask;

int64_t element_size(int32_t dtype) { return static_cast<int64_t>(dtype_bytes(dtype)); }

/// A 16-byte element (complex128) as raw bits.
struct Bits128 {
  uint64_t lo, hi;
};

/// One row of a raw copy: forward (memmove), backward (flip's last dim), one value repeated
/// (an expanded src) or strided.
template <class T>
void copy_row(char* const* p, const int64_t* s, int64_t n) {
  constexpr int64_t size = sizeof(T);
  T* o = reinterpret_cast<T*>(p[0]);
  const T* x = reinterpret_cast<const T*>(p[1]);
  if (s[0] == size && s[1] == size) {
    std::memmove(o, x, static_cast<size_t>(n) * sizeof(T));  // an exact alias: copy_(t, t)
  } else if (s[0] == size && s[1] == -size) {
    for (int64_t i = 0; i < n; ++i) o[i] = x[-i];
  } else if (s[0] == size && s[1] == 0) {
    const T v = *x;
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  } else {
    for (int64_t i = 0; i < n; ++i) at<T>(p[0], i, s[0]) = at<T>(p[1], i, s[1]);
  }
}

/// Copies raw elements of type T's width from src into out.
template <class T>
void copy_raw(const kf_tensor_view_t& out, const kf_tensor_view_t& src) {
  const kf_tensor_view_t* views[2] = {&out, &src};
  const int64_t sizes[2] = {sizeof(T), sizeof(T)};
  for_each_row(make_plan(views, sizes), copy_row<T>);
}

/// Copies raw elements of one width: same dtype on both sides.
void copy_bits(const kf_tensor_view_t& out, const kf_tensor_view_t& src) {
  static_assert(sizeof(Bits128) == 16);
  switch (element_size(out.dtype)) {
    case 16: copy_raw<Bits128>(out, src); break;
    case 8: copy_raw<uint64_t>(out, src); break;
    case 4: copy_raw<uint32_t>(out, src); break;
    case 2: copy_raw<uint16_t>(out, src); break;
    case 1: copy_raw<uint8_t>(out, src); break;
    default:
      throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu copy_: no raw copy of ") +
                                                     std::to_string(element_size(out.dtype)) +
                                                     "-byte elements (" +
                                                     dtype_name(out.dtype) + ")");
  }
}

}  // namespace

void copy_elements(const kf_tensor_view_t& out, const kf_tensor_view_t& src, const char* op) {
  if (out.dtype == src.dtype && out.dtype != KF_BOOL) {  // bool: normalised, Note [Bool bytes]
    dispatch<kCopyMask>(out.dtype, op, [](auto) {});  // rejects an unknown dtype
    copy_bits(out, src);
    return;
  }
  dispatch<kCopyMask>(out.dtype, op, [&](auto out_tag) {
    using To = typename decltype(out_tag)::type;
    dispatch<kCopyMask>(src.dtype, op, [&](auto src_tag) {
      using From = typename decltype(src_tag)::type;
      map1<To, From>(out, src, [](From v) { return convert<To>(v); });
    });
  });
}

namespace {

void copy__kernel(const ops::copy_::Args& a) { copy_elements(a.out, a.src, "copy_"); }

void to_dtype_kernel(const ops::to_dtype::Args& a) {
  if (a.out.dtype != a.dtype) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("output has dtype ") +
                                                   dtype_name(a.out.dtype) + ", expected " +
                                                   dtype_name(a.dtype));
  }
  copy_elements(a.out, a.self, "to_dtype");
}

}  // namespace

kf_status_t register_copy_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, copy_, copy__kernel, kCopyMask);
  KF_CPU_KERNEL(reg, to_dtype, to_dtype_kernel, kCopyMask);
  return KF_OK;
}

}  // namespace kf::cpu
