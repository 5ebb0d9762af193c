// trig_kernels.cpp — tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh (tag pointwise).
// Floating and complex dtypes: the core converts integer and bool inputs to float32 (meta
// unary_float). The input has the output's dtype; the output may be any strided view and may
// alias the input exactly. 16-bit floats compute in float. Real values come from the C
// library (asin(2) = NaN, atanh(1) = inf, acosh(0.5) = NaN); complex values from
// std::complex, the principal values with C99's branch cuts (the array API standard's); tan
// is -i·tanh(iz) with tanh's infinite cases as the standard gives them (complex_tanh.hpp).
#include <cmath>
#include <complex>

#include "complex_tanh.hpp"
#include "kernels.hpp"
#include "unary_map.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kTrigMask = kAllFloatMask | kComplexMask;

// The kernel of op `name`: std::name over every element (real or complex).
#define KF_CPU_TRIG_KERNEL(name)                                                       \
  void name##_kernel(const ops::name::Args& a) {                                      \
    unary_map<kTrigMask>(a.self, a.out, #name, [](auto x) { return std::name(x); }); \
  }
KF_CPU_TRIG_KERNEL(asin)
KF_CPU_TRIG_KERNEL(acos)
KF_CPU_TRIG_KERNEL(atan)
KF_CPU_TRIG_KERNEL(sinh)
KF_CPU_TRIG_KERNEL(cosh)
KF_CPU_TRIG_KERNEL(asinh)
KF_CPU_TRIG_KERNEL(acosh)
KF_CPU_TRIG_KERNEL(atanh)
#undef KF_CPU_TRIG_KERNEL

void tan_kernel(const ops::tan::Args& a) {
  unary_map<kTrigMask>(a.self, a.out, "tan", [](auto x) { return tan_of(x); });
}

}  // namespace

kf_status_t register_trig_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, tan, tan_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, asin, asin_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, acos, acos_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, atan, atan_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, sinh, sinh_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, cosh, cosh_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, asinh, asinh_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, acosh, acosh_kernel, kTrigMask);
  KF_CPU_KERNEL(reg, atanh, atanh_kernel, kTrigMask);
  return KF_OK;
}

}  // namespace kf::cpu
