// Meta functions of the indexing ops: index_select and gather (index dtypes and shapes; the
// index values are checked by the kernels, which read them) and fill_ (the value must fit the
// tensor's dtype, as PyTorch's checked scalar conversion requires).
#include <cmath>
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

// A dim of a tensor of `ndim` dims read as PyTorch does, a 0-dim tensor as one of size 1.
int64_t size_at(const TensorImpl& t, int32_t d) { return t.ndim == 0 ? 1 : t.shape[d]; }

void fits_integral(kf_dtype_t d, double v, const kf_scalar_t& s) {
  double lo = 0, hi = 0;
  switch (d) {
    case KF_INT8: lo = -128; hi = 127; break;
    case KF_UINT8: lo = -255; hi = 255; break;  // negatives wrap, as PyTorch allows
    case KF_INT16: lo = -32768; hi = 32767; break;
    case KF_INT32: lo = -2147483648.0; hi = 2147483647.0; break;
    default: lo = -9223372036854775808.0; hi = 9223372036854775807.0; break;
  }
  if (s.tag == KF_SCALAR_INT64 && d == KF_INT64) return;
  const bool ok = s.tag == KF_SCALAR_INT64
                      ? static_cast<double>(s.v.i64) >= lo && static_cast<double>(s.v.i64) <= hi
                      : std::isfinite(v) && v > lo - 1.0 && v < hi + 1.0;  // truncates first
  // (for int64, lo - 1 and hi + 1 round to -2^63 and 2^63: -2^63 itself is refused, a
  // harmless corner)
  if (!ok) {
    fail(KF_INVALID_ARGUMENT, "fill_: value {} cannot be converted to {} without overflow "
         "(the dtype holds {}..{})", v, dtype_name(d), lo, hi);
  }
}

double float_max(kf_dtype_t d) {
  switch (d) {
    case KF_FLOAT16: return 65504.0;
    case KF_BFLOAT16: return 3.3895313892515355e38;
    case KF_FLOAT32: return 3.4028234663852886e38;
    default: return 1.7976931348623157e308;
  }
}

void fits_floating(kf_dtype_t d, double v) {
  if (std::isfinite(v) && std::fabs(v) > float_max(d)) {
    fail(KF_INVALID_ARGUMENT, "fill_: value {} cannot be converted to {} without overflow "
         "(largest finite value {})", v, dtype_name(d), float_max(d));
  }
}

}  // namespace

// index_select(self, dim, index): index int64 or int32, 0-dim or 1-D; the output is self with
// size index.numel() along dim (a 0-dim self takes an index of one element).
void index_select(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const TensorImpl& index = a.tensor(2);
  if (index.dtype != KF_INT64 && index.dtype != KF_INT32) {
    fail(KF_INVALID_ARGUMENT, "index_select: index must be int64 or int32, got {}",
         dtype_name(index.dtype));
  }
  if (index.ndim > 1) {
    fail(KF_INVALID_ARGUMENT, "index_select: index must be 0-dim or 1-D, got {} dims (shape {})",
         index.ndim, shape_string(index.shape, index.ndim));
  }
  const int32_t dim = wrap_dim("index_select", a.int_arg(1), self.ndim);
  int64_t count = 1;
  for (int32_t i = 0; i < index.ndim; ++i) count *= index.shape[i];
  if (self.ndim == 0 && count != 1) {
    fail(KF_INVALID_ARGUMENT, "index_select: a 0-dim self takes an index of exactly one value, "
         "got {}", count);
  }
  same_shape(self, m.out[0]);
  if (self.ndim > 0) m.out[0].shape[dim] = count;
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

// gather(self, dim, index): index int64 with self's number of dims (0-dim and 1-D count as
// one), no larger than self in any dim but dim; the output has index's shape.
void gather(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const TensorImpl& index = a.tensor(2);
  if (index.dtype != KF_INT64) {
    fail(KF_INVALID_ARGUMENT, "gather: index must be int64, got {}", dtype_name(index.dtype));
  }
  const int32_t snd = self.ndim > 0 ? self.ndim : 1, ind = index.ndim > 0 ? index.ndim : 1;
  if (snd != ind) {
    fail(KF_INVALID_ARGUMENT, "gather: index has {} dims (shape {}) but self has {} (shape {}); "
         "they must have the same number of dims", index.ndim,
         shape_string(index.shape, index.ndim), self.ndim, shape_string(self.shape, self.ndim));
  }
  const int32_t dim = wrap_dim("gather", a.int_arg(1), self.ndim);
  for (int32_t d = 0; d < snd; ++d) {
    if (d != dim && size_at(index, d) > size_at(self, d)) {
      fail(KF_INVALID_ARGUMENT, "gather: index has size {} at dim {} but self has only {} "
           "(index {}, self {}); outside dim {} the index may not be larger than self",
           size_at(index, d), d, size_at(self, d), shape_string(index.shape, index.ndim),
           shape_string(self.shape, self.ndim), dim);
    }
  }
  same_shape(index, m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

// fill_(self, value): self's shape and dtype; the value must be representable (integers:
// within range after truncation, no NaN or infinity; floats: finite values within range).
void fill(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const kf_scalar_t s = a.scalar(1);
  const double v = s.tag == KF_SCALAR_INT64 ? static_cast<double>(s.v.i64)
                   : s.tag == KF_SCALAR_BOOL ? (s.v.b ? 1.0 : 0.0) : s.v.f64;
  if (is_integral(self.dtype, false) && s.tag != KF_SCALAR_BOOL) fits_integral(self.dtype, v, s);
  if (is_floating(self.dtype)) fits_floating(self.dtype, v);
  same_shape(self, m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

}  // namespace kf::meta
