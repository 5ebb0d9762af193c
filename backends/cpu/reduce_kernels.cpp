// reduce_kernels.cpp — sum, mean, amax, argmax (tag reduction), over reduce_plan.hpp.
//
// sum/mean/amax get their input already converted to the output dtype; argmax gets the input
// in its own dtype and writes int64. Floating sums accumulate in double (16-bit floats and
// float32 too), integer sums in wrapping 64-bit; mean divides by the number of reduced
// elements (0/0 = NaN for an empty reduction); a contiguous float32 run is summed by
// simd_math's sum_f32, the same widening to double in vectors of doubles. amax/argmax treat NaN
// as the maximum and argmax returns the first index of the maximum (PyTorch); their reducers
// are extremum_reducers.hpp's.
#include <cmath>
#include <limits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "reduce_plan.hpp"
#include "extremum_reducers.hpp"
#include "reducer_util.hpp"
#include "simd_math.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kSumMask = kNumericMask | kComplexMask;
constexpr uint32_t kMeanMask = kAllFloatMask | kComplexMask;
constexpr uint32_t kAmaxMask = kOrderedMask;
constexpr uint32_t kArgmaxMask = kOrderedMask;
constexpr int kLanes = kReduceLanes;

/// Integers accumulate in uint64 (wrapping), complex numbers in complex<double>, the rest in
/// double.
template <class T>
using SumAcc =
    std::conditional_t<std::is_integral_v<T>, uint64_t,
                       std::conditional_t<is_complex_v<T>, std::complex<double>, double>>;

/// sum (Mean = false) and mean (Mean = true).
template <class T, bool Mean>
struct SumReducer {
  using Acc = SumAcc<T>;
  int64_t count = 1;
  Acc identity() const { return Acc(0); }
  void step(Acc& acc, T v, int64_t) const { acc += static_cast<Acc>(load(v)); }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t) const {
    if (s != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n; ++i) acc += static_cast<Acc>(load(row_elem<T>(p, i, s)));
      return;
    }
    const T* x = reinterpret_cast<const T*>(p);
    if constexpr (std::is_same_v<T, float>) {  // widened and added in double vectors
      acc += simd::sum_f32(x, n);
      return;
    }
    Acc lane[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) lane[k] += static_cast<Acc>(load(elem(x, i + k)));
    }
    for (; i < n; ++i) lane[0] += static_cast<Acc>(load(elem(x, i)));
    for (int k = 0; k < kLanes; ++k) acc += lane[k];
  }
  void combine(Acc& acc, const Acc& later) const { acc += later; }
  void store(char* out, const Acc& acc) const {
    if constexpr (Mean) {
      *reinterpret_cast<T*>(out) = convert<T>(acc / static_cast<double>(count));
    } else if constexpr (std::is_integral_v<T>) {
      *reinterpret_cast<T*>(out) = static_cast<T>(acc);
    } else {
      *reinterpret_cast<T*>(out) = convert<T>(acc);
    }
  }
};

template <bool Mean>
void sum_mean(const kf_tensor_view_t& self, const std::optional<kf::plugin::IntList>& dim,
              bool keepdim, const kf_tensor_view_t& out, const char* op) {
  require_dtype(self, out.dtype, "self", op);
  check_ndim(self);
  bool reduced[KF_MAX_NDIM];
  mark_dims(dim ? dim->data : nullptr, dim ? dim->len : 0, self.ndim, reduced);
  dispatch<Mean ? kMeanMask : kSumMask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p = make_reduce_plan(self, out, reduced, keepdim, sizeof(T), sizeof(T), true);
    SumReducer<T, Mean> r;
    r.count = p.numel_red;
    run_reduce<T>(p, r, self, out);
  });
}

void sum_kernel(const ops::sum::Args& a) {
  sum_mean<false>(a.self, a.dim, a.keepdim, a.out, "sum");
}
void mean_kernel(const ops::mean::Args& a) {
  sum_mean<true>(a.self, a.dim, a.keepdim, a.out, "mean");
}

void amax_kernel(const ops::amax::Args& a) {
  extremum_reduce<kAmaxMask, MaxReducer>(a.self, a.dim, a.keepdim, a.out, "amax");
}

void argmax_kernel(const ops::argmax::Args& a) {
  index_reduce<kArgmaxMask, ArgmaxReducer>(a.self, a.dim, a.keepdim, a.out, "argmax");
}

}  // namespace

kf_status_t register_reduce_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, sum, sum_kernel, kSumMask);
  KF_CPU_KERNEL(reg, mean, mean_kernel, kMeanMask);
  KF_CPU_KERNEL(reg, amax, amax_kernel, kAmaxMask);
  KF_CPU_KERNEL(reg, argmax, argmax_kernel, kArgmaxMask);
  return KF_OK;
}

}  // namespace kf::cpu
