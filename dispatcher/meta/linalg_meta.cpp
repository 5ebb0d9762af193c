// Meta functions of mm and bmm.
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

void require_dims(const char* op, const char* name, const TensorImpl& t, int32_t nd) {
  if (t.ndim != nd) {
    fail(KF_INVALID_ARGUMENT, "{}: {} must be a {}-D tensor, got {}-D of shape {}", op, name, nd,
         t.ndim, shape_string(t.shape, t.ndim));
  }
}

void require_same_dtype(const char* op, const TensorImpl& a, const TensorImpl& b) {
  if (a.dtype != b.dtype) {
    fail(KF_INVALID_ARGUMENT,
         "{}: self and mat2 must have the same dtype, got {} and {}; convert one with to_dtype",
         op, dtype_name(a.dtype), dtype_name(b.dtype));
  }
}

void require_inner(const char* op, const TensorImpl& a, const TensorImpl& b, int32_t ia,
                   int32_t ib) {
  if (a.shape[ia] != b.shape[ib]) {
    fail(KF_INVALID_ARGUMENT, "{}: shapes {} and {} cannot be multiplied ({} != {})", op,
         shape_string(a.shape, a.ndim), shape_string(b.shape, b.ndim), a.shape[ia], b.shape[ib]);
  }
}

}  // namespace

kf_status_t mm(const CallArgs& a, MetaResult& m) {
  const TensorImpl &x = a.tensor(0), &y = a.tensor(1);
  require_dims("mm", "self", x, 2);
  require_dims("mm", "mat2", y, 2);
  require_same_dtype("mm", x, y);
  require_inner("mm", x, y, 1, 0);
  m.out[0].ndim = 2;
  m.out[0].shape[0] = x.shape[0];
  m.out[0].shape[1] = y.shape[1];
  m.out[0].dtype = x.dtype;
  m.compute_dtype = x.dtype;
  return KF_OK;
}

kf_status_t bmm(const CallArgs& a, MetaResult& m) {
  const TensorImpl &x = a.tensor(0), &y = a.tensor(1);
  require_dims("bmm", "self", x, 3);
  require_dims("bmm", "mat2", y, 3);
  require_same_dtype("bmm", x, y);
  if (x.shape[0] != y.shape[0]) {
    fail(KF_INVALID_ARGUMENT, "bmm: batch sizes differ: shapes {} and {}",
         shape_string(x.shape, 3), shape_string(y.shape, 3));
  }
  require_inner("bmm", x, y, 2, 1);
  m.out[0].ndim = 3;
  m.out[0].shape[0] = x.shape[0];
  m.out[0].shape[1] = x.shape[1];
  m.out[0].shape[2] = y.shape[2];
  m.out[0].dtype = x.dtype;
  m.compute_dtype = x.dtype;
  return KF_OK;
}

}  // namespace kf::meta
