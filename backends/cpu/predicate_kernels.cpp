// predicate_kernels.cpp — isnan, isinf, isfinite, signbit, logical_not (tag pointwise, bool
// result). The input keeps its own dtype (meta unary_predicate; signbit refuses complex); the
// bool output may be any strided view. A complex value is NaN or infinite when either part is,
// finite when both are; integers and bool are never NaN or infinite. signbit of an integer is
// x < 0. logical_not tests truthiness: zero is false, everything else (NaN included) true.
#include <cmath>
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kAnyMask = kAllMask;
constexpr uint32_t kSignbitMask = kOrderedMask;

enum class Test { kNan, kInf, kFinite, kSignbit, kNot };

template <Test P, class M>
inline bool test(M x) {
  if constexpr (P == Test::kNot) {
    return x == M(0);
  } else if constexpr (is_complex_v<M>) {
    if constexpr (P == Test::kNan) return std::isnan(x.real()) || std::isnan(x.imag());
    if constexpr (P == Test::kInf) return std::isinf(x.real()) || std::isinf(x.imag());
    if constexpr (P == Test::kFinite) return std::isfinite(x.real()) && std::isfinite(x.imag());
  } else if constexpr (std::is_floating_point_v<M>) {
    if constexpr (P == Test::kNan) return std::isnan(x);
    if constexpr (P == Test::kInf) return std::isinf(x);
    if constexpr (P == Test::kFinite) return std::isfinite(x);
    if constexpr (P == Test::kSignbit) return std::signbit(x);
  } else {  // integers and bool
    if constexpr (P == Test::kSignbit) {
      if constexpr (std::is_signed_v<M>) return x < M(0);
      return false;
    }
    return P == Test::kFinite;
  }
}

template <Test P, uint32_t Mask = P == Test::kSignbit ? kSignbitMask : kAnyMask>
void predicate(const kf_tensor_view_t& self, const kf_tensor_view_t& out, const char* op) {
  require_dtype(out, KF_BOOL, "out", op);
  dispatch<Mask>(self.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (P == Test::kSignbit && is_half_v<T>) {
      // The sign is the top bit of the 16-bit storage (GCC 12 also fails to vectorise
      // std::signbit of the widened float: an internal compiler error).
      map1<bool, T>(out, self, [](T x) { return (x.bits & 0x8000u) != 0; });
    } else {
      map1<bool, T>(out, self, [](T x) { return test<P>(load(x)); });
    }
  });
}

void isnan_kernel(const ops::isnan::Args& a) { predicate<Test::kNan>(a.self, a.out, "isnan"); }
void isinf_kernel(const ops::isinf::Args& a) { predicate<Test::kInf>(a.self, a.out, "isinf"); }
void isfinite_kernel(const ops::isfinite::Args& a) {
  predicate<Test::kFinite>(a.self, a.out, "isfinite");
}
void signbit_kernel(const ops::signbit::Args& a) {
  predicate<Test::kSignbit>(a.self, a.out, "signbit");
}
void logical_not_kernel(const ops::logical_not::Args& a) {
  predicate<Test::kNot>(a.self, a.out, "logical_not");
}

}  // namespace

kf_status_t register_predicate_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, isnan, isnan_kernel, kAnyMask);
  KF_CPU_KERNEL(reg, isinf, isinf_kernel, kAnyMask);
  KF_CPU_KERNEL(reg, isfinite, isfinite_kernel, kAnyMask);
  KF_CPU_KERNEL(reg, signbit, signbit_kernel, kSignbitMask);
  KF_CPU_KERNEL(reg, logical_not, logical_not_kernel, kAnyMask);
  return KF_OK;
}

}  // namespace kf::cpu
