// solver_eigh_ops.cpp — linalg_eigh and linalg_eigvalsh (syevBatched for a batch of small
// matrices where this cuSOLVER has it, else Xsyevd per matrix: Note [Batched or looped]) and
// linalg_qr (Xgeqrf, then orgqr / ungqr) on cuSOLVER, as the CPU's spectral_kernels.cpp:
// float32, float64, complex64 and complex128, batched over the leading dims. eigh reads the
// lower triangle and refuses a matrix with a NaN or an infinity (naming its batch index), as
// the CPU does; no convergence is an error too (solver_status.hpp, after Note [Reading info
// back]). geqrf and orgqr report nothing but argument errors: qr never waits for the GPU.
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "kernforge/plugin.hpp"
#include "library_check.hpp"
#include "solver_choice.hpp"
#include "solver_common.hpp"
#include "solver_launch.hpp"
#include "solver_ops.hpp"
#include "solver_status.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

#if CUSOLVER_VER_MAJOR >= 12
constexpr bool kHaveSyevBatched = true;  // cusolverDnXsyevBatched (CUDA 13's cuSOLVER 12)
#else
constexpr bool kHaveSyevBatched = false;
#endif

/// The eigenvalues (into w) and, with `vectors`, the eigenvectors (in place of m).
void syev(const SolverHandle& h, MatrixBatch& m, MatrixBatch& w, bool vectors,
          const InfoArray& info, cudaStream_t stream) {
  const int64_t n = m.rows();
  const cudaDataType t = solver_type(m.dtype()), rt = solver_real_type(m.dtype());
  const cusolverEigMode_t job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t lower = CUBLAS_FILL_MODE_LOWER;
  size_t dev = 0, host = 0;
#if CUSOLVER_VER_MAJOR >= 12
  if (eigh_route(n, m.count(), kHaveSyevBatched) == SolverRoute::kBatched) {
    check(cusolverDnXsyevBatched_bufferSize(h.get(), h.params(), job, lower, n, t, m.data(), n,
                                            rt, w.data(), t, &dev, &host, m.count()),
          "cusolverDnXsyevBatched_bufferSize");
    Workspace ws(dev, host, stream);
    check(cusolverDnXsyevBatched(h.get(), h.params(), job, lower, n, t, m.data(), n, rt,
                                 w.data(), t, ws.device(), ws.device_bytes(), ws.host(),
                                 ws.host_bytes(), info.at(0), m.count()),
          "cusolverDnXsyevBatched");
    return;
  }
#endif
  check(cusolverDnXsyevd_bufferSize(h.get(), h.params(), job, lower, n, t, m.data(), n, rt,
                                    w.data(), t, &dev, &host),
        "cusolverDnXsyevd_bufferSize");
  Workspace ws(dev, host, stream);
  for (int64_t b = 0; b < m.count(); ++b) {
    check(cusolverDnXsyevd(h.get(), h.params(), job, lower, n, t, m.matrix(b), n, rt,
                           w.matrix(b), t, ws.device(), ws.device_bytes(), ws.host(),
                           ws.host_bytes(), info.at(b)),
          "cusolverDnXsyevd");
  }
}

void eigh_common(const kf_kernel_call_t& call, const kf_tensor_view_t& self,
                 const kf_tensor_view_t& values, const kf_tensor_view_t* vectors,
                 const char* op) {
  KernelScope scope(call, values);
  require_dtype(values, real_dtype_of(self.dtype), "the eigenvalues", op);
  if (vectors != nullptr) require_dtype(*vectors, self.dtype, "the eigenvectors", op);
  const cudaStream_t stream = scope.stream();
  const int64_t n = self.shape[self.ndim - 1];
  const std::vector<int64_t> batch = batch_shape_of(values, 1);
  MatrixBatch m(self.dtype, batch, n, n, stream);
  if (m.count() == 0 || n == 0) return;
  m.read(self, stream);
  MatrixBatch w(values.dtype, batch, n, 1, stream);
  StreamScratch flags(static_cast<size_t>(m.count()) * sizeof(int32_t), stream);
  launch_non_finite(m.data(), m.dtype(), m.count(), n * n, flags.as<int32_t>(), stream);
  InfoArray info(m.count(), stream);
  {
    SolverHandle h(scope, values.device.index);
    syev(h, m, w, vectors != nullptr, info, stream);
  }
  std::vector<int32_t> bad(static_cast<size_t>(m.count()));
  check(cudaMemcpyAsync(bad.data(), flags.get(), bad.size() * sizeof(int32_t),
                        cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (non-finite flags)");
  const std::vector<int32_t> infos = info.read(stream);  // waits for the copy above too
  check_solver_infos(op, SolverStep::kEigh, infos.data(), bad.data(), m.count());
  copy_view(layout_of(values), values.data, dense_layout(layout_of(values).shape, values.dtype),
            w.data(), stream);
  if (vectors != nullptr) m.write(*vectors, stream);
  scope.check(op);
}

void eigh_kernel(const ops::linalg_eigh::Args& a) {
  eigh_common(a.call, a.self, a.out0, &a.out1, "linalg_eigh");
}

void eigvalsh_kernel(const ops::linalg_eigvalsh::Args& a) {
  eigh_common(a.call, a.self, a.out, nullptr, "linalg_eigvalsh");
}

/// orgqr / ungqr of each matrix: its first `cols` columns of Q from geqrf's reflectors.
struct Orgqr {
  const SolverHandle& h;
  MatrixBatch& a;
  const void* tau;
  int m, cols, k;
};

template <class T, class Size, class Run>
void run_orgqr(const Orgqr& q, const InfoArray& info, cudaStream_t stream, Size size, Run run) {
  T* a = static_cast<T*>(q.a.data());
  const T* tau = static_cast<const T*>(q.tau);
  int lwork = 0;
  check(size(q.h.get(), q.m, q.cols, q.k, a, q.m, tau, &lwork), "cusolverDn<t>orgqr_bufferSize");
  StreamScratch work(static_cast<size_t>(std::max(lwork, 1)) * sizeof(T), stream);
  const int64_t per = q.a.rows() * q.a.cols();
  for (int64_t b = 0; b < q.a.count(); ++b) {
    check(run(q.h.get(), q.m, q.cols, q.k, a + b * per, q.m, tau + b * q.k, work.as<T>(), lwork,
              info.at(b)),
          "cusolverDn<t>orgqr");
  }
}

void orgqr(const Orgqr& q, const InfoArray& info, cudaStream_t stream) {
  switch (q.a.dtype()) {
    case KF_FLOAT32:
      return run_orgqr<float>(q, info, stream, cusolverDnSorgqr_bufferSize, cusolverDnSorgqr);
    case KF_FLOAT64:
      return run_orgqr<double>(q, info, stream, cusolverDnDorgqr_bufferSize, cusolverDnDorgqr);
    case KF_COMPLEX64:
      return run_orgqr<cuComplex>(q, info, stream, cusolverDnCungqr_bufferSize,
                                  cusolverDnCungqr);
    default:
      return run_orgqr<cuDoubleComplex>(q, info, stream, cusolverDnZungqr_bufferSize,
                                        cusolverDnZungqr);
  }
}

void geqrf(const SolverHandle& h, MatrixBatch& a, int64_t n, void* tau, const InfoArray& info,
           cudaStream_t stream) {
  const int64_t m = a.rows(), k = std::min(m, n);
  const cudaDataType t = solver_type(a.dtype());
  const size_t tau_bytes = static_cast<size_t>(k) * kf_dtype_itemsize(a.dtype());
  size_t dev = 0, host = 0;
  check(cusolverDnXgeqrf_bufferSize(h.get(), h.params(), m, n, t, a.data(), m, t, tau, t, &dev,
                                    &host),
        "cusolverDnXgeqrf_bufferSize");
  Workspace ws(dev, host, stream);
  for (int64_t b = 0; b < a.count(); ++b) {
    check(cusolverDnXgeqrf(h.get(), h.params(), m, n, t, a.matrix(b), m, t,
                           static_cast<unsigned char*>(tau) + b * tau_bytes, t, ws.device(),
                           ws.device_bytes(), ws.host(), ws.host_bytes(), info.at(b)),
          "cusolverDnXgeqrf");
  }
}

void qr_kernel(const ops::linalg_qr::Args& a) {
  const char* op = "linalg_qr";
  KernelScope scope(a.call, a.out0);
  require_dtype(a.self, a.out0.dtype, "self", op);
  const cudaStream_t stream = scope.stream();
  const int64_t m = a.self.shape[a.self.ndim - 2], n = a.self.shape[a.self.ndim - 1];
  const int64_t k = std::min(m, n), qcols = a.out0.shape[a.out0.ndim - 1];
  const int64_t rrows = a.out1.shape[a.out1.ndim - 2];
  const std::vector<int64_t> batch = batch_shape_of(a.out0, 2);
  if (std::max(m, qcols) > INT_MAX) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, "linalg_qr: a matrix size beyond 2^31-1 "
                                                    "exceeds cuSOLVER's orgqr");
  }
  // Q's columns are made in place of the factored matrix: room for max(n, qcols) of them.
  MatrixBatch f(a.self.dtype, batch, m, std::max(n, qcols), stream);
  if (f.count() == 0 || m == 0) return;
  ViewLayout first_n = f.layout();
  first_n.shape.back() = n;
  copy_view(first_n, f.data(), layout_of(a.self), a.self.data, stream);
  StreamScratch tau(static_cast<size_t>(f.count() * std::max<int64_t>(k, 1)) *
                        kf_dtype_itemsize(f.dtype()), stream);
  InfoArray info(f.count(), stream);
  SolverHandle h(scope, a.out0.device.index);
  if (k > 0) geqrf(h, f, n, tau.get(), info, stream);
  MatrixBatch r(f.dtype(), batch, rrows, n, stream);
  MatrixCopy c;  // R: the upper triangle of the factored matrix's first rrows rows
  c.dst = r.data();
  c.src = f.data();
  c.dtype = f.dtype();
  c.batch = f.count();
  c.rows = rrows;
  c.cols = n;
  c.src_bs = f.rows() * f.cols();
  c.dst_bs = rrows * n;
  c.src_rs = c.dst_rs = 1;
  c.src_cs = m;
  c.dst_cs = rrows;
  c.triangle = 2;
  launch_matrix_copy(c, stream);
  r.write(a.out1, stream);
  if (k == 0) {  // no reflector: Q is the identity (its m x qcols column-major memory)
    launch_identity(f.data(), f.dtype(), f.count(), qcols, m, stream);
  } else if (qcols > 0) {
    orgqr(Orgqr{h, f, tau.get(), static_cast<int>(m), static_cast<int>(qcols),
                static_cast<int>(k)},
          info, stream);
  }
  ViewLayout q = f.layout();
  q.shape.back() = qcols;
  copy_view(layout_of(a.out0), a.out0.data, q, f.data(), stream);
  scope.check(op);
}

}  // namespace

kf_status_t register_solver_eigh_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, linalg_eigh, eigh_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_eigvalsh, eigvalsh_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_qr, qr_kernel, kSolverDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
