// prod_minmax_kernels.cpp — prod, amin, argmin (tag reduction), over reduce_plan.hpp.
//
// prod gets its input already converted to the output dtype (meta reduce_sum: bool and
// integers become int64 unless dtype= is given). Floating products accumulate in double (one
// rounding at the store), integer products in wrapping 64-bit arithmetic stored modulo the
// output's width (two's complement, as PyTorch), bool products are a logical and; an empty
// product is 1. amin reads and writes self's dtype; argmin reads self and writes int64. Both
// mirror amax/argmax: NaN is the minimum (amin propagates it, argmin returns the first NaN),
// argmin returns the first index of the minimum, and an empty reduced dim is refused (the
// reducers of both families are extremum_reducers.hpp's).
#include <cmath>
#include <limits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "extremum_reducers.hpp"
#include "reducer_util.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kProdMask = kAllMask;
constexpr uint32_t kAminMask = kOrderedMask;
constexpr uint32_t kArgminMask = kOrderedMask;
constexpr int kLanes = kReduceLanes;

/// Integers accumulate in uint64 (wrapping), complex numbers in complex<double>, the rest in
/// double.
template <class T>
using ProdAcc =
    std::conditional_t<std::is_integral_v<T>, uint64_t,
                       std::conditional_t<is_complex_v<T>, std::complex<double>, double>>;

template <class T>
struct ProdReducer {
  using Acc = ProdAcc<T>;
  static Acc value(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      return v ? 1 : 0;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<Acc>(static_cast<int64_t>(v));  // sign-extended: wraps like int64
    } else {
      return static_cast<Acc>(load(v));
    }
  }
  Acc identity() const { return Acc(1); }
  void step(Acc& acc, T v, int64_t) const { acc *= value(v); }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t) const {
    if (s != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n; ++i) acc *= value(row_elem<T>(p, i, s));
      return;
    }
    const T* x = reinterpret_cast<const T*>(p);
    Acc lane[kLanes];
    for (int k = 0; k < kLanes; ++k) lane[k] = Acc(1);
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) lane[k] *= value(elem(x, i + k));
    }
    for (; i < n; ++i) lane[0] *= value(elem(x, i));
    for (int k = 0; k < kLanes; ++k) acc *= lane[k];
  }
  void combine(Acc& acc, const Acc& later) const { acc *= later; }
  void store(char* out, const Acc& acc) const {
    if constexpr (std::is_same_v<T, bool>) {
      *reinterpret_cast<bool*>(out) = acc != 0;
    } else if constexpr (std::is_integral_v<T>) {
      *reinterpret_cast<T*>(out) = static_cast<T>(acc);
    } else {
      *reinterpret_cast<T*>(out) = convert<T>(acc);
    }
  }
};

void prod_kernel(const ops::prod::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "prod");
  check_ndim(a.self);
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  dispatch<kProdMask>(a.out.dtype, "prod", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p =
        make_reduce_plan(a.self, a.out, reduced, a.keepdim, sizeof(T), sizeof(T), true);
    run_reduce<T>(p, ProdReducer<T>{}, a.self, a.out);
  });
}

void amin_kernel(const ops::amin::Args& a) {
  extremum_reduce<kAminMask, MinReducer>(a.self, a.dim, a.keepdim, a.out, "amin");
}

void argmin_kernel(const ops::argmin::Args& a) {
  index_reduce<kArgminMask, ArgminReducer>(a.self, a.dim, a.keepdim, a.out, "argmin");
}

}  // namespace

kf_status_t register_prod_minmax_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, prod, prod_kernel, kProdMask);
  KF_CPU_KERNEL(reg, amin, amin_kernel, kAminMask);
  KF_CPU_KERNEL(reg, argmin, argmin_kernel, kArgminMask);
  return KF_OK;
}

}  // namespace kf::cpu
