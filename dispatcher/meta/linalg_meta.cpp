// Meta functions of mm, bmm, and of the composites matmul, linear and addmm (so that a backend
// kernel can override them: the core allocates the outputs).
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/scalar_conversion.hpp"
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

// PyTorch refuses a floating-point alpha or beta for an integer addmm (it could not be applied
// exactly), naming the argument; otherwise it must be a value of the dtype (Note [Scalars to
// dtypes]).
void require_integral_scalar(const char* op, const char* name, const kf_scalar_t& s,
                             kf_dtype_t d) {
  if (is_integral(d, false) && s.tag == KF_SCALAR_FLOAT64) {
    fail(KF_INVALID_ARGUMENT,
         "{}: {}={} is a floating-point number but the inputs are {}; for integer inputs {} "
         "must be an integer", op, name, s.v.f64, dtype_name(d), name);
  }
  (void)scalar_to_dtype(s, d, op, name);
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

// addmm(self, mat1, mat2, beta, alpha): mat1 [n, k] @ mat2 [k, m], self broadcast to [n, m]
// (never beyond), all three of one dtype (not bool). Self is marked for broadcasting so that a
// kernel sees it as [n, m] (stride 0 along the broadcast dims).
void addmm(const CallArgs& a, MetaResult& m) {
  const TensorImpl &self = a.tensor(0), &x = a.tensor(1), &y = a.tensor(2);
  require_dims("addmm", "mat1", x, 2);
  require_dims("addmm", "mat2", y, 2);
  require_same_dtype("addmm", x, y);
  if (self.dtype != x.dtype) {
    fail(KF_INVALID_ARGUMENT,
         "addmm: self is {} but mat1 and mat2 are {}; all three must have one dtype (convert "
         "self with to_dtype)", dtype_name(self.dtype), dtype_name(x.dtype));
  }
  if (x.dtype == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "addmm: bool matrices are not supported; convert them to an "
         "integer or floating-point dtype first");
  }
  require_inner("addmm", x, y, 1, 0);
  require_integral_scalar("addmm", "beta", a.scalar(3), x.dtype);
  require_integral_scalar("addmm", "alpha", a.scalar(4), x.dtype);
  OutputMeta& o = m.out[0];
  o.ndim = 2;
  o.shape[0] = x.shape[0];
  o.shape[1] = y.shape[1];
  OutputMeta with_self = o;
  broadcast_into("addmm", with_self, self);
  if (with_self.ndim != 2 || with_self.shape[0] != o.shape[0] ||
      with_self.shape[1] != o.shape[1]) {
    fail(KF_INVALID_ARGUMENT,
         "addmm: self of shape {} cannot be broadcast to the product's shape {}",
         shape_string(self.shape, self.ndim), shape_string(o.shape, 2));
  }
  o.dtype = x.dtype;
  m.compute_dtype = x.dtype;
  m.broadcast_mask = 0x1;
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
