// rounding.cu — the kernels of floor, ceil, trunc, round, sign and clamp (rounding_launch.hpp),
// with the CPU backend's semantics (backends/cpu/rounding_kernels.cpp):
//   floor, ceil, trunc, the identity on integers (nothing to do in place); round is half to
//   round               even (rint), with decimals d as PyTorch computes it: rint(x * 10^d) /
//                       10^d, or rint(x / 10^-d) * 10^-d for negative d, 10^|d| rounded once
//                       to the compute type
//   sign                (0 < x) - (x < 0): sign(NaN) = 0, sign(-0.0) = +0; bool stays itself
//   clamp               min(max(x, lo), hi) in the compute type, a missing bound clamping
//                       nothing: hi wins where lo > hi, NaN x stays NaN, and a NaN bound makes
//                       every element NaN
// 16-bit floats compute in float.
#include "device_common.cuh"
#include "pointwise.cuh"
#include "rounding_launch.hpp"

#include <cmath>

namespace kf::cuda {
namespace {

using namespace pointwise;  // NOLINT: the helpers of the pointwise kernels

struct Identity {
  template <class C>
  __device__ C operator()(C x) const { return x; }
};

KF_CUDA_MATH_FUNCTOR(Floor, m_floor)  // floating dtypes; integers take the identity

KF_CUDA_MATH_FUNCTOR(Ceil, m_ceil)

KF_CUDA_MATH_FUNCTOR(Trunc, m_trunc)

struct Round {
  int mode;      // 0: rint(x); 1: rint(x * scale) / scale; -1: rint(x / scale) * scale
  double scale;  // 10^|decimals|
  template <class C>
  __device__ C operator()(C x) const {
    if (mode == 0) return m_rint(x);
    const C s = static_cast<C>(scale);
    return mode > 0 ? m_rint(x * s) / s : m_rint(x / s) * s;
  }
};

Round round_of(int64_t decimals) {
  Round r{0, 1.0};
  if (decimals != 0) {
    r.mode = decimals > 0 ? 1 : -1;
    r.scale = std::pow(10.0, std::fabs(static_cast<double>(decimals)));
  }
  return r;
}

struct Sign {  // numeric dtypes; bool takes the identity; NaN stays NaN (the array API's)
  template <class C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (x != x) return x;
    }
    if constexpr (std::is_unsigned_v<C>) {
      return static_cast<C>(C(0) < x);
    } else {
      return static_cast<C>(static_cast<int>(C(0) < x) - static_cast<int>(x < C(0)));
    }
  }
};

struct Clamp {
  ScalarArg lo, hi;
  bool has_lo, has_hi;
  template <class C>
  __device__ C operator()(C x) const {
    const C l = scalar_as<C>(lo), h = scalar_as<C>(hi);
    if constexpr (std::is_floating_point_v<C>) {
      if ((has_lo && l != l) || (has_hi && h != h)) return quiet_nan<C>();
    }
    const C v = has_lo && x < l ? l : x;
    return has_hi && v > h ? h : v;
  }
};

constexpr uint32_t kSignOwn = kRealDtypes;
constexpr uint32_t kSignIdentity = dtype_bit(KF_BOOL);
static_assert(rounding_dtype_mask(RoundingOp::kSign) == (kSignOwn | kSignIdentity), "sign");
static_assert(rounding_dtype_mask(RoundingOp::kFloor) == (kFloatDtypes | kIntDtypes), "floor");

}  // namespace

void launch_rounding(RoundingOp op, int32_t dtype, const Operands& p, const RoundingScalars& s,
                     cudaStream_t stream) {
  if (p.numel <= 0) return;
  bool done = false;
  switch (op) {
    case RoundingOp::kFloor:
      done = unary_same<kFloatDtypes>(dtype, p, Floor{}, stream) ||
             identity<kIntDtypes, Identity>(dtype, p, stream);
      break;
    case RoundingOp::kCeil:
      done = unary_same<kFloatDtypes>(dtype, p, Ceil{}, stream) ||
             identity<kIntDtypes, Identity>(dtype, p, stream);
      break;
    case RoundingOp::kTrunc:
      done = unary_same<kFloatDtypes>(dtype, p, Trunc{}, stream) ||
             identity<kIntDtypes, Identity>(dtype, p, stream);
      break;
    case RoundingOp::kRound:
      done = unary_same<kFloatDtypes>(dtype, p, round_of(s.decimals), stream) ||
             identity<kIntDtypes, Identity>(dtype, p, stream);
      break;
    case RoundingOp::kSign:
      done = unary_same<kSignOwn>(dtype, p, Sign{}, stream) ||
             identity<kSignIdentity, Identity>(dtype, p, stream);
      break;
    case RoundingOp::kClamp:
      done = unary_same<rounding_dtype_mask(RoundingOp::kClamp)>(
          dtype, p, Clamp{s.min, s.max, s.has_min, s.has_max}, stream);
      break;
  }
  if (!done) unsupported("rounding", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
