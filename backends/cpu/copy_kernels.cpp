// copy_kernels.cpp — copy_ and to_dtype: element conversion between any two dtypes
// (convert<To>(from): float to int truncates, nonzero to bool is true, 16-bit floats round to
// nearest even, complex to real keeps the real part). copy_'s src is broadcast to self's shape but
// not converted; its output aliases self and may be any strided view (a transposed view, an
// expanded src, ...). Same-dtype copies move raw bits by element size (one loop per width, not per
// dtype), but for bool, whose bytes are read as != 0 and written as 0 or 1 (Note [Bool bytes]).
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

/// Copies raw elements of one width: same dtype on both sides.
void copy_bits(const kf_tensor_view_t& out, const kf_tensor_view_t& src) {
  auto same = [](auto x) { return x; };
  static_assert(sizeof(Bits128) == 16);
  switch (element_size(out.dtype)) {
    case 16: map1<Bits128, Bits128>(out, src, same); break;
    case 8: map1<uint64_t, uint64_t>(out, src, same); break;
    case 4: map1<uint32_t, uint32_t>(out, src, same); break;
    case 2: map1<uint16_t, uint16_t>(out, src, same); break;
    case 1: map1<uint8_t, uint8_t>(out, src, same); break;
    default:
      throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu copy_: no raw copy of ") +
                                                     std::to_string(element_size(out.dtype)) +
                                                     "-byte elements (" +
                                                     dtype_name(out.dtype) + ")");
  }
}

/// out = convert(src), for any pair of dtypes.
void convert_into(const kf_tensor_view_t& out, const kf_tensor_view_t& src, const char* op) {
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

void copy__kernel(const ops::copy_::Args& a) { convert_into(a.out, a.src, "copy_"); }

void to_dtype_kernel(const ops::to_dtype::Args& a) {
  if (a.out.dtype != a.dtype) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("output has dtype ") +
                                                   dtype_name(a.out.dtype) + ", expected " +
                                                   dtype_name(a.dtype));
  }
  convert_into(a.out, a.self, "to_dtype");
}

}  // namespace

kf_status_t register_copy_kernels(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, copy_, copy__kernel, kCopyMask);
  KF_REGISTER_KERNEL(reg, to_dtype, to_dtype_kernel, kCopyMask);
  return KF_OK;
}

}  // namespace kf::cpu
