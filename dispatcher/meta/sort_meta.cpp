// Meta functions of the sorting and searching ops: sort and argsort (self's shape; the values
// or int64 positions), nonzero_static ([size, ndim] int64) and searchsorted (the values' shape,
// int64; both inputs compared in their promoted dtype). Complex dtypes have no order: they are
// refused here, naming the op and the dtype.
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

void require_ordered(const char* op, const char* what, kf_dtype_t d) {
  if (is_complex_dtype(d)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} is {}, and complex numbers have no order; sort the real "
         "parts (real) or the magnitudes (abs) instead", op, what, dtype_name(d));
  }
}

void along_dim(const CallArgs& a, MetaResult& m, kf_dtype_t out_dtype) {
  const TensorImpl& self = a.tensor(0);
  require_ordered(a.name(), "self", self.dtype);
  wrap_dim(a.name(), a.int_arg(1), self.ndim);  // throws naming the dim and the valid range
  same_shape(self, m.out[0]);
  m.out[0].dtype = out_dtype;
  m.compute_dtype = self.dtype;
}

}  // namespace

// sort(self, dim, descending, stable): self's shape and dtype.
void sort(const CallArgs& a, MetaResult& m) { along_dim(a, m, a.tensor(0).dtype); }

// argsort(self, dim, descending, stable): self's shape, int64.
void argsort(const CallArgs& a, MetaResult& m) { along_dim(a, m, KF_INT64); }

// nonzero_static(self, size, fill_value): [size, ndim] int64; size >= 0.
void nonzero_static(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const int64_t size = a.int_arg(1);
  if (size < 0) {
    fail(KF_INVALID_ARGUMENT, "{}: size must be >= 0, got {}", a.name(), size);
  }
  m.out[0].ndim = 2;
  m.out[0].shape[0] = size;
  m.out[0].shape[1] = self.ndim;
  m.out[0].dtype = KF_INT64;
  m.compute_dtype = self.dtype;
}

// searchsorted(sorted_sequence, self, right): self's shape, int64. The sequence is 1-D; both
// are compared in their promoted dtype (converted by the core).
void searchsorted(const CallArgs& a, MetaResult& m) {
  const TensorImpl& seq = a.tensor(0);
  const TensorImpl& self = a.tensor(1);
  if (seq.ndim != 1) {
    fail(KF_INVALID_ARGUMENT, "{}: sorted_sequence must be 1-D, got {} dims (shape {}); search "
         "each row separately", a.name(), seq.ndim, shape_string(seq.shape, seq.ndim));
  }
  require_ordered(a.name(), "sorted_sequence", seq.dtype);
  require_ordered(a.name(), "self", self.dtype);
  const TensorImpl* both[2] = {&seq, &self};
  m.compute_dtype = result_type(a.name(), both, 2);
  m.convert_mask = 0x3;
  same_shape(self, m.out[0]);
  m.out[0].dtype = KF_INT64;
}

}  // namespace kf::meta
