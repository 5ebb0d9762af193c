// compare.cu — the kernels of eq, ne, lt, le, gt, ge, logical_and, logical_or, logical_xor,
// isnan, isinf, isfinite, signbit and logical_not (compare_launch.hpp), with the CPU backend's
// semantics (backends/cpu/binary_kernels.cpp, compare_kernels.cpp, predicate_kernels.cpp):
// both inputs compare in their compute type (float for the 16-bit floats) with IEEE rules (NaN
// != NaN is true, NaN <= x is false, -0.0 == 0.0); the logical ops test truthiness, nonzero
// (NaN included) being true. Integers and bool are never NaN or infinite, and their signbit is
// x < 0; a float's signbit is its sign bit (-0.0 and a NaN with the bit set). The output is
// bool.
//
// gt and ge are lt and le with the inputs swapped (a > b is b < a, also for NaN), so they add
// no kernels.
#include <utility>

#include "compare_launch.hpp"
#include "device_common.cuh"
#include "pointwise.cuh"

namespace kf::cuda {
namespace {

using namespace pointwise;  // NOLINT: the helpers of the pointwise kernels

struct Eq {
  template <class C>
  __device__ bool operator()(C l, C r) const { return l == r; }
};
struct Ne {
  template <class C>
  __device__ bool operator()(C l, C r) const { return l != r; }
};
struct Lt {
  template <class C>
  __device__ bool operator()(C l, C r) const { return l < r; }
};
struct Le {
  template <class C>
  __device__ bool operator()(C l, C r) const { return l <= r; }
};
struct And {
  template <class C>
  __device__ bool operator()(C l, C r) const { return l != C(0) && r != C(0); }
};
struct Or {
  template <class C>
  __device__ bool operator()(C l, C r) const { return l != C(0) || r != C(0); }
};
struct Xor {
  template <class C>
  __device__ bool operator()(C l, C r) const { return (l != C(0)) != (r != C(0)); }
};

struct IsNan {
  template <class C>
  __device__ bool operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      return isnan(x);
    } else {
      return false;
    }
  }
};
struct IsInf {
  template <class C>
  __device__ bool operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      return isinf(x);
    } else {
      return false;
    }
  }
};
struct IsFinite {
  template <class C>
  __device__ bool operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      return isfinite(x);
    } else {
      return true;
    }
  }
};
struct Signbit {
  template <class C>
  __device__ bool operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      return signbit(x);
    } else if constexpr (std::is_signed_v<C>) {
      return x < C(0);
    } else {
      return false;  // unsigned and bool
    }
  }
};
struct Not {
  template <class C>
  __device__ bool operator()(C x) const { return x == C(0); }
};

constexpr uint32_t kMask = compare_dtype_mask(CompareOp::kEq);

/// bool out = f(self, other) for inputs of `dtype`; returns whether it is in the mask.
template <class F>
bool run(int32_t dtype, const Operands& p, cudaStream_t stream) {
  return dispatch<kMask>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<F, bool, T, T>(p, F{}, stream);
  });
}

/// bool out = f(self) for an input of `dtype`; returns whether it is in the mask.
template <class F>
bool run_unary(int32_t dtype, const Operands& p, cudaStream_t stream) {
  return dispatch<kMask>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<F, bool, T>(p, F{}, stream);
  });
}

/// `p` with its two inputs exchanged.
Operands swapped(const Operands& p) {
  Operands q = p;
  std::swap(q.data[1], q.data[2]);
  for (int d = 0; d < q.ndim; ++d) std::swap(q.strides[1][d], q.strides[2][d]);
  return q;
}

}  // namespace

void launch_compare(CompareOp op, int32_t dtype, const Operands& p, cudaStream_t stream) {
  if (p.numel <= 0) return;
  bool done = false;
  switch (op) {
    case CompareOp::kEq: done = run<Eq>(dtype, p, stream); break;
    case CompareOp::kNe: done = run<Ne>(dtype, p, stream); break;
    case CompareOp::kLt: done = run<Lt>(dtype, p, stream); break;
    case CompareOp::kLe: done = run<Le>(dtype, p, stream); break;
    case CompareOp::kGt: done = run<Lt>(dtype, swapped(p), stream); break;
    case CompareOp::kGe: done = run<Le>(dtype, swapped(p), stream); break;
    case CompareOp::kAnd: done = run<And>(dtype, p, stream); break;
    case CompareOp::kOr: done = run<Or>(dtype, p, stream); break;
    case CompareOp::kXor: done = run<Xor>(dtype, p, stream); break;
    case CompareOp::kIsNan: done = run_unary<IsNan>(dtype, p, stream); break;
    case CompareOp::kIsInf: done = run_unary<IsInf>(dtype, p, stream); break;
    case CompareOp::kIsFinite: done = run_unary<IsFinite>(dtype, p, stream); break;
    case CompareOp::kSignbit: done = run_unary<Signbit>(dtype, p, stream); break;
    case CompareOp::kNot: done = run_unary<Not>(dtype, p, stream); break;
  }
  if (!done) unsupported("compare", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
