// solver_factor_ops.cpp — the LU and Cholesky family on cuSOLVER, as the CPU backend's
// factorization_kernels.cpp: linalg_cholesky (potrfBatched for a batch, else Xpotrf per
// matrix: Note [Batched or looped]), linalg_inv (Xgetrf, then Xgetrs on identities; cuBLAS's
// getrfBatched and getrsBatched for many small matrices), linalg_solve (the same without the
// identities), linalg_det and linalg_slogdet (Xgetrf, then the product of
// the pivots in solver_kernels.cu), for float32, float64, complex64 and complex128, batched
// over the leading dims. Each op copies its matrices into a column-major scratch batch (any
// strides and broadcast batch dims: solver_common.hpp), which cuSOLVER overwrites, and writes
// the result to the output's layout. A singular or non-positive-definite matrix is an error
// naming its batch index (solver_status.hpp, after Note [Reading info back]); det and slogdet
// of a singular matrix are 0 and (0, -inf), not errors, and wait for nothing.
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "kernforge/plugin.hpp"
#include "library_check.hpp"
#include "solver_choice.hpp"
#include "solver_common.hpp"
#include "solver_launch.hpp"
#include "solver_lu_batched.hpp"
#include "solver_ops.hpp"
#include "solver_status.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void require_int(int64_t v, const char* what, const char* op) {
  if (v > INT_MAX) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string(op) + ": " + what + " " +
                                                        std::to_string(v) +
                                                        " exceeds cuSOLVER's batched int");
  }
}

cusolverStatus_t potrf_batched_call(cusolverDnHandle_t h, int32_t dtype, int n, void** a,
                                    int* info, int batch) {
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;
  switch (dtype) {
    case KF_FLOAT32:
      return cusolverDnSpotrfBatched(h, lower, n, reinterpret_cast<float**>(a), n, info, batch);
    case KF_FLOAT64:
      return cusolverDnDpotrfBatched(h, lower, n, reinterpret_cast<double**>(a), n, info, batch);
    case KF_COMPLEX64:
      return cusolverDnCpotrfBatched(h, lower, n, reinterpret_cast<cuComplex**>(a), n, info,
                                     batch);
    default:
      return cusolverDnZpotrfBatched(h, lower, n, reinterpret_cast<cuDoubleComplex**>(a), n,
                                     info, batch);
  }
}

/// Cholesky factors in place (lower triangle, column-major), one info per matrix.
void potrf(const SolverHandle& h, MatrixBatch& m, const InfoArray& info, cudaStream_t stream,
           const char* op) {
  const int64_t n = m.rows();
  const cudaDataType t = solver_type(m.dtype());
  if (cholesky_route(n, m.count()) == SolverRoute::kBatched) {
    require_int(n, "a matrix size", op);
    require_int(m.count(), "the batch size", op);
    const std::unique_ptr<StreamScratch> a = device_pointers(m, stream);
    check(potrf_batched_call(h.get(), m.dtype(), static_cast<int>(n), a->as<void*>(),
                             info.at(0), static_cast<int>(m.count())),
          "cusolverDn<t>potrfBatched");
    return;
  }
  size_t dev = 0, host = 0;
  check(cusolverDnXpotrf_bufferSize(h.get(), h.params(), CUBLAS_FILL_MODE_LOWER, n, t, m.data(),
                                    n, t, &dev, &host),
        "cusolverDnXpotrf_bufferSize");
  Workspace w(dev, host, stream);
  for (int64_t b = 0; b < m.count(); ++b) {
    check(cusolverDnXpotrf(h.get(), h.params(), CUBLAS_FILL_MODE_LOWER, n, t, m.matrix(b), n, t,
                           w.device(), w.device_bytes(), w.host(), w.host_bytes(), info.at(b)),
          "cusolverDnXpotrf");
  }
}

/// LU factors in place with 1-based pivots [count, n] in `pivots`.
void getrf(const SolverHandle& h, MatrixBatch& m, int64_t* pivots, const InfoArray& info,
           cudaStream_t stream) {
  const int64_t n = m.rows();
  const cudaDataType t = solver_type(m.dtype());
  size_t dev = 0, host = 0;
  check(cusolverDnXgetrf_bufferSize(h.get(), h.params(), n, n, t, m.data(), n, t, &dev, &host),
        "cusolverDnXgetrf_bufferSize");
  Workspace w(dev, host, stream);
  for (int64_t b = 0; b < m.count(); ++b) {
    check(cusolverDnXgetrf(h.get(), h.params(), n, n, t, m.matrix(b), n, pivots + b * n, t,
                           w.device(), w.device_bytes(), w.host(), w.host_bytes(), info.at(b)),
          "cusolverDnXgetrf");
  }
}

/// x = a^-1 x for each matrix from getrf's factors and pivots.
void getrs(const SolverHandle& h, const MatrixBatch& lu, const int64_t* pivots, MatrixBatch& x,
           const InfoArray& info) {
  const int64_t n = lu.rows();
  const cudaDataType t = solver_type(lu.dtype());
  for (int64_t b = 0; b < lu.count(); ++b) {
    check(cusolverDnXgetrs(h.get(), h.params(), CUBLAS_OP_N, n, x.cols(), t, lu.matrix(b), n,
                           pivots + b * n, t, x.matrix(b), n, info.at(b)),
          "cusolverDnXgetrs");
  }
}

/// x = m^-1 x: cuBLAS's batched LU for many small matrices, else Xgetrf and Xgetrs per matrix
/// (Note [Batched or looped]); m is overwritten by its factors.
void lu_solve(const KernelScope& scope, int32_t device, MatrixBatch& m, int64_t* pivots,
              MatrixBatch& x, const InfoArray& lu_info, const InfoArray& solve_info) {
  if (lu_route(m.rows(), m.count()) == SolverRoute::kBatched) {
    return lu_solve_batched(scope, device, m, x, lu_info);
  }
  SolverHandle h(scope, device);
  getrf(h, m, pivots, lu_info, scope.stream());
  getrs(h, m, pivots, x, solve_info);
}

void cholesky_kernel(const ops::linalg_cholesky::Args& a) {
  const char* op = "linalg_cholesky";
  KernelScope scope(a.call, a.out);
  require_dtype(a.self, a.out.dtype, "self", op);
  const cudaStream_t stream = scope.stream();
  const int64_t n = a.out.shape[a.out.ndim - 1];
  MatrixBatch m(a.out.dtype, batch_shape_of(a.out, 2), n, n, stream);
  if (a.out.numel == 0) return;
  m.read(a.self, stream);
  InfoArray info(m.count(), stream);
  {
    SolverHandle h(scope, a.out.device.index);
    potrf(h, m, info, stream, op);
  }
  const std::vector<int32_t> infos = info.read(stream);
  check_solver_infos(op, SolverStep::kCholesky, infos.data(), nullptr, m.count());
  MatrixBatch r(a.out.dtype, batch_shape_of(a.out, 2), n, n, stream);
  MatrixCopy c;  // L from the lower triangle; U = L^H (element (i, j) from L's (j, i))
  c.dst = r.data();
  c.src = m.data();
  c.dtype = m.dtype();
  c.batch = m.count();
  c.rows = c.cols = n;
  c.src_bs = c.dst_bs = n * n;
  c.dst_rs = 1;
  c.dst_cs = n;
  c.src_rs = a.upper ? n : 1;
  c.src_cs = a.upper ? 1 : n;
  c.conj = a.upper;
  c.triangle = a.upper ? 2 : 1;
  launch_matrix_copy(c, stream);
  r.write(a.out, stream);
  scope.check(op);
}

void inv_kernel(const ops::linalg_inv::Args& a) {
  const char* op = "linalg_inv";
  KernelScope scope(a.call, a.out);
  require_dtype(a.self, a.out.dtype, "self", op);
  const cudaStream_t stream = scope.stream();
  const int64_t n = a.out.shape[a.out.ndim - 1];
  MatrixBatch m(a.out.dtype, batch_shape_of(a.out, 2), n, n, stream);
  if (a.out.numel == 0) return;
  m.read(a.self, stream);
  MatrixBatch x(a.out.dtype, batch_shape_of(a.out, 2), n, n, stream);
  launch_identity(x.data(), x.dtype(), x.count(), n, n, stream);
  StreamScratch pivots(static_cast<size_t>(m.count() * n) * sizeof(int64_t), stream);
  InfoArray lu_info(m.count(), stream), solve_info(m.count(), stream);
  lu_solve(scope, a.out.device.index, m, pivots.as<int64_t>(), x, lu_info, solve_info);
  const std::vector<int32_t> lu = lu_info.read(stream), solved = solve_info.read(stream);
  check_solver_infos(op, SolverStep::kLu, lu.data(), nullptr, m.count());
  check_solver_infos(op, SolverStep::kLu, solved.data(), nullptr, m.count());
  x.write(a.out, stream);
  scope.check(op);
}

/// A 1-D right-hand side [n] (or solution [..., n]) read as [n, 1] (or [..., n, 1]).
kf_tensor_view_t as_column(const kf_tensor_view_t& v, std::vector<int64_t>& shape,
                           std::vector<int64_t>& strides) {
  shape.assign(v.shape, v.shape + v.ndim);
  strides.assign(v.strides, v.strides + v.ndim);
  shape.push_back(1);
  strides.push_back(1);
  kf_tensor_view_t c = v;
  c.ndim = v.ndim + 1;
  c.shape = shape.data();
  c.strides = strides.data();
  return c;
}

void solve_kernel(const ops::linalg_solve::Args& a) {
  const char* op = "linalg_solve";
  KernelScope scope(a.call, a.out);
  require_dtype(a.self, a.out.dtype, "self", op);
  require_dtype(a.other, a.out.dtype, "other", op);
  const cudaStream_t stream = scope.stream();
  const bool vector = a.other.ndim == 1;
  std::vector<int64_t> rhs_shape, rhs_strides, out_shape, out_strides;
  const kf_tensor_view_t rhs = vector ? as_column(a.other, rhs_shape, rhs_strides) : a.other;
  const kf_tensor_view_t out = vector ? as_column(a.out, out_shape, out_strides) : a.out;
  const int64_t n = a.self.shape[a.self.ndim - 1], k = out.shape[out.ndim - 1];
  const std::vector<int64_t> batch = batch_shape_of(out, 2);
  MatrixBatch m(a.out.dtype, batch, n, n, stream), x(a.out.dtype, batch, n, k, stream);
  if (a.out.numel == 0) return;
  m.read(a.self, stream);
  x.read(rhs, stream);
  StreamScratch pivots(static_cast<size_t>(m.count() * n) * sizeof(int64_t), stream);
  InfoArray lu_info(m.count(), stream), solve_info(m.count(), stream);
  lu_solve(scope, a.out.device.index, m, pivots.as<int64_t>(), x, lu_info, solve_info);
  const std::vector<int32_t> lu = lu_info.read(stream), solved = solve_info.read(stream);
  check_solver_infos(op, SolverStep::kLu, lu.data(), nullptr, m.count());
  check_solver_infos(op, SolverStep::kLu, solved.data(), nullptr, m.count());
  x.write(out, stream);
  scope.check(op);
}

/// det (when `det` is set) or slogdet's sign and logabs of self's matrices.
void determinants(const kf_kernel_call_t& call, const kf_tensor_view_t& self,
                  const kf_tensor_view_t* det, const kf_tensor_view_t* sign,
                  const kf_tensor_view_t* logabs, const char* op) {
  const kf_tensor_view_t& anchor = det != nullptr ? *det : *sign;
  KernelScope scope(call, anchor);
  require_dtype(self, anchor.dtype, "self", op);
  const cudaStream_t stream = scope.stream();
  const int64_t n = self.shape[self.ndim - 1];
  const std::vector<int64_t> batch = batch_shape_of(anchor, 0);
  MatrixBatch m(self.dtype, batch, n, n, stream);
  if (m.count() == 0) return;
  StreamScratch pivots(static_cast<size_t>(m.count() * n) * sizeof(int64_t), stream);
  if (n > 0) {
    m.read(self, stream);
    InfoArray info(m.count(), stream);  // singular is not an error here: never read back
    SolverHandle h(scope, anchor.device.index);
    getrf(h, m, pivots.as<int64_t>(), info, stream);
  }
  MatrixBatch first(anchor.dtype, batch, 1, 1, stream);
  MatrixBatch second(real_dtype_of(self.dtype), batch, 1, 1, stream);
  LuDeterminant d;
  d.lu = m.data();
  d.pivots = pivots.as<int64_t>();
  d.dtype = self.dtype;
  d.batch = m.count();
  d.n = n;
  (det != nullptr ? d.det : d.sign) = first.data();
  if (det == nullptr) d.logabs = second.data();
  launch_lu_determinant(d, stream);
  const ViewLayout scalars = matrix_batch(batch, 1, 1, false, anchor.dtype);
  ViewLayout dense = scalars;
  dense.shape.resize(batch.size());
  dense.strides.resize(batch.size());
  copy_view(layout_of(anchor), anchor.data, dense, first.data(), stream);
  if (logabs != nullptr) {
    dense.dtype = logabs->dtype;
    copy_view(layout_of(*logabs), logabs->data, dense, second.data(), stream);
  }
  scope.check(op);
}

void det_kernel(const ops::linalg_det::Args& a) {
  determinants(a.call, a.self, &a.out, nullptr, nullptr, "linalg_det");
}

void slogdet_kernel(const ops::linalg_slogdet::Args& a) {
  require_dtype(a.out1, real_dtype_of(a.self.dtype), "logabsdet", "linalg_slogdet");
  determinants(a.call, a.self, nullptr, &a.out0, &a.out1, "linalg_slogdet");
}

}  // namespace

kf_status_t register_solver_factor_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, linalg_cholesky, cholesky_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_inv, inv_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_solve, solve_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_det, det_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_slogdet, slogdet_kernel, kSolverDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
