// reduce.cu — the reducers of sum, mean, prod, all and any over reduce_engine.cuh.
//
// As on the CPU (reduce_kernels.cpp, prod_minmax_kernels.cpp, logical_reduce_kernels.cpp):
// floating sums and products accumulate in double (16-bit floats and float32 too) and round
// once at the store; integer ones in wrapping 64-bit arithmetic, stored modulo the output's
// width (two's complement); a bool product is a logical and. mean divides the double sum by
// the number of reduced elements (0 / 0 = NaN for an empty reduction); an empty sum is 0, an
// empty product 1. all/any read any dtype (nonzero is true: NaN is true, -0.0 false) and write
// one byte 0/1; an empty all is true, an empty any false.
#include "reduce_engine.cuh"
#include "reduce_launch.hpp"

namespace kf::cuda {
namespace {

template <class T>
using WideAcc = std::conditional_t<is_floating_v<T>, double, uint64_t>;

/// sum, and mean when `mean` (the sum divided by `count`).
template <class T>
struct SumReducer {
  using In = T;
  using Acc = WideAcc<T>;
  using Out = T;
  bool mean;
  double count;
  __device__ Acc identity() const { return Acc(0); }
  __device__ void step(Acc& a, T x, int64_t) const { a += static_cast<Acc>(value_of(x)); }
  __device__ void combine(Acc& a, const Acc& b) const { a += b; }
  __device__ T finish(const Acc& a) const {
    if constexpr (is_floating_v<T>) {
      return to_storage<T>(mean ? a / count : a);
    } else {
      return static_cast<T>(a);  // modulo the width of T
    }
  }
};

template <class T>
struct ProdReducer {
  using In = T;
  using Acc = WideAcc<T>;
  using Out = T;
  static __device__ Acc factor(T x) {
    if constexpr (std::is_same_v<T, bool>) {
      return x ? 1u : 0u;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<Acc>(static_cast<int64_t>(x));  // sign-extended: wraps like int64
    } else {
      return static_cast<double>(value_of(x));
    }
  }
  __device__ Acc identity() const { return Acc(1); }
  __device__ void step(Acc& a, T x, int64_t) const { a *= factor(x); }
  __device__ void combine(Acc& a, const Acc& b) const { a *= b; }
  __device__ T finish(const Acc& a) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a != 0;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(a);
    } else {
      return to_storage<T>(a);
    }
  }
};

/// all (every element nonzero) when `all`, else any.
template <class T>
struct LogicalReducer {
  using In = T;
  using Acc = unsigned;
  using Out = uint8_t;
  bool all;
  __device__ Acc identity() const { return all ? 1u : 0u; }
  __device__ void step(Acc& a, T x, int64_t) const {
    const Acc truth = value_of(x) != compute_t<T>(0) ? 1u : 0u;
    a = all ? (a & truth) : (a | truth);
  }
  __device__ void combine(Acc& a, const Acc& b) const { a = all ? (a & b) : (a | b); }
  __device__ uint8_t finish(const Acc& a) const { return static_cast<uint8_t>(a); }
};

}  // namespace

void launch_reduce(ReduceOp op, const ReduceLaunch& l, cudaStream_t stream) {
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Mean:
      (void)dispatch<kSumDtypes | kMeanDtypes>(l.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        run_reduce(l, SumReducer<T>{op == ReduceOp::Mean, static_cast<double>(l.plan.numel_red)},
                   stream);
      });
      return;
    case ReduceOp::Prod:
      (void)dispatch<kProdDtypes>(l.dtype, [&](auto tag) {
        run_reduce(l, ProdReducer<typename decltype(tag)::type>{}, stream);
      });
      return;
    case ReduceOp::All:
    case ReduceOp::Any:
      (void)dispatch<kLogicalDtypes>(l.dtype, [&](auto tag) {
        run_reduce(l, LogicalReducer<typename decltype(tag)::type>{op == ReduceOp::All}, stream);
      });
      return;
  }
}

}  // namespace kf::cuda
