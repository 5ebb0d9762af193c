// binary.cu — the kernels of add, sub, mul, div, maximum, minimum, pow and where
// (binary_launch.hpp), with the CPU backend's semantics (backends/cpu/binary_kernels.cpp,
// minmax_pow_kernels.cpp):
//   add, sub      self +- alpha * other in the compute type; integers wrap (two's
//                 complement), bool add is self || (alpha && other)
//   mul           integers wrap; bool mul is and
//   div           true division, floating dtypes only (IEEE: 1/0 = inf, 0/0 = NaN)
//   maximum/min   NaN propagates (either input NaN gives NaN); on bool they are or/and
//   pow           see Note [Integer pow]; floats: x * x for an exponent of 2, else pow() with
//                 C99's special cases (x^0 = 1 for NaN x too, 1^y = 1, (-8)^(1/3) = NaN)
//   where         condition ? self : other, condition bool
// 16-bit floats compute in float; inputs arrive broadcast (zero strides) and converted.
#include "binary_launch.hpp"
#include "device_common.cuh"
#include "pointwise.cuh"

namespace kf::cuda {
namespace {

using namespace pointwise;  // NOLINT: the helpers of the pointwise kernels

struct Add {
  ScalarArg alpha;
  template <class C>
  __device__ C operator()(C x, C y) const {
    const C a = scalar_as<C>(alpha);
    if constexpr (std::is_same_v<C, bool>) {
      return x || (a && y);
    } else if constexpr (std::is_integral_v<C>) {
      return wrap_add(x, wrap_mul(a, y));
    } else {
      return x + a * y;
    }
  }
};

struct Sub {  // numeric dtypes
  ScalarArg alpha;
  template <class C>
  __device__ C operator()(C x, C y) const {
    const C a = scalar_as<C>(alpha);
    if constexpr (std::is_integral_v<C>) {
      return wrap_sub(x, wrap_mul(a, y));
    } else {
      return x - a * y;
    }
  }
};

struct Mul {
  template <class C>
  __device__ C operator()(C x, C y) const {
    if constexpr (std::is_same_v<C, bool>) {
      return x && y;
    } else if constexpr (std::is_integral_v<C>) {
      return wrap_mul(x, y);
    } else {
      return x * y;
    }
  }
};

struct Div {  // floating dtypes
  template <class C>
  __device__ C operator()(C x, C y) const { return x / y; }
};

template <bool Max>
struct Pick {
  template <class C>
  __device__ C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    if constexpr (Max) {
      return a < b ? b : a;
    } else {
      return b < a ? b : a;
    }
  }
};

// Note [Integer pow]
// PyTorch's integer pow, as the CPU backend's int_pow: repeated squaring in the dtype's
// two's-complement arithmetic (so it wraps: int8 3^5 = 243 - 256 = -13), x^0 = 1 (0^0
// included), and for a negative exponent the exact result truncated toward zero: 1 for base
// 1, +-1 for base -1 by the exponent's parity, 0 for every other base (0 included: no
// division error). The squaring runs in Wrap<T>, unsigned, whose low bits are T's result.
template <class T>
__device__ __forceinline__ T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return T(1);
      if (base == -1) return (exp & 1) != 0 ? T(-1) : T(1);
      return T(0);
    }
  }
  using U = Wrap<T>;
  U result = 1, b = static_cast<U>(base);
  auto e = static_cast<std::make_unsigned_t<T>>(exp);
  while (e != 0) {
    if ((e & 1u) != 0) result = static_cast<U>(result * b);
    b = static_cast<U>(b * b);
    e = static_cast<decltype(e)>(e >> 1);
  }
  return static_cast<T>(result);
}

struct Pow {  // numeric dtypes
  template <class C>
  __device__ C operator()(C x, C y) const {
    if constexpr (std::is_integral_v<C>) {
      return int_pow(x, y);
    } else {
      return y == C(2) ? x * x : m_pow(x, y);  // the CPU squares a single exponent of 2
    }
  }
};

struct Where {
  template <class C>
  __device__ C operator()(bool c, C x, C y) const { return c ? x : y; }
};

template <BinaryOp Op, class F>
bool run(int32_t dtype, const Operands& p, const F& f, cudaStream_t stream) {
  return binary_same<binary_dtype_mask(Op)>(dtype, p, f, stream);
}

bool run_where(int32_t dtype, const Operands& p, cudaStream_t stream) {
  return dispatch<binary_dtype_mask(BinaryOp::kWhere)>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<Where, T, bool, T, T>(p, Where{}, stream);
  });
}

}  // namespace

void launch_binary(BinaryOp op, int32_t dtype, const Operands& p, const BinaryScalars& s,
                   cudaStream_t stream) {
  if (p.numel <= 0) return;
  bool done = false;
  switch (op) {
    case BinaryOp::kAdd: done = run<BinaryOp::kAdd>(dtype, p, Add{s.alpha}, stream); break;
    case BinaryOp::kSub: done = run<BinaryOp::kSub>(dtype, p, Sub{s.alpha}, stream); break;
    case BinaryOp::kMul: done = run<BinaryOp::kMul>(dtype, p, Mul{}, stream); break;
    case BinaryOp::kDiv: done = run<BinaryOp::kDiv>(dtype, p, Div{}, stream); break;
    case BinaryOp::kMaximum:
      done = run<BinaryOp::kMaximum>(dtype, p, Pick<true>{}, stream);
      break;
    case BinaryOp::kMinimum:
      done = run<BinaryOp::kMinimum>(dtype, p, Pick<false>{}, stream);
      break;
    case BinaryOp::kPow: done = run<BinaryOp::kPow>(dtype, p, Pow{}, stream); break;
    case BinaryOp::kWhere: done = run_where(dtype, p, stream); break;
  }
  if (!done) unsupported("binary", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
