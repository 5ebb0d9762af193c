// unary.cu — the kernels of the same-dtype unary ops (unary_launch.hpp): a functor per op on
// compute types, run by the pointwise kernels (pointwise.cuh). Semantics are the CPU
// backend's (backends/cpu/unary_kernels.cpp, math_kernels.cpp, activation_kernels.cpp,
// trig_kernels.cpp, log_exp_kernels.cpp, bitwise_kernels.cpp):
//   neg, abs      integers wrap (int8 -(-128) = -128, |-128| = -128); abs of bool and uint8
//                 is the identity
//   square        x * x; integers wrap (int8 16 * 16 = 0)
//   bitwise_not   ~x on integers (two's complement: -x - 1), !x on bool
//   tan ... atanh, expm1, log1p, log2, log10   the real functions of the C library
//                 (asin(2) = NaN, atanh(1) = inf)
//   relu          x > 0 ? x : 0, NaN stays NaN
//   sigmoid       1 / (1 + exp(-x)); rsqrt 1 / sqrt(x); reciprocal 1 / x (IEEE: 1/0 = inf)
//   gelu          exact x * 0.5 * (1 + erf(x / sqrt(2))), or the tanh form (approximate)
//   silu          x / (1 + exp(-x)) (silu(-inf) = NaN, as PyTorch)
// Floating results come from CUDA's accurate math functions in float (16-bit floats too) or
// double, never from the __fast intrinsics.
#include "device_common.cuh"
#include "pointwise.cuh"
#include "unary_launch.hpp"

namespace kf::cuda {
namespace {

using namespace pointwise;  // NOLINT: the helpers of the pointwise kernels

struct Identity {
  template <class C>
  __device__ C operator()(C x) const { return x; }
};

struct Neg {
  template <class C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_integral_v<C>) {
      return wrap_sub(C(0), x);
    } else {
      return -x;
    }
  }
};

struct Abs {  // signed integers and floats; bool and uint8 take the identity
  template <class C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_integral_v<C>) {
      return x < C(0) ? wrap_sub(C(0), x) : x;
    } else {
      return m_fabs(x);
    }
  }
};

struct Square {
  template <class C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_integral_v<C>) {
      return wrap_mul(x, x);
    } else {
      return x * x;
    }
  }
};

struct BitwiseNot {  // integers and bool
  template <class C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_same_v<C, bool>) {
      return !x;
    } else {
      return static_cast<C>(~x);
    }
  }
};

struct Relu {
  template <class C>
  __device__ C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      return x > C(0) ? x : (x != x ? x : C(0));  // NaN stays NaN (PyTorch)
    } else {
      return x > C(0) ? x : C(0);
    }
  }
};

KF_CUDA_MATH_FUNCTOR(Exp, m_exp)
KF_CUDA_MATH_FUNCTOR(Log, m_log)
KF_CUDA_MATH_FUNCTOR(Sqrt, m_sqrt)
struct Sigmoid {
  template <class C>
  __device__ C operator()(C x) const { return C(1) / (C(1) + m_exp(-x)); }
};
KF_CUDA_MATH_FUNCTOR(Tanh, m_tanh)
struct Rsqrt {  // 1 / sqrt(x), both correctly rounded (not rsqrtf's 2 ulp)
  template <class C>
  __device__ C operator()(C x) const { return C(1) / m_sqrt(x); }
};
KF_CUDA_MATH_FUNCTOR(Sin, m_sin)
KF_CUDA_MATH_FUNCTOR(Cos, m_cos)
KF_CUDA_MATH_FUNCTOR(Erf, m_erf)
struct Reciprocal {
  template <class C>
  __device__ C operator()(C x) const { return C(1) / x; }
};

struct Gelu {
  bool approximate;  // the tanh form
  template <class C>
  __device__ C operator()(C x) const {
    if (approximate) {
      constexpr C kSqrt2OverPi = C(0.79788456080286535588);
      constexpr C kCoeff = C(0.044715);
      const C inner = kSqrt2OverPi * (x + kCoeff * x * x * x);
      return C(0.5) * x * (C(1) + m_tanh(inner));
    }
    constexpr C kInvSqrt2 = C(0.70710678118654752440);
    return x * C(0.5) * (C(1) + m_erf(x * kInvSqrt2));
  }
};

struct Silu {
  template <class C>
  __device__ C operator()(C x) const { return x / (C(1) + m_exp(-x)); }
};

KF_CUDA_MATH_FUNCTOR(Tan, m_tan)
KF_CUDA_MATH_FUNCTOR(Asin, m_asin)
KF_CUDA_MATH_FUNCTOR(Acos, m_acos)
KF_CUDA_MATH_FUNCTOR(Atan, m_atan)
KF_CUDA_MATH_FUNCTOR(Sinh, m_sinh)
KF_CUDA_MATH_FUNCTOR(Cosh, m_cosh)
KF_CUDA_MATH_FUNCTOR(Asinh, m_asinh)
KF_CUDA_MATH_FUNCTOR(Acosh, m_acosh)
KF_CUDA_MATH_FUNCTOR(Atanh, m_atanh)
KF_CUDA_MATH_FUNCTOR(Expm1, m_expm1)
KF_CUDA_MATH_FUNCTOR(Log1p, m_log1p)
KF_CUDA_MATH_FUNCTOR(Log2, m_log2)
KF_CUDA_MATH_FUNCTOR(Log10, m_log10)

constexpr uint32_t kAbsIdentity = dtype_bit(KF_BOOL) | dtype_bit(KF_UINT8);
constexpr uint32_t kAbsOwn = unary_dtype_mask(UnaryOp::kAbs) & ~kAbsIdentity;
constexpr uint32_t kReluIdentity = dtype_bit(KF_UINT8);
constexpr uint32_t kReluOwn = unary_dtype_mask(UnaryOp::kRelu) & ~kReluIdentity;
constexpr uint32_t kFloatOps = kFloatDtypes;
static_assert(unary_dtype_mask(UnaryOp::kExp) == kFloatOps, "the transcendentals take floats");

// The floating-point ops; false for another op or dtype.
bool launch_float(UnaryOp op, int32_t dtype, const Operands& p, const UnaryScalars& s,
                  cudaStream_t stream) {
  switch (op) {
    case UnaryOp::kExp: return unary_same<kFloatOps>(dtype, p, Exp{}, stream);
    case UnaryOp::kLog: return unary_same<kFloatOps>(dtype, p, Log{}, stream);
    case UnaryOp::kSqrt: return unary_same<kFloatOps>(dtype, p, Sqrt{}, stream);
    case UnaryOp::kSigmoid: return unary_same<kFloatOps>(dtype, p, Sigmoid{}, stream);
    case UnaryOp::kTanh: return unary_same<kFloatOps>(dtype, p, Tanh{}, stream);
    case UnaryOp::kRsqrt: return unary_same<kFloatOps>(dtype, p, Rsqrt{}, stream);
    case UnaryOp::kSin: return unary_same<kFloatOps>(dtype, p, Sin{}, stream);
    case UnaryOp::kCos: return unary_same<kFloatOps>(dtype, p, Cos{}, stream);
    case UnaryOp::kErf: return unary_same<kFloatOps>(dtype, p, Erf{}, stream);
    case UnaryOp::kReciprocal: return unary_same<kFloatOps>(dtype, p, Reciprocal{}, stream);
    case UnaryOp::kGelu: return unary_same<kFloatOps>(dtype, p, Gelu{s.approximate}, stream);
    case UnaryOp::kSilu: return unary_same<kFloatOps>(dtype, p, Silu{}, stream);
    default: return false;
  }
}

// The trigonometric, hyperbolic and log/exp ops; false for another op or dtype.
bool launch_trig_log(UnaryOp op, int32_t dtype, const Operands& p, cudaStream_t stream) {
  switch (op) {
    case UnaryOp::kTan: return unary_same<kFloatOps>(dtype, p, Tan{}, stream);
    case UnaryOp::kAsin: return unary_same<kFloatOps>(dtype, p, Asin{}, stream);
    case UnaryOp::kAcos: return unary_same<kFloatOps>(dtype, p, Acos{}, stream);
    case UnaryOp::kAtan: return unary_same<kFloatOps>(dtype, p, Atan{}, stream);
    case UnaryOp::kSinh: return unary_same<kFloatOps>(dtype, p, Sinh{}, stream);
    case UnaryOp::kCosh: return unary_same<kFloatOps>(dtype, p, Cosh{}, stream);
    case UnaryOp::kAsinh: return unary_same<kFloatOps>(dtype, p, Asinh{}, stream);
    case UnaryOp::kAcosh: return unary_same<kFloatOps>(dtype, p, Acosh{}, stream);
    case UnaryOp::kAtanh: return unary_same<kFloatOps>(dtype, p, Atanh{}, stream);
    case UnaryOp::kExpm1: return unary_same<kFloatOps>(dtype, p, Expm1{}, stream);
    case UnaryOp::kLog1p: return unary_same<kFloatOps>(dtype, p, Log1p{}, stream);
    case UnaryOp::kLog2: return unary_same<kFloatOps>(dtype, p, Log2{}, stream);
    case UnaryOp::kLog10: return unary_same<kFloatOps>(dtype, p, Log10{}, stream);
    default: return false;
  }
}

}  // namespace

void launch_unary(UnaryOp op, int32_t dtype, const Operands& p, const UnaryScalars& s,
                  cudaStream_t stream) {
  if (p.numel <= 0) return;
  bool done = false;
  switch (op) {
    case UnaryOp::kNeg:
      done = unary_same<unary_dtype_mask(UnaryOp::kNeg)>(dtype, p, Neg{}, stream);
      break;
    case UnaryOp::kAbs:
      done = unary_same<kAbsOwn>(dtype, p, Abs{}, stream) ||
             identity<kAbsIdentity, Identity>(dtype, p, stream);
      break;
    case UnaryOp::kRelu:
      done = unary_same<kReluOwn>(dtype, p, Relu{}, stream) ||
             identity<kReluIdentity, Identity>(dtype, p, stream);
      break;
    case UnaryOp::kSquare:
      done = unary_same<unary_dtype_mask(UnaryOp::kSquare)>(dtype, p, Square{}, stream);
      break;
    case UnaryOp::kBitwiseNot:
      done = unary_same<unary_dtype_mask(UnaryOp::kBitwiseNot)>(dtype, p, BitwiseNot{}, stream);
      break;
    default:
      done = launch_float(op, dtype, p, s, stream) || launch_trig_log(op, dtype, p, stream);
      break;
  }
  if (!done) unsupported("unary", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
