// Composite normalisations layer_norm and rms_norm, written from mean, sub, mul, add, sqrt and
// div. Their meta rules (meta/norm_meta.cpp) have checked the input, normalized_shape, weight
// and bias before these run; a backend kernel (the CPU's fused norm_kernels.cpp) overrides them.
//
// Note [Norms in the compute type]
// As PyTorch, float16 and bfloat16 inputs are normalised in float32 (the statistics, the
// normalisation and the affine step) and rounded to their dtype once at the end; float32 and
// float64 are computed in their own dtype. The statistics reduce over the trailing
// normalized_shape.len dims with keepdim, so they broadcast back over the input.
#include <limits>
#include <optional>
#include <vector>

#include "core/dtype.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

kf_dtype_t compute_dtype_of(kf_dtype_t d) {
  return d == KF_FLOAT16 || d == KF_BFLOAT16 ? KF_FLOAT32 : d;
}

TensorRef borrow(TensorImpl& t) {
  retain(&t);
  return TensorRef(&t);
}

TensorRef as_dtype(TensorImpl& t, kf_dtype_t d) {
  return t.dtype == d ? borrow(t) : ops::to_dtype(t, d);
}

// The trailing n dims, as negative dims: [-n, ..., -1].
std::vector<int64_t> trailing_dims(int32_t n) {
  std::vector<int64_t> dims;
  for (int32_t i = n; i >= 1; --i) dims.push_back(-i);
  return dims;
}

// x / sqrt(stat + eps), all in x's dtype.
TensorRef normalise(TensorImpl& x, TensorImpl& stat, double eps) {
  TensorRef e = ops::full(IntListView(), kf_scalar_f64(eps), x.dtype, x.device);
  TensorRef denom = ops::sqrt(*ops::add(stat, *e));
  return ops::div(x, *denom);
}

// y * weight (+ bias), in y's dtype, then y rounded to `out` (Note [Norms in the compute type]).
TensorRef affine(TensorRef y, TensorImpl* weight, TensorImpl* bias, kf_dtype_t out) {
  if (weight != nullptr) y = ops::mul(*y, *as_dtype(*weight, y->dtype));
  if (bias != nullptr) y = ops::add(*y, *as_dtype(*bias, y->dtype));
  return y->dtype == out ? std::move(y) : ops::to_dtype(*y, out);
}

}  // namespace

void layer_norm(const CallArgs& a, TensorRef* outs) {
  TensorImpl& input = a.tensor(0);
  TensorRef x = as_dtype(input, compute_dtype_of(input.dtype));
  const std::vector<int64_t> dims = trailing_dims(a.ints(1).len);
  TensorRef mean = ops::mean(*x, dims, true);
  TensorRef centred = ops::sub(*x, *mean);
  TensorRef var = ops::mean(*ops::mul(*centred, *centred), dims, true);  // biased, as PyTorch
  TensorRef y = normalise(*centred, *var, a.float_arg(4));
  outs[0] = affine(std::move(y), a.optional_tensor(2), a.optional_tensor(3), input.dtype);
}

// eps None: the machine epsilon of the compute type (float32's for float32, float16 and
// bfloat16; float64's for float64), as PyTorch's rms_norm.
void rms_norm(const CallArgs& a, TensorRef* outs) {
  TensorImpl& input = a.tensor(0);
  const kf_dtype_t c = compute_dtype_of(input.dtype);
  TensorRef x = as_dtype(input, c);
  const double eps = !a.none(3)                ? a.float_arg(3)
                     : c == KF_FLOAT64 ? std::numeric_limits<double>::epsilon()
                                       : double{std::numeric_limits<float>::epsilon()};
  TensorRef ms = ops::mean(*ops::mul(*x, *x), trailing_dims(a.ints(1).len), true);
  TensorRef y = normalise(*x, *ms, eps);
  outs[0] = affine(std::move(y), a.optional_tensor(2), nullptr, input.dtype);
}

}  // namespace kf::composite
