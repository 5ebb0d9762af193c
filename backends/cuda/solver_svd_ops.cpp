// solver_svd_ops.cpp — linalg_svd and linalg_svdvals on cuSOLVER, as the CPU's
// spectral_kernels.cpp: float32, float64, complex64 and complex128, batched over the leading
// dims; gesvdjBatched for a batch of matrices of at most 32 x 32, else Xgesvd one matrix after
// the other (Note [Batched or looped]). Xgesvd needs rows >= cols, so a wide matrix is factored
// as its conjugate transpose (solver_choice.hpp, svd_orientation) and the factors swapped back. A
// matrix with a NaN or an infinity is an error naming its batch index, and so is no
// convergence (solver_status.hpp, after Note [Reading info back]). The singular vectors are
// unique up to a phase per column: they may differ from the CPU's by one.
#include <algorithm>
#include <string>
#include <vector>

#include "kernforge/plugin.hpp"
#include "library_check.hpp"
#include "solver_choice.hpp"
#include "solver_common.hpp"
#include "solver_launch.hpp"
#include "solver_ops.hpp"
#include "solver_status.hpp"
#include "solver_svdj.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

/// The outputs of one svd: U and Vh (null for svdvals) and S.
struct SvdOut {
  const kf_tensor_view_t* u;
  const kf_tensor_view_t& s;
  const kf_tensor_view_t* vh;
  bool full;
};

/// The factors of the matrices Xgesvd sees (rows >= cols), column-major.
struct Factors {
  MatrixBatch a, s, u, vt;
  Factors(int32_t dtype, const std::vector<int64_t>& batch, const SvdOrientation& o,
          bool vectors, bool full, cudaStream_t stream)
      : a(dtype, batch, o.rows, o.cols, stream),
        s(real_dtype_of(dtype), batch, o.cols, 1, stream),
        u(dtype, batch, vectors ? o.rows : 0, full ? o.rows : o.cols, stream),
        vt(dtype, batch, vectors ? o.cols : 0, o.cols, stream) {}
};

/// Reads self [m, n] as the factored matrix: itself (column-major), or, when wide, A^H (A
/// copied row-major [m, n] is A^T column-major [n, m]; conjugated in place).
void read_factored(Factors& f, const kf_tensor_view_t& self, const std::vector<int64_t>& batch,
                   const SvdOrientation& o, cudaStream_t stream) {
  if (!o.conjugate_transpose) return f.a.read(self, stream);
  const ViewLayout row_major = matrix_batch(batch, o.cols, o.rows, false, self.dtype);
  copy_view(row_major, f.a.data(), layout_of(self), self.data, stream);
  if (self.dtype != KF_COMPLEX64 && self.dtype != KF_COMPLEX128) return;
  MatrixCopy c;
  c.dst = f.a.data();
  c.src = f.a.data();
  c.dtype = self.dtype;
  c.batch = 1;
  c.rows = 1;
  c.cols = f.a.count() * o.rows * o.cols;
  c.src_cs = c.dst_cs = 1;
  c.conj = true;
  launch_matrix_copy(c, stream);
}

void gesvd(const SolverHandle& h, Factors& f, bool vectors, bool full, const InfoArray& info,
           cudaStream_t stream) {
  const int64_t rows = f.a.rows(), cols = f.a.cols();
  const cudaDataType t = solver_type(f.a.dtype()), rt = solver_real_type(f.a.dtype());
  const signed char jobu = !vectors ? 'N' : full ? 'A' : 'S', jobvt = vectors ? 'A' : 'N';
  size_t dev = 0, host = 0;
  check(cusolverDnXgesvd_bufferSize(h.get(), h.params(), jobu, jobvt, rows, cols, t, f.a.data(),
                                    rows, rt, f.s.data(), t, f.u.data(), rows, t, f.vt.data(),
                                    cols, t, &dev, &host),
        "cusolverDnXgesvd_bufferSize");
  Workspace ws(dev, host, stream);
  for (int64_t b = 0; b < f.a.count(); ++b) {
    check(cusolverDnXgesvd(h.get(), h.params(), jobu, jobvt, rows, cols, t, f.a.matrix(b), rows,
                           rt, f.s.matrix(b), t, vectors ? f.u.matrix(b) : nullptr, rows, t,
                           vectors ? f.vt.matrix(b) : nullptr, cols, t, ws.device(),
                           ws.device_bytes(), ws.host(), ws.host_bytes(), info.at(b)),
          "cusolverDnXgesvd");
  }
}

/// dst (column-major rows x cols) = the conjugate transpose of src (column-major cols x rows).
void adjoint(const MatrixBatch& src, MatrixBatch& dst, cudaStream_t stream) {
  MatrixCopy c;
  c.dst = dst.data();
  c.src = src.data();
  c.dtype = src.dtype();
  c.batch = src.count();
  c.rows = dst.rows();
  c.cols = dst.cols();
  c.src_bs = src.rows() * src.cols();
  c.dst_bs = dst.rows() * dst.cols();
  c.dst_rs = 1;
  c.dst_cs = dst.rows();
  c.src_rs = src.rows();  // element (i, j) of dst is src's (j, i)
  c.src_cs = 1;
  c.conj = true;
  launch_matrix_copy(c, stream);
}

/// U and Vh of self from the factors: as they are, or swapped back from A^H's (U = V', Vh =
/// U'^H).
void write_vectors(const Factors& f, const SvdOut& out, const std::vector<int64_t>& batch,
                   const SvdOrientation& o, cudaStream_t stream) {
  if (!o.conjugate_transpose) {
    f.u.write(*out.u, stream);
    f.vt.write(*out.vh, stream);
    return;
  }
  const int64_t m = o.cols, n = o.rows;
  MatrixBatch u(f.a.dtype(), batch, m, m, stream);  // ucols = k = m, full or not
  MatrixBatch vh(f.a.dtype(), batch, f.u.cols(), n, stream);
  adjoint(f.vt, u, stream);
  adjoint(f.u, vh, stream);
  u.write(*out.u, stream);
  vh.write(*out.vh, stream);
}

/// An empty matrix: the full U and Vh are identities, nothing else has elements.
void empty_svd(const SvdOut& out, const std::vector<int64_t>& batch, int32_t dtype,
               cudaStream_t stream) {
  if (out.u == nullptr || !out.full) return;
  for (const kf_tensor_view_t* v : {out.u, out.vh}) {
    const int64_t n = v->shape[v->ndim - 1];
    MatrixBatch eye(dtype, batch, n, n, stream);
    launch_identity(eye.data(), dtype, eye.count(), n, n, stream);
    eye.write(*v, stream);
  }
}

/// Waits for the infos and the non-finite flags of `count` matrices and throws the first
/// failure (Note [Reading info back]).
void check_svd(const StreamScratch& flags, const InfoArray& info, int64_t count,
               cudaStream_t stream, const char* op) {
  std::vector<int32_t> bad(static_cast<size_t>(count));
  check(cudaMemcpyAsync(bad.data(), flags.get(), bad.size() * sizeof(int32_t),
                        cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (non-finite flags)");
  const std::vector<int32_t> infos = info.read(stream);  // waits for the copy above too
  check_solver_infos(op, SolverStep::kSvd, infos.data(), bad.data(), count);
}

void write_values(const MatrixBatch& s, const kf_tensor_view_t& out, cudaStream_t stream) {
  copy_view(layout_of(out), out.data, dense_layout(layout_of(out).shape, out.dtype), s.data(),
            stream);
}

/// Xgesvd, one matrix after the other (a wide one as its conjugate transpose).
void svd_looped(const KernelScope& scope, const kf_tensor_view_t& self, const SvdOut& out,
                const std::vector<int64_t>& batch, const char* op) {
  const cudaStream_t stream = scope.stream();
  const int64_t m = self.shape[self.ndim - 2], n = self.shape[self.ndim - 1];
  const SvdOrientation o = svd_orientation(m, n);
  const bool vectors = out.u != nullptr;
  Factors f(self.dtype, batch, o, vectors, out.full, stream);
  read_factored(f, self, batch, o, stream);
  StreamScratch flags(static_cast<size_t>(f.a.count()) * sizeof(int32_t), stream);
  launch_non_finite(f.a.data(), f.a.dtype(), f.a.count(), m * n, flags.as<int32_t>(), stream);
  InfoArray info(f.a.count(), stream);
  {
    SolverHandle h(scope, out.s.device.index);
    gesvd(h, f, vectors, out.full, info, stream);
  }
  check_svd(flags, info, f.a.count(), stream, op);
  write_values(f.s, out.s, stream);
  if (vectors) write_vectors(f, out, batch, o, stream);
}

/// gesvdjBatched for a batch of small matrices: full U and V, trimmed to the thin ones.
void svd_batched(const KernelScope& scope, const kf_tensor_view_t& self, const SvdOut& out,
                 const std::vector<int64_t>& batch, const char* op) {
  const cudaStream_t stream = scope.stream();
  const int64_t m = self.shape[self.ndim - 2], n = self.shape[self.ndim - 1];
  const bool vectors = out.u != nullptr;
  MatrixBatch a(self.dtype, batch, m, n, stream);
  MatrixBatch s(out.s.dtype, batch, std::min(m, n), 1, stream);
  MatrixBatch u(self.dtype, batch, m, m, stream), v(self.dtype, batch, n, n, stream);
  a.read(self, stream);
  StreamScratch flags(static_cast<size_t>(a.count()) * sizeof(int32_t), stream);
  launch_non_finite(a.data(), a.dtype(), a.count(), m * n, flags.as<int32_t>(), stream);
  InfoArray info(a.count(), stream);
  {
    SolverHandle h(scope, out.s.device.index);
    gesvdj_batched(h, a, s, u, v, vectors, info, stream);
  }
  check_svd(flags, info, a.count(), stream, op);
  write_values(s, out.s, stream);
  if (!vectors) return;
  ViewLayout u_cols = u.layout();  // U's first ucols columns
  u_cols.shape.back() = out.u->shape[out.u->ndim - 1];
  copy_view(layout_of(*out.u), out.u->data, u_cols, u.data(), stream);
  MatrixBatch vh(self.dtype, batch, out.vh->shape[out.vh->ndim - 2], n, stream);
  adjoint(v, vh, stream);  // Vh's first vrows rows of V^H
  vh.write(*out.vh, stream);
}

void svd_common(const kf_kernel_call_t& call, const kf_tensor_view_t& self, const SvdOut& out,
                const char* op) {
  KernelScope scope(call, out.s);
  require_dtype(out.s, real_dtype_of(self.dtype), "the singular values", op);
  const int64_t m = self.shape[self.ndim - 2], n = self.shape[self.ndim - 1];
  const std::vector<int64_t> batch = batch_shape_of(out.s, 1);
  if (product_of(batch) == 0) return;
  if (std::min(m, n) == 0) return empty_svd(out, batch, self.dtype, scope.stream());
  if (svd_route(m, n, product_of(batch)) == SolverRoute::kBatched) {
    svd_batched(scope, self, out, batch, op);
  } else {
    svd_looped(scope, self, out, batch, op);
  }
  scope.check(op);
}

void svd_kernel(const ops::linalg_svd::Args& a) {
  require_dtype(a.out0, a.self.dtype, "U", "linalg_svd");
  svd_common(a.call, a.self, SvdOut{&a.out0, a.out1, &a.out2, a.full_matrices}, "linalg_svd");
}

void svdvals_kernel(const ops::linalg_svdvals::Args& a) {
  svd_common(a.call, a.self, SvdOut{nullptr, a.out, nullptr, false}, "linalg_svdvals");
}

}  // namespace

kf_status_t register_solver_svd_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, linalg_svd, svd_kernel, kSolverDtypes);
  KF_REGISTER_KERNEL(reg, linalg_svdvals, svdvals_kernel, kSolverDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
