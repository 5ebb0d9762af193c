// activation_kernels.cpp — gelu and silu (tag pointwise). Floating dtypes only (the meta
// refuses the others, as PyTorch does); the input has the output's dtype, the output may be
// any strided view and may alias the input exactly. 16-bit floats compute in float.
//
//   gelu exact:       x * 0.5 * (1 + erf(x / sqrt(2)))
//   gelu approximate: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))  (PyTorch's 'tanh')
//   silu:             x / (1 + exp(-x))  (= x * sigmoid(x); -inf gives NaN, as in PyTorch)
#include <cmath>

#include "kernels.hpp"
#include "unary_map.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kActivationMask = kAllFloatMask;

template <class M>
inline M gelu_exact(M x) {
  constexpr M kInvSqrt2 = M(0.70710678118654752440);
  return x * M(0.5) * (M(1) + std::erf(x * kInvSqrt2));
}

template <class M>
inline M gelu_tanh(M x) {
  constexpr M kSqrt2OverPi = M(0.79788456080286535588);
  constexpr M kCoeff = M(0.044715);
  const M inner = kSqrt2OverPi * (x + kCoeff * x * x * x);
  return M(0.5) * x * (M(1) + std::tanh(inner));
}

template <class M>
inline M silu_of(M x) {
  return x / (M(1) + std::exp(-x));
}

void gelu_kernel(const ops::gelu::Args& a) {
  if (a.approximate) {
    unary_map<kActivationMask>(a.self, a.out, "gelu", [](auto x) { return gelu_tanh(x); });
  } else {
    unary_map<kActivationMask>(a.self, a.out, "gelu", [](auto x) { return gelu_exact(x); });
  }
}

void silu_kernel(const ops::silu::Args& a) {
  unary_map<kActivationMask>(a.self, a.out, "silu", [](auto x) { return silu_of(x); });
}

}  // namespace

kf_status_t register_activation_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, gelu, gelu_kernel, kActivationMask);
  KF_CPU_KERNEL(reg, silu, silu_kernel, kActivationMask);
  return KF_OK;
}

}  // namespace kf::cpu
