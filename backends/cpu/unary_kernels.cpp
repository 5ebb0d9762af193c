// unary_kernels.cpp — neg, abs, square, exp, log, sqrt, relu, sigmoid, tanh (tag pointwise).
// The input arrives in the compute dtype, which is also the output's (but for abs of a complex
// input, whose output has the real dtype of its parts); the output may be any strided view and
// may alias the input exactly. Transcendentals take floating dtypes only (the core converts
// integers to float32); 16-bit floats compute in float. square wraps on integers.
#include <cmath>
#include <complex>
#include <string>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "complex_tanh.hpp"
#include "kernels.hpp"
#include "unary_map.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kNegMask = kNumericMask | kComplexMask;
constexpr uint32_t kAbsMask = kOrderedMask | kComplexMask;
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
inline M square_of(M x) {
  if constexpr (std::is_integral_v<M>) {
    return wrap_mul(x, x);
  } else {
    return x * x;
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
/// |x| of a complex tensor into a tensor of its parts' real dtype: std::abs is the C library's
/// hypot, exact to an ulp without overflow, +inf when a part is infinite, even beside a NaN.
void complex_abs(const kf_tensor_view_t& self, const kf_tensor_view_t& out) {
  dispatch<kComplexMask>(self.dtype, "abs", [&](auto tag) {
    using C = typename decltype(tag)::type;
    using R = typename C::value_type;
    if (kf_dtype_kind(out.dtype) != 'f' || kf_dtype_itemsize(out.dtype) != sizeof(R)) {
      throw kf::plugin::KernelError(KF_INTERNAL, std::string("out has dtype ") +
                                                     dtype_name(out.dtype) + ", not the real "
                                                     "dtype of " + dtype_name(self.dtype) +
                                                     "'s parts (cpu abs)");
    }
    map1<R, C>(out, self, [](C x) { return std::abs(x); });
  });
}

void abs_kernel(const ops::abs::Args& a) {
  if (kf_dtype_kind(a.self.dtype) == 'c') {
    complex_abs(a.self, a.out);
    return;
  }
  unary_map<kOrderedMask>(a.self, a.out, "abs", [](auto x) { return abs_of(x); });
}
void square_kernel(const ops::square::Args& a) {
  unary_map<kNegMask>(a.self, a.out, "square", [](auto x) { return square_of(x); });
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
                           [](auto x) { return tanh_of(x); });
}

}  // namespace

kf_status_t register_unary_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, neg, neg_kernel, kNegMask);
  KF_CPU_KERNEL(reg, abs, abs_kernel, kAbsMask);
  KF_CPU_KERNEL(reg, square, square_kernel, kNegMask);
  KF_CPU_KERNEL(reg, exp, exp_kernel, kFloatOpMask);
  KF_CPU_KERNEL(reg, log, log_kernel, kFloatOpMask);
  KF_CPU_KERNEL(reg, sqrt, sqrt_kernel, kFloatOpMask);
  KF_CPU_KERNEL(reg, relu, relu_kernel, kReluMask);
  KF_CPU_KERNEL(reg, sigmoid, sigmoid_kernel, kFloatOpMask);
  KF_CPU_KERNEL(reg, tanh, tanh_kernel, kFloatOpMask);
  return KF_OK;
}

}  // namespace kf::cpu
