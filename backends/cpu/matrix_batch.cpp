// Stacks of matrices for the LAPACK kernels (matrix_batch.hpp).
#include "matrix_batch.hpp"

#include <mutex>

#if KF_CPU_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace kf::cpu {

MatrixStack::MatrixStack(const kf_tensor_view_t& v, int32_t matrix_dims,
                         const int64_t* batch_shape, int32_t batch_ndim)
    : data_(v.data), ndim_(batch_ndim) {
  const int32_t own_batch = v.ndim - matrix_dims;
  if (matrix_dims == 2) {
    rows_ = v.shape[v.ndim - 2];
    cols_ = v.shape[v.ndim - 1];
    row_stride_ = v.strides[v.ndim - 2];
    col_stride_ = v.strides[v.ndim - 1];
  } else if (matrix_dims == 1) {
    rows_ = v.shape[v.ndim - 1];
    row_stride_ = v.strides[v.ndim - 1];
  }
  // The view's batch dims are the last own_batch of the batch shape (broadcasting aligns them
  // on the right); a dim of size 1 against a larger one repeats its matrix (stride 0).
  for (int32_t d = 0; d < batch_ndim; ++d) {
    shape_[d] = batch_shape[d];
    const int32_t mine = d - (batch_ndim - own_batch);
    strides_[d] = mine >= 0 && v.shape[mine] == batch_shape[d] ? v.strides[mine] : 0;
  }
}

int64_t MatrixStack::offset(int64_t b) const {
  int64_t off = 0;
  for (int32_t d = ndim_ - 1; d >= 0 && b > 0; --d) {
    off += (b % shape_[d]) * strides_[d];
    b /= shape_[d];
  }
  return off;
}

#if KF_CPU_HAVE_OPENBLAS
namespace {

struct BlasHold {
  std::mutex mutex;
  int holders = 0;
  int saved_threads = 0;
};

BlasHold& blas_hold() {
  static BlasHold h;
  return h;
}

}  // namespace
#endif

SingleThreadedBlas::SingleThreadedBlas() {
#if KF_CPU_HAVE_OPENBLAS
  BlasHold& h = blas_hold();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (h.holders++ == 0) {
    h.saved_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
  }
#endif
}

SingleThreadedBlas::~SingleThreadedBlas() {
#if KF_CPU_HAVE_OPENBLAS
  BlasHold& h = blas_hold();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (--h.holders == 0) openblas_set_num_threads(h.saved_threads);
#endif
}

BatchShape batch_of(const kf_tensor_view_t& out, int32_t matrix_dims) {
  BatchShape s{out.shape, out.ndim - matrix_dims, 1};
  for (int32_t d = 0; d < s.ndim; ++d) s.count *= out.shape[d];
  return s;
}

}  // namespace kf::cpu
