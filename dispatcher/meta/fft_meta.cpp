// Meta functions of the discrete Fourier transforms (fft_c2c, fft_r2c, fft_c2r): the dims are
// in range and named once, and there is at least one; the dtypes are the ones the transforms
// compute in (complex64 / complex128, or float32 / float64 for the real side), anything else is
// an error that says what to convert to. The shapes follow from the input's and, for c2r, from
// last_dim_size alone.
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

/// The transformed dims of argument 1: at least one, each in range and named once; returns
/// the last of them, wrapped (the one a real transform halves).
int32_t transformed_dims(const CallArgs& a, const TensorImpl& x) {
  const IntListView dims = a.ints(1);
  if (x.ndim == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: a 0-dim tensor has no dimension to transform; give it one "
         "(reshape to [1])", a.name());
  }
  if (dims.len == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: dim names no dimension; give at least one to transform",
         a.name());
  }
  bool named[KF_MAX_NDIM];
  reduced_dims(a.name(), &dims, x.ndim, named);  // throws on a bad or repeated dim
  return wrap_dim(a.name(), dims.data[dims.len - 1], x.ndim);
}

void require_complex(const char* op, kf_dtype_t d) {
  if (d == KF_COMPLEX64 || d == KF_COMPLEX128) return;
  fail(KF_INVALID_ARGUMENT,
       "{}: {} input is not supported; it transforms complex64 or complex128: convert it "
       "first (to_dtype)", op, dtype_name(d));
}

void require_real(const char* op, kf_dtype_t d) {
  if (d == KF_FLOAT32 || d == KF_FLOAT64) return;
  fail(KF_INVALID_ARGUMENT,
       "{}: {} input is not supported; it transforms float32 or float64 (a complex input "
       "goes to fft_c2c): convert it first (to_dtype)", op, dtype_name(d));
}

}  // namespace

// fft_c2c(self, dim, forward, scale): self's shape and dtype.
void fft_c2c(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_complex(a.name(), x.dtype);
  transformed_dims(a, x);
  same_shape(x, m.out[0]);
  m.out[0].dtype = x.dtype;
  m.compute_dtype = x.dtype;
}

// fft_r2c(self, dim, scale): the last transformed dim keeps n // 2 + 1 entries; complex out.
void fft_r2c(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_real(a.name(), x.dtype);
  const int32_t last = transformed_dims(a, x);
  same_shape(x, m.out[0]);
  m.out[0].shape[last] = x.shape[last] / 2 + 1;
  m.out[0].dtype = x.dtype == KF_FLOAT32 ? KF_COMPLEX64 : KF_COMPLEX128;
  m.compute_dtype = x.dtype;
}

// fft_c2r(self, dim, last_dim_size, scale): the last transformed dim must hold
// last_dim_size // 2 + 1 entries and becomes last_dim_size long; real out.
void fft_c2r(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_complex(a.name(), x.dtype);
  const int32_t last = transformed_dims(a, x);
  const int64_t n = a.int_arg(2);
  if (n < 1) {
    fail(KF_INVALID_ARGUMENT, "{}: last_dim_size must be at least 1, got {}", a.name(), n);
  }
  if (x.shape[last] != n / 2 + 1) {
    fail(KF_INVALID_ARGUMENT,
         "{}: dim {} holds {} entries, but a real output of last_dim_size {} takes its "
         "{} non-negative frequencies: trim or zero-pad the input to that length first",
         a.name(), last, x.shape[last], n, n / 2 + 1);
  }
  same_shape(x, m.out[0]);
  m.out[0].shape[last] = n;
  m.out[0].dtype = complex_part_dtype(x.dtype);
  m.compute_dtype = x.dtype;
}

}  // namespace kf::meta
