// compare_kernels.cpp — ne, le, ge, logical_and, logical_or, logical_xor (tag pointwise, bool
// result). Both inputs arrive broadcast and converted to their promoted dtype (every dtype, bool
// included, complex for ne and the logical ops); the bool output may be any strided view.
// Comparisons follow IEEE (NaN != NaN is true, NaN <= x is false); the logical ops test
// truthiness: nonzero, NaN included, is true.
#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kTruthMask = kAllMask;       // ne and the logical ops
constexpr uint32_t kOrderMask = kOrderedMask;  // le, ge: complex numbers have no order

enum class Pred { kNe, kLe, kGe, kAnd, kOr, kXor };

template <Pred P, class M>
inline bool apply(M l, M r) {
  if constexpr (P == Pred::kNe) {
    return l != r;
  } else if constexpr (P == Pred::kLe) {
    return l <= r;
  } else if constexpr (P == Pred::kGe) {
    return l >= r;
  } else if constexpr (P == Pred::kAnd) {
    return l != M(0) && r != M(0);  // NaN != 0: true
  } else if constexpr (P == Pred::kOr) {
    return l != M(0) || r != M(0);
  } else {
    return (l != M(0)) != (r != M(0));
  }
}

template <Pred P, uint32_t Mask = P == Pred::kLe || P == Pred::kGe ? kOrderMask : kTruthMask>
void predicate(const kf_tensor_view_t& self, const kf_tensor_view_t& other,
               const kf_tensor_view_t& out, const char* op) {
  require_dtype(out, KF_BOOL, "out", op);
  require_dtype(other, self.dtype, "other", op);
  dispatch<Mask>(self.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    map2<bool, T, T>(out, self, other, [](T x, T y) { return apply<P>(load(x), load(y)); });
  });
}

void ne_kernel(const ops::ne::Args& a) { predicate<Pred::kNe>(a.self, a.other, a.out, "ne"); }
void le_kernel(const ops::le::Args& a) { predicate<Pred::kLe>(a.self, a.other, a.out, "le"); }
void ge_kernel(const ops::ge::Args& a) { predicate<Pred::kGe>(a.self, a.other, a.out, "ge"); }
void logical_and_kernel(const ops::logical_and::Args& a) {
  predicate<Pred::kAnd>(a.self, a.other, a.out, "logical_and");
}
void logical_or_kernel(const ops::logical_or::Args& a) {
  predicate<Pred::kOr>(a.self, a.other, a.out, "logical_or");
}
void logical_xor_kernel(const ops::logical_xor::Args& a) {
  predicate<Pred::kXor>(a.self, a.other, a.out, "logical_xor");
}

}  // namespace

kf_status_t register_compare_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, ne, ne_kernel, kTruthMask);
  KF_CPU_KERNEL(reg, le, le_kernel, kOrderMask);
  KF_CPU_KERNEL(reg, ge, ge_kernel, kOrderMask);
  KF_CPU_KERNEL(reg, logical_and, logical_and_kernel, kTruthMask);
  KF_CPU_KERNEL(reg, logical_or, logical_or_kernel, kTruthMask);
  KF_CPU_KERNEL(reg, logical_xor, logical_xor_kernel, kTruthMask);
  return KF_OK;
}

}  // namespace kf::cpu
