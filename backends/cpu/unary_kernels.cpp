// unary_kernels.cpp — neg, abs, exp, log, sqrt, relu, sigmoid, tanh (tag pointwise). The
// input arrives in the compute dtype, which is also the output's; the output may be any strided
// view and may alias the input exactly. Transcendentals take floating dtypes only (the core
// converts integers to float32); 16-bit floats compute in float.
#include <cmath>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "unary_map.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kNegMask = kNumericMask | kComplexMask;
constexpr uint32_t kAbsMask = kOrderedMask;  // a complex abs is real: not a same-dtype map
constexpr uint32_t kReluMask = kNumericMask;
constexpr uint32_t kFloatOpMask = kAllFloatMask | kComplexMask;  // std::exp etc. of complex too

template <class M>
inline M neg_of(M x) {
  if constexpr (std::is_integral_v<M>) {
    return wrap_sub(M(0), x);
  } else {
    return -x;
  }
}

template <class M>
inline M abs_of(M x) {
  if constexpr (std::is_same_v<M, bool> || std::is_unsigned_v<M>) {
    return x;
  } else if constexpr (std::is_integral_v<M>) {
    return x < 0 ? wrap_sub(M(0), x) : x;
  } else {
    return std::fabs(x);
  }
}

template <class M>
inline M relu_of(M x) {
  if constexpr (std::is_floating_point_v<M>) {
    return x > M(0) ? x : (x != x ? x : M(0));  // NaN stays NaN (PyTorch)
  } else {
    return x > M(0) ? x : M(0);
  }
}

template <class M>
inline M sigmoid_of(M x) {
  return M(1) / (M(1) + std::exp(-x));
}

void neg_kernel(const ops::neg::Args& a) {
  unary_map<kNegMask>(a.self, a.out, "neg", [](auto x) { return neg_of(x); });
}
void abs_kernel(const ops::abs::Args& a) {
  unary_map<kAbsMask>(a.self, a.out, "abs", [](auto x) { return abs_of(x); });
}
void relu_kernel(const ops::relu::Args& a) {
  unary_map<kReluMask>(a.self, a.out, "relu", [](auto x) { return relu_of(x); });
}
void exp_kernel(const ops::exp::Args& a) {
  unary_map_simd<kFloatOpMask>(a.self, a.out, "exp", simd::UnaryFn::kExp,
                           [](auto x) { return std::exp(x); });
}
void log_kernel(const ops::log::Args& a) {
  unary_map_simd<kFloatOpMask>(a.self, a.out, "log", simd::UnaryFn::kLog,
                           [](auto x) { return std::log(x); });
}
void sqrt_kernel(const ops::sqrt::Args& a) {
  unary_map<kFloatOpMask>(a.self, a.out, "sqrt", [](auto x) { return std::sqrt(x); });
}
void sigmoid_kernel(const ops::sigmoid::Args& a) {
  unary_map_simd<kFloatOpMask>(a.self, a.out, "sigmoid", simd::UnaryFn::kSigmoid,
                           [](auto x) { return sigmoid_of(x); });
}
void tanh_kernel(const ops::tanh::Args& a) {
  unary_map_simd<kFloatOpMask>(a.self, a.out, "tanh", simd::UnaryFn::kTanh,
                           [](auto x) { return std::tanh(x); });
}

}  // namespace

kf_status_t register_unary_kernels(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, neg, neg_kernel, kNegMask);
  KF_REGISTER_KERNEL(reg, abs, abs_kernel, kAbsMask);
  KF_REGISTER_KERNEL(reg, exp, exp_kernel, kFloatOpMask);
  KF_REGISTER_KERNEL(reg, log, log_kernel, kFloatOpMask);
  KF_REGISTER_KERNEL(reg, sqrt, sqrt_kernel, kFloatOpMask);
  KF_REGISTER_KERNEL(reg, relu, relu_kernel, kReluMask);
  KF_REGISTER_KERNEL(reg, sigmoid, sigmoid_kernel, kFloatOpMask);
  KF_REGISTER_KERNEL(reg, tanh, tanh_kernel, kFloatOpMask);
  return KF_OK;
}

}  // namespace kf::cpu
