// Meta functions of the indexing ops: index_select, gather, index_copy_, index_add_ and
// scatter_add_ (index dtypes and shapes; the index values are checked by the kernels, which
// read them), masked_select_static and fill_ (the value must be one of the tensor's dtype, Note [Scalars
// to dtypes]).
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/scalar_conversion.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

// A dim of a tensor of `ndim` dims read as PyTorch does, a 0-dim tensor as one of size 1.
int64_t size_at(const TensorImpl& t, int32_t d) { return t.ndim == 0 ? 1 : t.shape[d]; }

// An index_select/index_copy_ index: int64 or int32, 0-dim or 1-D; its number of values.
int64_t index_count(const char* op, const TensorImpl& index) {
  if (index.dtype != KF_INT64 && index.dtype != KF_INT32) {
    fail(KF_INVALID_ARGUMENT, "{}: index must be int64 or int32, got {}", op,
         dtype_name(index.dtype));
  }
  if (index.ndim > 1) {
    fail(KF_INVALID_ARGUMENT, "{}: index must be 0-dim or 1-D, got {} dims (shape {})", op,
         index.ndim, shape_string(index.shape, index.ndim));
  }
  return index.ndim == 0 ? 1 : index.shape[0];
}

}  // namespace

// index_select(self, dim, index): index int64 or int32, 0-dim or 1-D; the output is self with
// size index.numel() along dim (a 0-dim self takes an index of one element).
void index_select(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const int64_t count = index_count("index_select", a.tensor(2));
  const int32_t dim = wrap_dim("index_select", a.int_arg(1), self.ndim);
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

namespace {

// index_copy_ and index_add_(self, dim, index, source): index as index_select's; source has
// self's dtype and self's shape with index's length along dim (a 0-dim self takes one index
// and a 0-dim source).
void index_write(const char* op, const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const TensorImpl& source = a.tensor(3);
  const int64_t count = index_count(op, a.tensor(2));
  const int32_t dim = wrap_dim(op, a.int_arg(1), self.ndim);
  if (source.dtype != self.dtype) {
    fail(KF_INVALID_ARGUMENT, "{}: source is {} but self is {}; convert source to self's dtype "
         "first (to_dtype)", op, dtype_name(source.dtype), dtype_name(self.dtype));
  }
  bool fits = source.ndim == self.ndim && (self.ndim > 0 || count == 1);
  for (int32_t d = 0; fits && d < self.ndim; ++d) {
    fits = source.shape[d] == (d == dim ? count : self.shape[d]);
  }
  if (!fits) {
    fail(KF_INVALID_ARGUMENT, "{}: source has shape {} but self {} with an index of {} values "
         "along dim {} takes a source of self's shape with {} at that dim", op,
         shape_string(source.shape, source.ndim), shape_string(self.shape, self.ndim), count,
         dim, count);
  }
  same_shape(self, m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

}  // namespace

void index_copy(const CallArgs& a, MetaResult& m) { index_write("index_copy_", a, m); }

void index_add(const CallArgs& a, MetaResult& m) {
  if (a.tensor(0).dtype == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "index_add_: self is bool, which has no sum; use index_copy_ or "
         "a numeric dtype");
  }
  index_write("index_add_", a, m);
}

// scatter_add_(self, dim, index, src): gather's adjoint. src has self's dtype (not bool) and
// self's number of dims; index is int64 with that many dims (0-dim counts as one), no larger
// than src in any dim and no larger than self outside dim. The output is self's shape.
void scatter_add(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const TensorImpl& index = a.tensor(2);
  const TensorImpl& src = a.tensor(3);
  if (self.dtype == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "scatter_add_: self is bool, which has no sum; use a numeric dtype");
  }
  if (src.dtype != self.dtype) {
    fail(KF_INVALID_ARGUMENT, "scatter_add_: src is {} but self is {}; convert src to self's "
         "dtype first (to_dtype)", dtype_name(src.dtype), dtype_name(self.dtype));
  }
  if (index.dtype != KF_INT64) {
    fail(KF_INVALID_ARGUMENT, "scatter_add_: index must be int64, got {}", dtype_name(index.dtype));
  }
  const int32_t snd = self.ndim > 0 ? self.ndim : 1;
  if ((index.ndim > 0 ? index.ndim : 1) != snd || (src.ndim > 0 ? src.ndim : 1) != snd) {
    fail(KF_INVALID_ARGUMENT, "scatter_add_: self {}, index {} and src {} must have the same "
         "number of dims", shape_string(self.shape, self.ndim),
         shape_string(index.shape, index.ndim), shape_string(src.shape, src.ndim));
  }
  const int32_t dim = wrap_dim("scatter_add_", a.int_arg(1), self.ndim);
  for (int32_t d = 0; d < snd; ++d) {
    const bool too_big = size_at(index, d) > size_at(src, d) ||
                         (d != dim && size_at(index, d) > size_at(self, d));
    if (too_big) {
      fail(KF_INVALID_ARGUMENT, "scatter_add_: index has size {} at dim {} (index {}, src {}, "
           "self {}); the index may be no larger than src in any dim, nor than self outside dim {}",
           size_at(index, d), d, shape_string(index.shape, index.ndim),
           shape_string(src.shape, src.ndim), shape_string(self.shape, self.ndim), dim);
    }
  }
  same_shape(self, m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

// masked_select_static(self, mask, size): mask bool of self's shape; a 1-D output of size
// elements of self's dtype.
void masked_select_static(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const TensorImpl& mask = a.tensor(1);
  const int64_t size = a.int_arg(2);
  if (mask.dtype != KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "{}: mask must be bool, got {}; compare it with 0 first (ne)",
         a.name(), dtype_name(mask.dtype));
  }
  bool same = mask.ndim == self.ndim;
  for (int32_t d = 0; same && d < self.ndim; ++d) same = mask.shape[d] == self.shape[d];
  if (!same) {
    fail(KF_INVALID_ARGUMENT, "{}: mask has shape {} but self {}; they must have one shape "
         "(masked_select broadcasts them)", a.name(), shape_string(mask.shape, mask.ndim),
         shape_string(self.shape, self.ndim));
  }
  if (size < 0) fail(KF_INVALID_ARGUMENT, "{}: size must be >= 0, got {}", a.name(), size);
  m.out[0].ndim = 1;
  m.out[0].shape[0] = size;
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

// fill_(self, value): self's shape and dtype; the value must be one of the dtype's (Note
// [Scalars to dtypes]: integers within range after truncation, no NaN or infinity; floats up to
// the largest finite value).
void fill(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  (void)scalar_to_dtype(a.scalar(1), self.dtype, "fill_", "value");
  same_shape(self, m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

}  // namespace kf::meta
