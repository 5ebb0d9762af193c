// The gradients of the FFT ops (helpers declared in derivatives.yaml), in kf::ops calls so that
// a double backward differentiates through them. Note [FFT gradients]: with the complex
// convention of Note [Complex gradients], the gradient of a linear map is its adjoint applied
// to grad.
// - fft_c2c is y = s F x over dim (F the DFT, its sign set by forward, s a real scale): the
//   adjoint s F^H is the transform of the other direction with the same scale.
// - fft_r2c keeps the n // 2 + 1 non-negative frequencies of the last dim: grad is zero-padded
//   to n there, transformed back, and its real part taken (the input is real).
// - fft_c2r reads its input as the non-negative half of a Hermitian spectrum: frequency k
//   with a mirror (0 < k <= n - (n // 2 + 1)) enters the output twice, as itself and
//   conjugated at n - k, so its gradient (the forward real transform of grad) is doubled; the
//   zero frequency, and for an even n the Nyquist one, enter once, by their real parts.
#include <vector>

#include "core_ops.hpp"
#include "formula_helpers.hpp"

namespace kf::autograd::helpers {
namespace {

int64_t last_dim(IntListView dim, int64_t ndim) {
  const int64_t d = dim.data[dim.len - 1];
  return d < 0 ? d + ndim : d;
}

// shape with its entry at `at` set to n.
std::vector<int64_t> with_size(IntListView shape, int64_t at, int64_t n) {
  std::vector<int64_t> out(shape.data, shape.data + shape.len);
  out[static_cast<size_t>(at)] = n;
  return out;
}

// g zero-padded (or trimmed) along dim to n entries.
TensorRef resized(TensorRef g, int64_t dim, int64_t n) {
  const int64_t m = g->shape[dim];
  if (m == n) return g;
  if (m > n) return ops::slice(*g, dim, 0, n);
  const std::vector<int64_t> shape = with_size(IntListView(g->shape, g->ndim), dim, n);
  return slice_backward(*g, IntListView(shape.data(), static_cast<int32_t>(shape.size())), dim,
                        0, m, 1);
}

}  // namespace

TensorRef fft_c2c_backward(TensorImpl& grad, IntListView dim, bool forward, double scale) {
  return ops::fft_c2c(grad, dim, !forward, scale);
}

TensorRef fft_r2c_backward(TensorImpl& grad, IntListView dim, double scale, IntListView shape) {
  const int64_t last = last_dim(dim, grad.ndim);
  retain(&grad);
  TensorRef full = resized(TensorRef(&grad), last, shape.data[last]);
  return ops::real(*ops::fft_c2c(*full, dim, false, scale));
}

TensorRef fft_c2r_backward(TensorImpl& grad, IntListView dim, double scale, IntListView shape) {
  const int64_t last = last_dim(dim, grad.ndim);
  const int64_t n = grad.shape[last];
  TensorRef g = ops::fft_r2c(grad, dim, scale);
  const int64_t mirrored = n - g->shape[last];  // frequencies 1 .. mirrored appear twice
  if (mirrored > 0) {
    TensorRef twice = ops::slice(*g, last, 1, 1 + mirrored);
    g = ops::add(*g, *slice_backward(*twice, IntListView(g->shape, g->ndim), last, 1,
                                     1 + mirrored, 1));
  }
  return resized(std::move(g), last, shape.data[last]);
}

}  // namespace kf::autograd::helpers
