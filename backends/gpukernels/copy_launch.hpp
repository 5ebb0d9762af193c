// copy_launch.hpp — the launcher of element conversion between any two of the ten dtypes
// (copy_, to_dtype, and the same-dtype strided copies of the other families), and `Number`,
// one value as the CPU backend's convert<To>(from) sees it, which the fill-like launchers of
// factory_launch.hpp take. Plain C++: shared by the *_ops.cpp files (g++) and copy.cu (nvcc).
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "kernforge/scalar.hpp"
#include "kernforge/types.h"
#include "operands.hpp"

namespace kf::cuda {

/// A value of some source dtype, before it is converted: an integer (every integer dtype and
/// bool, exact in int64) or a floating-point value (every floating dtype, exact in double).
/// The conversion of a Number to a dtype is the CPU backend's convert<To>(From) for the From
/// it came from (convert.cuh, Note [Conversions]).
struct Number {
  int32_t is_float = 0;
  int64_t i = 0;
  double f = 0.0;
};

/// A scalar argument as the CPU's scalar_to<T> reads it: int64 and bool as integers, float64
/// as a floating value.
inline Number number_of(const kf_scalar_t& s) {
  Number n;
  if (scalar_is_integer(s)) {
    n.i = scalar_int64(s);  // uint64 as its bits
  } else {
    n.is_float = 1;
    n.f = scalar_real(s);
  }
  return n;
}

/// Queues out = convert(src) for operands p (p.data[0] = out of `out_dtype`, p.data[1] = src
/// of `src_dtype`, of one shape; src may be broadcast). Same-dtype copies move raw bits (a
/// cudaMemcpyAsync when both are dense; nothing when out is src). Nothing for no element.
/// Throws KernelError when the copy cannot be queued; a failed kernel launch is left to
/// KernelScope::check.
void launch_convert(const Operands& p, int32_t out_dtype, int32_t src_dtype, cudaStream_t stream);

}  // namespace kf::cuda
