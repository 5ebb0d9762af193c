// binary_kernels.cpp — add, sub, mul, div, eq, lt, gt, where (tag pointwise). Inputs arrive
// broadcast to the output's shape (zero strides allowed) and converted to the compute dtype;
// the output may be any strided view and may alias an input exactly (in-place variants).
// Integers wrap on overflow; bool add/mul are logical or/and (PyTorch).
#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kAddMask = kAllMask;
constexpr uint32_t kSubMask = kNumericMask | kComplexMask;
constexpr uint32_t kMulMask = kAllMask;
constexpr uint32_t kDivMask = kAllFloatMask | kComplexMask;
constexpr uint32_t kEqMask = kAllMask;
constexpr uint32_t kOrderMask = kOrderedMask;  // lt, gt: complex numbers have no order
constexpr uint32_t kWhereMask = kAllMask;

void check_inputs(const kf_tensor_view_t& a, const kf_tensor_view_t& b,
                  const kf_tensor_view_t& out, const char* op) {
  require_dtype(a, out.dtype, "self", op);
  require_dtype(b, out.dtype, "other", op);
}

// self + sign * alpha * other, sign = +1 (add) or -1 (sub).
template <class T, bool Subtract>
void add_sub(const kf_tensor_view_t& out, const kf_tensor_view_t& a, const kf_tensor_view_t& b,
             const kf_scalar_t& alpha_arg) {
  using M = OpMath<T>;
  if constexpr (std::is_same_v<T, bool>) {
    const bool alpha = scalar_to<bool>(alpha_arg);
    map2<bool, bool, bool>(out, a, b, [alpha](bool x, bool y) { return x || (alpha && y); });
  } else if constexpr (std::is_integral_v<T>) {
    const T alpha = scalar_to<T>(alpha_arg);
    if (alpha == 1) {
      binary_same<T>(out, a, b,
                     [](T x, T y) { return Subtract ? wrap_sub(x, y) : wrap_add(x, y); });
    } else {
      binary_same<T>(out, a, b, [alpha](T x, T y) {
        return Subtract ? wrap_sub(x, wrap_mul(alpha, y)) : wrap_add(x, wrap_mul(alpha, y));
      });
    }
  } else {
    const M alpha = scalar_to<M>(alpha_arg);
    if (alpha == M(1)) {
      binary_same<T>(out, a, b, [](M x, M y) { return Subtract ? x - y : x + y; });
    } else {
      binary_same<T>(out, a, b,
                     [alpha](M x, M y) { return Subtract ? x - alpha * y : x + alpha * y; });
    }
  }
}

void add_kernel(const ops::add::Args& a) {
  check_inputs(a.self, a.other, a.out, "add");
  dispatch<kAddMask>(a.out.dtype, "add", [&](auto tag) {
    add_sub<typename decltype(tag)::type, false>(a.out, a.self, a.other, a.alpha);
  });
}

void sub_kernel(const ops::sub::Args& a) {
  check_inputs(a.self, a.other, a.out, "sub");
  dispatch<kSubMask>(a.out.dtype, "sub", [&](auto tag) {
    add_sub<typename decltype(tag)::type, true>(a.out, a.self, a.other, a.alpha);
  });
}

void mul_kernel(const ops::mul::Args& a) {
  check_inputs(a.self, a.other, a.out, "mul");
  dispatch<kMulMask>(a.out.dtype, "mul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      map2<bool, bool, bool>(a.out, a.self, a.other, [](bool x, bool y) { return x && y; });
    } else if constexpr (std::is_integral_v<T>) {
      binary_same<T>(a.out, a.self, a.other, [](T x, T y) { return wrap_mul(x, y); });
    } else {
      binary_same<T>(a.out, a.self, a.other, [](OpMath<T> x, OpMath<T> y) { return x * y; });
    }
  });
}

void div_kernel(const ops::div::Args& a) {
  check_inputs(a.self, a.other, a.out, "div");
  dispatch<kDivMask>(a.out.dtype, "div", [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_same<T>(a.out, a.self, a.other, [](OpMath<T> x, OpMath<T> y) { return x / y; });
  });
}

enum class Cmp { kEq, kLt, kGt };

template <Cmp C, uint32_t Mask = C == Cmp::kEq ? kEqMask : kOrderMask>
void compare(const kf_tensor_view_t& self, const kf_tensor_view_t& other,
             const kf_tensor_view_t& out, const char* op) {
  require_dtype(out, KF_BOOL, "out", op);
  require_dtype(other, self.dtype, "other", op);
  dispatch<Mask>(self.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    map2<bool, T, T>(out, self, other, [](T x, T y) {
      const OpMath<T> l = load(x), r = load(y);
      if constexpr (C == Cmp::kEq) {
        return l == r;
      } else if constexpr (C == Cmp::kLt) {
        return l < r;
      } else {
        return l > r;
      }
    });
  });
}

void eq_kernel(const ops::eq::Args& a) { compare<Cmp::kEq>(a.self, a.other, a.out, "eq"); }
void lt_kernel(const ops::lt::Args& a) { compare<Cmp::kLt>(a.self, a.other, a.out, "lt"); }
void gt_kernel(const ops::gt::Args& a) { compare<Cmp::kGt>(a.self, a.other, a.out, "gt"); }

void where_kernel(const ops::where::Args& a) {
  require_dtype(a.condition, KF_BOOL, "condition", "where");
  check_inputs(a.self, a.other, a.out, "where");
  dispatch<kWhereMask>(a.out.dtype, "where", [&](auto tag) {
    using T = typename decltype(tag)::type;
    map3<T, bool, T, T>(a.out, a.condition, a.self, a.other,
                        [](bool c, T x, T y) { return c ? x : y; });
  });
}

}  // namespace

kf_status_t register_binary_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, add, add_kernel, kAddMask);
  KF_CPU_KERNEL(reg, sub, sub_kernel, kSubMask);
  KF_CPU_KERNEL(reg, mul, mul_kernel, kMulMask);
  KF_CPU_KERNEL(reg, div, div_kernel, kDivMask);
  KF_CPU_KERNEL(reg, eq, eq_kernel, kEqMask);
  KF_CPU_KERNEL(reg, lt, lt_kernel, kOrderMask);
  KF_CPU_KERNEL(reg, gt, gt_kernel, kOrderMask);
  KF_CPU_KERNEL(reg, where, where_kernel, kWhereMask);
  return KF_OK;
}

}  // namespace kf::cpu
