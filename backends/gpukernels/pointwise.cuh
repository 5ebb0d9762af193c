// pointwise.cuh — the kernels every pointwise op of the GPU backends runs (unary.cu,
// rounding.cu, binary.cu, real_binary.cu, bitwise.cu, compare.cu): out[i] = f(in_1[i], ...,
// in_n[i]) for a functor f that works on compute types (device_common.cuh: float for the
// 16-bit floats), with the output converted on store. Included by *.cu files only.
//
//   pointwise::launch<F, Out, In...>(operands, f, stream)
//
// picks one of two kernels, so each (functor, dtypes) instantiates two at most:
//  - contiguous_kernel when every operand is dense row-major and aligned (Note [Vector lanes]);
//  - strided_kernel otherwise: any strides (zero for broadcast inputs, a transposed or sliced
//    output), one element per thread and step of a grid-stride loop.
// The output may alias an input exactly (in-place forms): each thread reads the elements it
// then writes, and nothing else. Also here: the wrapping integer arithmetic of the CPU backend
// (backends/cpu/elementwise.hpp), a Scalar argument in a compute type, and float/double
// overloads of the CUDA math functions (the accurate ones: no __fast intrinsics).
#pragma once

#include "gpu_vendor.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "device_common.cuh"
#include "pointwise_common.hpp"

namespace kf::cuda::pointwise {

// -------------------------------------------------------- compute helpers --

/// A Scalar argument as compute type C.
template <class C>
__device__ __forceinline__ C scalar_as(const ScalarArg& s) {
  if constexpr (std::is_same_v<C, float>) {
    return s.f32;
  } else if constexpr (std::is_same_v<C, double>) {
    return s.f64;
  } else if constexpr (std::is_same_v<C, bool>) {
    return s.b;
  } else {
    return static_cast<C>(s.i64);  // wraps like the CPU's int64 -> T conversion
  }
}

/// Unsigned type of at least int's width for T's wrapping arithmetic (no signed overflow).
template <class T>
using Wrap = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;

template <class T>
__device__ __forceinline__ T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<Wrap<T>>(a) + static_cast<Wrap<T>>(b));
}
template <class T>
__device__ __forceinline__ T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<Wrap<T>>(a) - static_cast<Wrap<T>>(b));
}
template <class T>
__device__ __forceinline__ T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<Wrap<T>>(a) * static_cast<Wrap<T>>(b));
}

template <class C>
__device__ __forceinline__ C quiet_nan() {
  return std::numeric_limits<C>::quiet_NaN();
}

// The CUDA math library in float for float and in double for double (never a silent
// promotion of a float to double, never an intrinsic).
#define KF_CUDA_MATH1(name, f32, f64)                                      \
  __device__ __forceinline__ float name(float x) { return ::f32(x); }     \
  __device__ __forceinline__ double name(double x) { return ::f64(x); }
KF_CUDA_MATH1(m_exp, expf, exp)
KF_CUDA_MATH1(m_log, logf, log)
KF_CUDA_MATH1(m_sqrt, sqrtf, sqrt)
KF_CUDA_MATH1(m_tanh, tanhf, tanh)
KF_CUDA_MATH1(m_sin, sinf, sin)
KF_CUDA_MATH1(m_cos, cosf, cos)
KF_CUDA_MATH1(m_erf, erff, erf)
KF_CUDA_MATH1(m_fabs, fabsf, fabs)
KF_CUDA_MATH1(m_floor, floorf, floor)
KF_CUDA_MATH1(m_ceil, ceilf, ceil)
KF_CUDA_MATH1(m_rint, rintf, rint)  // half to even, as std::nearbyint in the default mode
KF_CUDA_MATH1(m_trunc, truncf, trunc)
KF_CUDA_MATH1(m_tan, tanf, tan)
KF_CUDA_MATH1(m_asin, asinf, asin)
KF_CUDA_MATH1(m_acos, acosf, acos)
KF_CUDA_MATH1(m_atan, atanf, atan)
KF_CUDA_MATH1(m_sinh, sinhf, sinh)
KF_CUDA_MATH1(m_cosh, coshf, cosh)
KF_CUDA_MATH1(m_asinh, asinhf, asinh)
KF_CUDA_MATH1(m_acosh, acoshf, acosh)
KF_CUDA_MATH1(m_atanh, atanhf, atanh)
KF_CUDA_MATH1(m_expm1, expm1f, expm1)
KF_CUDA_MATH1(m_log1p, log1pf, log1p)
KF_CUDA_MATH1(m_log2, log2f, log2)
KF_CUDA_MATH1(m_log10, log10f, log10)
#undef KF_CUDA_MATH1
#define KF_CUDA_MATH2(name, f32, f64)                                                \
  __device__ __forceinline__ float name(float x, float y) { return ::f32(x, y); }   \
  __device__ __forceinline__ double name(double x, double y) { return ::f64(x, y); }
KF_CUDA_MATH2(m_pow, powf, pow)
KF_CUDA_MATH2(m_atan2, atan2f, atan2)
KF_CUDA_MATH2(m_hypot, hypotf, hypot)
KF_CUDA_MATH2(m_copysign, copysignf, copysign)
KF_CUDA_MATH2(m_nextafter, nextafterf, nextafter)
KF_CUDA_MATH2(m_fmod, fmodf, fmod)
#undef KF_CUDA_MATH2
/// A functor `Name` applying math function `fn` (one of the m_* above) to its argument.
#define KF_CUDA_MATH_FUNCTOR(Name, fn)                               \
  struct Name {                                                      \
    template <class C>                                               \
    __device__ C operator()(C x) const { return fn(x); }             \
  };
/// The same for a math function of two arguments.
#define KF_CUDA_MATH2_FUNCTOR(Name, fn)                              \
  struct Name {                                                      \
    template <class C>                                               \
    __device__ C operator()(C x, C y) const { return fn(x, y); }     \
  };

// ------------------------------------------------------------ element access --

/// The element offsets of flat index i in the N operands; one multiply per operand for the
/// common one-dimensional case (a contiguous operand that is not aligned, a strided column),
/// device_common's division loop otherwise.
template <int N>
__device__ __forceinline__ void element_offsets(const Operands& p, int64_t i,
                                                int64_t (&off)[N]) {
  if (p.ndim == 1) {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] = i * p.strides[k][0];
    return;
  }
  offsets<N>(p, i, off);
}

/// out[off[0]] = f(in_k[off[k + 1]]...), in compute types.
template <class F, class Out, class... In, size_t... K>
__device__ __forceinline__ void apply_one(const Operands& p, const F& f,
                                          const int64_t (&off)[sizeof...(In) + 1],
                                          std::index_sequence<K...>) {
  store(static_cast<Out*>(p.data[0]), off[0],
        f(load(static_cast<const In*>(p.data[K + 1]), off[K + 1])...));
}

// Note [Vector lanes]
// The contiguous kernel moves kLanes elements per operand and step, kLanes = 16 bytes over
// the widest element type of the launch: 16 bytes of the widest operand (one 128-bit load or
// store) and fewer of the narrower ones (a bool output of a float32 compare: 4 bytes). Lanes
// of operand k are aligned to sizeof(type_k) * kLanes, which launch() checks on each data
// pointer; the last numel % kLanes elements are a scalar tail. All loads of a step come before
// its store, so an output that is an input works.
template <class... T>
constexpr int max_size() {
  size_t m = 1;
  ((m = sizeof(T) > m ? sizeof(T) : m), ...);
  return static_cast<int>(m);
}
template <class... T>
constexpr int kLanes = 16 / max_size<T...>();

template <class X, int V>
struct alignas(sizeof(X) * V) Lanes {
  X v[V];
};

template <class F, class Out, class... In, size_t... K>
__device__ __forceinline__ void apply_lanes(const Operands& p, const F& f, int64_t chunk,
                                            std::index_sequence<K...>) {
  constexpr int V = kLanes<Out, In...>;
  const gpu_std::tuple<Lanes<In, V>...> in{
      static_cast<const Lanes<In, V>*>(p.data[K + 1])[chunk]...};
  Lanes<Out, V> out;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    out.v[j] = to_storage<Out>(f(load(gpu_std::get<K>(in).v, j)...));
  }
  static_cast<Lanes<Out, V>*>(p.data[0])[chunk] = out;
}

// ------------------------------------------------------------------ kernels --

template <class F, class Out, class... In>
__global__ void __launch_bounds__(kThreads) strided_kernel(Operands p, F f) {
  constexpr int N = 1 + static_cast<int>(sizeof...(In));
  for (int64_t i = global_thread(); i < p.numel; i += grid_stride()) {
    int64_t off[N];
    element_offsets<N>(p, i, off);
    apply_one<F, Out, In...>(p, f, off, std::index_sequence_for<In...>{});
  }
}

template <class F, class Out, class... In>
__global__ void __launch_bounds__(kThreads) contiguous_kernel(Operands p, F f) {
  constexpr int N = 1 + static_cast<int>(sizeof...(In));
  constexpr int V = kLanes<Out, In...>;
  const int64_t chunks = p.numel / V;
  for (int64_t c = global_thread(); c < chunks; c += grid_stride()) {
    apply_lanes<F, Out, In...>(p, f, c, std::index_sequence_for<In...>{});
  }
  for (int64_t i = chunks * V + global_thread(); i < p.numel; i += grid_stride()) {
    int64_t off[N];
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] = i;
    apply_one<F, Out, In...>(p, f, off, std::index_sequence_for<In...>{});
  }
}

// ------------------------------------------------------------------- launch --

/// Whether operand k's data is aligned to its lanes (Note [Vector lanes]).
template <class Out, class... In>
bool lanes_aligned(const Operands& p) {
  constexpr int V = kLanes<Out, In...>;
  constexpr size_t bytes[] = {sizeof(Out) * V, sizeof(In) * V...};
  for (size_t k = 0; k < sizeof(bytes) / sizeof(bytes[0]); ++k) {
    if (reinterpret_cast<uintptr_t>(p.data[k]) % bytes[k] != 0) return false;
  }
  return true;
}

/// Queues out = f(in...) over the operands of `p` (output first) on `stream`; nothing for
/// zero elements. Out and In are storage types (device_common.cuh's Storage).
template <class F, class Out, class... In>
void launch(const Operands& p, const F& f, cudaStream_t stream) {
  if (p.numel <= 0) return;
  if (p.contiguous && lanes_aligned<Out, In...>(p)) {
    constexpr int V = kLanes<Out, In...>;
    contiguous_kernel<F, Out, In...><<<blocks_for(p.numel, V), kThreads, 0, stream>>>(p, f);
  } else {
    strided_kernel<F, Out, In...><<<blocks_for(p.numel), kThreads, 0, stream>>>(p, f);
  }
}

/// Whether output and input 1 are the same elements (an identity in place has nothing to do).
inline bool same_place(const Operands& p) {
  if (p.data[0] != p.data[1]) return false;
  for (int d = 0; d < p.ndim; ++d) {
    if (p.strides[0][d] != p.strides[1][d]) return false;
  }
  return true;
}

/// A launcher's answer to a dtype outside the op's mask. The host glue checks the mask before
/// it launches, so this is a broken invariant (the trampoline reports KF_INTERNAL).
[[noreturn]] inline void unsupported(const char* family, int op, int dtype) {
  throw std::logic_error(std::string(KF_GPU_VENDOR " ") + family + " launcher: op " +
                         std::to_string(op) + " has no kernel for dtype " +
                         kf_dtype_string(dtype));
}

/// Launches f over the operands for `dtype` when it is in Mask, as out = f(in) with output
/// and input of that dtype; returns whether it was.
template <uint32_t Mask, class F>
bool unary_same(int dtype, const Operands& p, const F& f, cudaStream_t stream) {
  return dispatch<Mask>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<F, T, T>(p, f, stream);
  });
}

/// out = f(self, other), all of one dtype, when `dtype` is in Mask; returns whether it was.
template <uint32_t Mask, class F>
bool binary_same(int dtype, const Operands& p, const F& f, cudaStream_t stream) {
  return dispatch<Mask>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<F, T, T, T>(p, f, stream);
  });
}

/// unary_same with the identity functor Id (floor of an integer, abs of a bool, ...): nothing
/// to queue when the output is the input itself. Each .cu file passes an Id of its own
/// anonymous namespace, so no two files instantiate the same kernel.
template <uint32_t Mask, class Id>
bool identity(int dtype, const Operands& p, cudaStream_t stream) {
  if (dtype < 0 || dtype >= KF_DTYPE_COUNT || (Mask & dtype_bit(dtype)) == 0u) return false;
  if (same_place(p)) return true;
  return unary_same<Mask>(dtype, p, Id{}, stream);
}

}  // namespace kf::cuda::pointwise
