// The helpers the formulas of dispatcher/derivatives.yaml call (declared from the signatures
// listed there, in the generated formula_helpers.hpp): the parts of backward formulas that
// need a loop over dims or a mask, written once in kf::ops calls.
#include "formula_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "core/dtype.hpp"
#include "core/scalar_conversion.hpp"
#include "core_ops.hpp"
#include "formula_util.hpp"

namespace kf::autograd::helpers {
namespace {

using namespace formula_util;  // NOLINT(google-build-using-namespace): the shared pieces

// (M_SQRT1_2 and friends are not in standard C++, nor in MinGW's strict mode.)
constexpr double kSqrtHalf = 0.70710678118654752440;       // 1 / sqrt(2)
constexpr double kInvSqrt2Pi = 0.39894228040143267794;     // 1 / sqrt(2 pi)
constexpr double kSqrt2OverPi = 0.79788456080286535588;    // sqrt(2 / pi)

int64_t reduced_count(IntListView shape, IntListView dim) {
  const std::vector<bool> r = reduced_dims(dim, shape.len);
  int64_t n = 1;
  for (int32_t i = 0; i < shape.len; ++i) n *= r[static_cast<size_t>(i)] ? shape.data[i] : 1;
  return n;
}

IntListView all_when_empty(IntListView dim) { return dim.len == 0 ? IntListView{} : dim; }

}  // namespace

// The gradient of z -> factor z: grad times conj(factor) (Note [Complex gradients]); a real
// factor as it is.
TensorRef scale(TensorImpl& self, kf_scalar_t factor) {
  if (factor.tag == KF_SCALAR_COMPLEX128) factor.v.c128.im = -factor.v.c128.im;
  return ops::mul(self, *number(self, factor));
}

// Free for a real tensor (the same tensor, no copy): every formula of derivatives.yaml
// conjugates its derivatives through this, so that real dtypes pay nothing for it.
TensorRef conjugate(TensorImpl& self) {
  if (!is_complex_dtype(self.dtype)) {
    retain(&self);
    return TensorRef(&self);
  }
  return ops::conj(self);
}

// imag(z) = y: the gradient g of y is i g as a complex z's (0 + i g); imag of a real tensor
// is zeros, and gets none.
TensorRef imag_backward(TensorImpl& grad, kf_dtype_t dtype) {
  if (!is_complex_dtype(dtype)) return ops::zeros_like(grad);
  TensorRef g = ops::to_dtype(grad, dtype);
  return ops::mul(*g, *number(*g, kf_scalar_c128(0.0, 1.0)));
}

TensorRef affine(TensorImpl& self, kf_scalar_t a, kf_scalar_t b) {
  return ops::add(*scale(self, a), *number(self, b));
}

TensorRef sum_to(TensorImpl& grad, IntListView shape) {
  const int64_t lead = grad.ndim - shape.len;
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < grad.ndim; ++i) {
    if (i < lead || (shape.data[i - lead] == 1 && grad.shape[i] != 1)) dims.push_back(i);
  }
  if (dims.empty()) return ops::reshape(grad, shape);
  TensorRef s = ops::sum(grad, dims, true);
  return ops::reshape(*s, shape);
}

TensorRef unreduce(TensorImpl& grad, IntListView shape, IntListView dim, bool keepdim) {
  TensorRef g = ops::reshape(grad, IntListView(grad.shape, grad.ndim));
  if (!keepdim) {
    const std::vector<bool> r = reduced_dims(dim, shape.len);
    for (int32_t i = 0; i < shape.len; ++i) {
      if (r[static_cast<size_t>(i)]) g = ops::unsqueeze(*g, i);
    }
  }
  return ops::expand(*g, shape);
}

TensorRef mean_backward(TensorImpl& grad, IntListView shape, IntListView dim, bool keepdim) {
  TensorRef g = unreduce(grad, shape, dim, keepdim);
  return scale(*g, kf_scalar_f64(1.0 / static_cast<double>(reduced_count(shape, dim))));
}

TensorRef var_backward(TensorImpl& grad, TensorImpl& self, IntListView dim,
                       std::optional<kf_scalar_t> correction, bool keepdim) {
  const IntListView shape(self.shape, self.ndim);
  const double c = correction ? scalar_as_double(*correction) : 1.0;
  const double n = static_cast<double>(reduced_count(shape, dim));
  TensorRef centred = ops::sub(self, *ops::mean(self, all_when_empty(dim), true));
  TensorRef g = unreduce(grad, shape, dim, keepdim);
  return ops::mul(*g, *scale(*centred, kf_scalar_f64(2.0 / std::max(n - c, 0.0))));
}

TensorRef extreme_backward(TensorImpl& grad, TensorImpl& self, TensorImpl& result, IntListView dim,
                           bool keepdim) {
  const IntListView shape(self.shape, self.ndim);
  TensorRef hit = as_dtype_of(ops::eq(self, *unreduce(result, shape, dim, keepdim)), self);
  TensorRef count = ops::sum(*hit, all_when_empty(dim), true);
  return ops::mul(*unreduce(grad, shape, dim, keepdim), *ops::div(*hit, *count));
}

TensorRef pick_backward(TensorImpl& grad, TensorImpl& self, TensorImpl& other) {
  TensorRef above = as_dtype_of(ops::gt(self, other), grad);
  TensorRef tie = as_dtype_of(ops::eq(self, other), grad);
  return ops::mul(grad, *ops::add(*above, *tie, kf_scalar_f64(0.5)));
}

// copysign(x, y) is x or -x: the gradient is grad times result / x, and 0 where x is 0 (a
// corner the sign flips at), as PyTorch has it.
TensorRef copysign_backward(TensorImpl& grad, TensorImpl& self, TensorImpl& result) {
  TensorRef zero = number(self, 0.0);
  TensorRef safe = ops::where(*ops::eq(self, *zero), *number(self, 1.0), self);
  TensorRef ratio = ops::where(*ops::eq(self, *zero), *zero, *ops::div(result, *safe));
  return ops::mul(grad, *ratio);
}

TensorRef relu_backward(TensorImpl& grad, TensorImpl& result) {
  return ops::mul(grad, *as_dtype_of(ops::gt(result, *number(result, 0.0)), grad));
}

// d/dx of x * Phi(x) (exact), or of the tanh form (approximate).
TensorRef gelu_backward(TensorImpl& grad, TensorImpl& self, bool approximate) {
  if (!approximate) {
    TensorRef cdf = affine(*ops::erf(*scale(self, kf_scalar_f64(kSqrtHalf))), kf_scalar_f64(0.5),
                           kf_scalar_f64(0.5));
    TensorRef pdf = scale(*ops::exp(*scale(*ops::mul(self, self), kf_scalar_f64(-0.5))),
                          kf_scalar_f64(kInvSqrt2Pi));
    return ops::mul(grad, *ops::add(*cdf, *ops::mul(self, *pdf)));
  }
  const double k = kSqrt2OverPi, c = 0.044715;
  TensorRef x2 = ops::mul(self, self);
  TensorRef inner = scale(*ops::mul(self, *affine(*x2, kf_scalar_f64(c), kf_scalar_f64(1))),
                          kf_scalar_f64(k));
  TensorRef t = ops::tanh(*inner);
  TensorRef left = affine(*t, kf_scalar_f64(0.5), kf_scalar_f64(0.5));
  TensorRef sech2 = affine(*ops::mul(*t, *t), kf_scalar_f64(-1), kf_scalar_f64(1));
  TensorRef dinner = affine(*x2, kf_scalar_f64(3 * c * k), kf_scalar_f64(k));
  TensorRef right = scale(*ops::mul(self, *ops::mul(*sech2, *dinner)), kf_scalar_f64(0.5));
  return ops::mul(grad, *ops::add(*left, *right));
}

TensorRef clamp_backward(TensorImpl& grad, TensorImpl& self, std::optional<kf_scalar_t> min,
                         std::optional<kf_scalar_t> max) {
  TensorRef keep = ops::full_like(self, kf_scalar_bool(true), KF_BOOL);
  if (min) keep = ops::logical_and(*keep, *ops::ge(self, *number(self, *min)));
  if (max) keep = ops::logical_and(*keep, *ops::le(self, *number(self, *max)));
  return ops::mul(grad, *as_dtype_of(std::move(keep), grad));
}

TensorRef permute_backward(TensorImpl& grad, IntListView dims) {
  std::vector<int64_t> inverse(static_cast<size_t>(dims.len));
  for (int32_t i = 0; i < dims.len; ++i) {
    inverse[static_cast<size_t>(wrap_dim(dims.data[i], dims.len))] = i;
  }
  return ops::permute(grad, inverse);
}

TensorRef select_backward(TensorImpl& grad, IntListView shape, int64_t dim, int64_t index) {
  TensorRef z = zeros_shaped(grad, shape);
  follow_writes(*z, grad);
  ops::copy_(*ops::select(*z, dim, index), grad);
  return z;
}

TensorRef slice_backward(TensorImpl& grad, IntListView shape, int64_t dim,
                         std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  TensorRef z = zeros_shaped(grad, shape);
  follow_writes(*z, grad);
  ops::copy_(*ops::slice(*z, dim, start, end, step), grad);
  return z;
}

TensorRef diagonal_backward(TensorImpl& grad, IntListView shape, int64_t offset, int64_t dim1,
                            int64_t dim2) {
  TensorRef z = zeros_shaped(grad, shape);
  follow_writes(*z, grad);
  ops::copy_(*ops::diagonal(*z, offset, dim1, dim2), grad);
  return z;
}

}  // namespace kf::autograd::helpers
