// unary_map.hpp — the shared body of the same-dtype unary kernels of the newer pointwise
// files (math, activation, rounding): checks that the input has the output's dtype, picks
// the element type from the mask and maps `fn` over the elements in OpMath<T> (float for the
// 16-bit floats). `fn` is a generic callable; it sees OpMath<T> and returns a value of it.
#pragma once

#include <cstdint>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "strided.hpp"

namespace kf::cpu {

template <uint32_t Mask, class Fn>
void unary_map(const kf_tensor_view_t& self, const kf_tensor_view_t& out, const char* op,
               Fn fn) {
  require_dtype(self, out.dtype, "self", op);
  dispatch<Mask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = OpMath<T>;
    unary_same<T>(out, self, [fn](M x) { return static_cast<M>(fn(x)); });
  });
}

}  // namespace kf::cpu
