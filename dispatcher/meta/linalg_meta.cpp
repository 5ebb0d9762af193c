// Meta functions of mm, bmm, and of the composites matmul and linear (so that a backend kernel
// can override them: the core allocates the outputs).
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
         "{}: the operands must have the same dtype, got {} and {}; convert one with to_dtype",
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

// NumPy's matmul shape of a @ b (both at least 1-D) into `out`.
void matmul_shape(const char* op, const TensorImpl& a, const TensorImpl& b, OutputMeta& out) {
  if (a.ndim == 0 || b.ndim == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: both arguments need at least 1 dim, got {}-D and {}-D", op,
         a.ndim, b.ndim);
  }
  const int64_t k_a = a.shape[a.ndim - 1];
  const int64_t k_b = b.ndim == 1 ? b.shape[0] : b.shape[b.ndim - 2];
  if (k_a != k_b) {
    fail(KF_INVALID_ARGUMENT, "{}: shapes {} and {} cannot be multiplied ({} != {})", op,
         shape_string(a.shape, a.ndim), shape_string(b.shape, b.ndim), k_a, k_b);
  }
  // Broadcast the batch dims (all but the last two of each 2-D-or-more operand).
  TensorImpl batch_a{}, batch_b{};
  batch_a.ndim = a.ndim > 2 ? a.ndim - 2 : 0;
  batch_b.ndim = b.ndim > 2 ? b.ndim - 2 : 0;
  for (int32_t i = 0; i < batch_a.ndim; ++i) batch_a.shape[i] = a.shape[i];
  for (int32_t i = 0; i < batch_b.ndim; ++i) batch_b.shape[i] = b.shape[i];
  out.ndim = 0;
  broadcast_into(op, out, batch_a);
  broadcast_into(op, out, batch_b);
  if (a.ndim >= 2) out.shape[out.ndim++] = a.shape[a.ndim - 2];
  if (b.ndim >= 2) out.shape[out.ndim++] = b.shape[b.ndim - 1];
}

}  // namespace

void matmul(const CallArgs& a, MetaResult& m) {
  const TensorImpl &x = a.tensor(0), &y = a.tensor(1);
  matmul_shape("matmul", x, y, m.out[0]);
  require_same_dtype("matmul", x, y);
  m.out[0].dtype = x.dtype;
  m.compute_dtype = x.dtype;
}

void linear(const CallArgs& a, MetaResult& m) {
  const TensorImpl &x = a.tensor(0), &w = a.tensor(1);
  if (w.ndim != 1 && w.ndim != 2) {
    fail(KF_INVALID_ARGUMENT, "linear: weight must be 1-D or 2-D, got shape {}",
         shape_string(w.shape, w.ndim));
  }
  TensorImpl wt{};  // the transposed weight's shape
  wt.ndim = w.ndim;
  for (int32_t i = 0; i < w.ndim; ++i) wt.shape[i] = w.shape[w.ndim - 1 - i];
  matmul_shape("linear", x, wt, m.out[0]);
  require_same_dtype("linear", x, w);
  if (const TensorImpl* bias = a.optional_tensor(2)) {
    OutputMeta with_bias = m.out[0];
    broadcast_into("linear", with_bias, *bias);
    if (with_bias.ndim != m.out[0].ndim) {
      fail(KF_INVALID_ARGUMENT, "linear: bias of shape {} does not fit the output of shape {}",
           shape_string(bias->shape, bias->ndim), shape_string(m.out[0].shape, m.out[0].ndim));
    }
    for (int32_t i = 0; i < with_bias.ndim; ++i) {
      if (with_bias.shape[i] != m.out[0].shape[i]) {
        fail(KF_INVALID_ARGUMENT, "linear: bias of shape {} does not fit the output of shape {}",
             shape_string(bias->shape, bias->ndim), shape_string(m.out[0].shape, m.out[0].ndim));
      }
    }
    require_same_dtype("linear", x, *bias);
  }
  m.out[0].dtype = x.dtype;
  m.compute_dtype = x.dtype;
}

void mm(const CallArgs& a, MetaResult& m) {
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
}

void bmm(const CallArgs& a, MetaResult& m) {
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
}

}  // namespace kf::meta
