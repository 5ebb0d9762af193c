// compare.cu — the kernels of eq, ne, lt, le, gt, ge, logical_and and logical_or
// (compare_launch.hpp), with the CPU backend's semantics (backends/cpu/binary_kernels.cpp,
// compare_kernels.cpp): both inputs compare in their compute type (float for the 16-bit
// floats) with IEEE rules (NaN != NaN is true, NaN <= x is false, -0.0 == 0.0); the logical
// ops test truthiness, nonzero (NaN included) being true. The output is bool.
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

constexpr uint32_t kMask = compare_dtype_mask(CompareOp::kEq);

/// bool out = f(self, other) for inputs of `dtype`; returns whether it is in the mask.
template <class F>
bool run(int32_t dtype, const Operands& p, cudaStream_t stream) {
  return dispatch<kMask>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<F, bool, T, T>(p, F{}, stream);
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
  }
  if (!done) unsupported("compare", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
