// elementwise.hpp — helpers shared by the pointwise kernel files: input dtype checks,
// wrapping integer arithmetic (no signed-overflow UB, PyTorch's two's-complement results) and
// same-dtype maps that compute 16-bit floats in float.
#pragma once

#include <string>
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "strided.hpp"

namespace kf::cpu {

/// Throws KF_INTERNAL when the core handed over a tensor of another dtype than promised.
inline void require_dtype(const kf_tensor_view_t& v, int32_t dtype, const char* what,
                          const char* op) {
  if (v.dtype != dtype) {
    throw kf::plugin::KernelError(
        KF_INTERNAL, std::string(what) + " has dtype " + dtype_name(v.dtype) + ", expected " +
                         dtype_name(dtype) + " (cpu " + op + ")");
  }
}

/// Unsigned type of at least int's width for T's wrapping arithmetic.
template <class T>
using Wrap = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;

template <class T>
inline T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<Wrap<T>>(a) + static_cast<Wrap<T>>(b));
}
template <class T>
inline T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<Wrap<T>>(a) - static_cast<Wrap<T>>(b));
}
template <class T>
inline T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<Wrap<T>>(a) * static_cast<Wrap<T>>(b));
}

/// out = f(a) for out and a of dtype T; f works on OpMath<T>.
template <class T, class F>
void unary_same(const kf_tensor_view_t& out, const kf_tensor_view_t& a, F f) {
  if constexpr (is_half_v<T>) {
    map1<T, T>(out, a, [f](T x) { return convert<T>(f(load(x))); });
  } else {
    map1<T, T>(out, a, f);
  }
}

/// out = f(a, b) for out, a and b of dtype T; f works on OpMath<T>.
template <class T, class F>
void binary_same(const kf_tensor_view_t& out, const kf_tensor_view_t& a,
                 const kf_tensor_view_t& b, F f) {
  if constexpr (is_half_v<T>) {
    map2<T, T, T>(out, a, b, [f](T x, T y) { return convert<T>(f(load(x), load(y))); });
  } else {
    map2<T, T, T>(out, a, b, f);
  }
}

}  // namespace kf::cpu
