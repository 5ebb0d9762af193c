// spectral_kernels.cpp — the orthogonal family: linalg_eigh and linalg_eigvalsh (syevd /
// heevd, numpy's driver), linalg_eig and linalg_eigvals (geev), linalg_svd and linalg_svdvals
// (gesdd, numpy's driver) and linalg_qr (geqrf, then orgqr / ungqr), for float32, float64,
// complex64 and complex128, batched over the leading dims (matrix_batch.hpp, Note [Batches in
// parallel]). The iterative ones (eigh, eig, svd) refuse a matrix with a NaN or an infinity,
// naming its batch index, as they would otherwise iterate on garbage; no convergence is an
// error too (lapack_status.hpp).
#include "kernels.hpp"

#if KF_CPU_HAVE_LAPACK

#include <algorithm>
#include <complex>
#include <vector>

#include "dtype_dispatch.hpp"
#include "lapack.hpp"
#include "matrix_batch.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

/// Reads matrix b of `in` into m and refuses non-finite input for `op`.
template <class T>
void read_finite(const char* op, const MatrixStack& in, int64_t b, ColumnMajor<T>& m) {
  read_matrix(in, b, m.data.data(), m.ld);
  if (!all_finite(m.data.data(), m.rows, m.cols, m.ld)) throw_non_finite(op, b);
}

/// eigh's values (into `values`) and, when `vectors` is set, vectors of matrix b.
template <class T>
LapackFailure eigh_one(const char* op, const MatrixStack& in, int64_t b, const MatrixStack& values,
                       const MatrixStack* vectors) {
  using R = real_t<T>;
  const int64_t n = in.rows();
  ColumnMajor<T> m(n, n);
  read_finite(op, in, b, m);
  std::vector<R> w(static_cast<size_t>(std::max<int64_t>(n, 1)));
  LapackFailure f{b, 0, LapackStep::kEigh};
  if (n > 0) {
    f.info = Lapack<T>::evd(vectors != nullptr ? 'V' : 'N', static_cast<lapack_idx>(n),
                            m.data.data(), static_cast<lapack_idx>(m.ld), w.data());
  }
  if (f.info != 0) return f;
  for (int64_t i = 0; i < n; ++i) *values.at<R>(b, i, 0) = w[static_cast<size_t>(i)];
  if (vectors != nullptr) write_matrix(*vectors, b, m.data.data(), m.ld);
  return f;
}

void eigh_kernel(const ops::linalg_eigh::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_eigh", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out1, 2);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack values(a.out0, 1, batch.shape, batch.ndim);
    const MatrixStack vectors(a.out1, 2, batch.shape, batch.ndim);
    require_lapack_size("linalg_eigh", in.rows());
    for_each_matrix("linalg_eigh", batch.count, in.rows(), [&](int64_t b) {
      return eigh_one<T>("linalg_eigh", in, b, values, &vectors);
    });
  });
}

void eigvalsh_kernel(const ops::linalg_eigvalsh::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_eigvalsh", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out, 1);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack values(a.out, 1, batch.shape, batch.ndim);
    require_lapack_size("linalg_eigvalsh", in.rows());
    for_each_matrix("linalg_eigvalsh", batch.count, in.rows(), [&](int64_t b) {
      return eigh_one<T>("linalg_eigvalsh", in, b, values, nullptr);
    });
  });
}

/// geev's real-input vectors: column j is real when w[j] is, and a pair (w[j], w[j + 1] =
/// conj(w[j])) is stored as columns re, im, giving re + i im and re - i im.
template <class R>
void unpack_real_vectors(const ColumnMajor<R>& vr, const std::complex<R>* w, int64_t n,
                         const MatrixStack& out, int64_t b) {
  using C = std::complex<R>;
  for (int64_t j = 0; j < n; ++j) {
    const bool pair = w[j].imag() != R(0) && j + 1 < n;
    for (int64_t i = 0; i < n; ++i) {
      const R re = vr.data[static_cast<size_t>(i + j * vr.ld)];
      if (!pair) {
        *out.at<C>(b, i, j) = C(re, R(0));
        continue;
      }
      const R im = vr.data[static_cast<size_t>(i + (j + 1) * vr.ld)];
      *out.at<C>(b, i, j) = C(re, im);
      *out.at<C>(b, i, j + 1) = C(re, -im);
    }
    if (pair) ++j;
  }
}

/// eig's values (into `values`) and, when `vectors` is set, unit right vectors of matrix b.
template <class T>
LapackFailure eig_one(const char* op, const MatrixStack& in, int64_t b, const MatrixStack& values,
                      const MatrixStack* vectors) {
  using R = real_t<T>;
  using C = std::complex<R>;
  const int64_t n = in.rows();
  ColumnMajor<T> m(n, n), vr(vectors != nullptr ? n : 0, vectors != nullptr ? n : 0, n);
  read_finite(op, in, b, m);
  std::vector<C> w(static_cast<size_t>(std::max<int64_t>(n, 1)));
  LapackFailure f{b, 0, LapackStep::kEig};
  if (n > 0) {
    f.info = Lapack<T>::geev(static_cast<lapack_idx>(n), m.data.data(),
                             static_cast<lapack_idx>(m.ld), w.data(),
                             vectors != nullptr ? vr.data.data() : nullptr);
  }
  if (f.info != 0) return f;
  for (int64_t i = 0; i < n; ++i) *values.at<C>(b, i, 0) = w[static_cast<size_t>(i)];
  if (vectors == nullptr) return f;
  if constexpr (std::is_same_v<T, C>) {
    write_matrix(*vectors, b, vr.data.data(), vr.ld);
  } else {
    unpack_real_vectors<R>(vr, w.data(), n, *vectors, b);
  }
  return f;
}

void eig_kernel(const ops::linalg_eig::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_eig", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out1, 2);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack values(a.out0, 1, batch.shape, batch.ndim);
    const MatrixStack vectors(a.out1, 2, batch.shape, batch.ndim);
    require_lapack_size("linalg_eig", in.rows());
    for_each_matrix("linalg_eig", batch.count, in.rows(), [&](int64_t b) {
      return eig_one<T>("linalg_eig", in, b, values, &vectors);
    });
  });
}

void eigvals_kernel(const ops::linalg_eigvals::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_eigvals", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out, 1);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack values(a.out, 1, batch.shape, batch.ndim);
    require_lapack_size("linalg_eigvals", in.rows());
    for_each_matrix("linalg_eigvals", batch.count, in.rows(), [&](int64_t b) {
      return eig_one<T>("linalg_eigvals", in, b, values, nullptr);
    });
  });
}

/// The outputs of one svd: U and Vh (null for svdvals) and S.
struct SvdOut {
  const MatrixStack* u;
  const MatrixStack& s;
  const MatrixStack* vh;
  bool full;
};

template <class T>
LapackFailure svd_one(const char* op, const MatrixStack& in, int64_t b, const SvdOut& out) {
  using R = real_t<T>;
  const int64_t m = in.rows(), n = in.cols(), k = std::min(m, n);
  const bool vectors = out.u != nullptr;
  const int64_t ucols = out.full ? m : k, vrows = out.full ? n : k;
  ColumnMajor<T> a(m, n), u(vectors ? m : 1, vectors ? ucols : 1), vt(vectors ? vrows : 1, vectors ? n : 1);
  read_finite(op, in, b, a);
  std::vector<R> s(static_cast<size_t>(std::max<int64_t>(k, 1)));
  LapackFailure f{b, 0, LapackStep::kSvd};
  if (k > 0) {
    const char jobz = !vectors ? 'N' : out.full ? 'A' : 'S';
    f.info = Lapack<T>::gesdd(jobz, static_cast<lapack_idx>(m), static_cast<lapack_idx>(n),
                              a.data.data(), static_cast<lapack_idx>(a.ld), s.data(),
                              u.data.data(), static_cast<lapack_idx>(u.ld), vt.data.data(),
                              static_cast<lapack_idx>(vt.ld));
  } else if (vectors) {
    // An empty matrix: the full U and Vh are identities, nothing else has elements.
    for (int64_t i = 0; i < u.rows && out.full; ++i) u(i, i) = T(1);
    for (int64_t i = 0; i < vt.rows && out.full; ++i) vt(i, i) = T(1);
  }
  if (f.info != 0) return f;
  for (int64_t i = 0; i < k; ++i) *out.s.at<R>(b, i, 0) = s[static_cast<size_t>(i)];
  if (vectors) {
    write_matrix(*out.u, b, u.data.data(), u.ld);
    write_matrix(*out.vh, b, vt.data.data(), vt.ld);
  }
  return f;
}

void svd_kernel(const ops::linalg_svd::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_svd", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out1, 1);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack u(a.out0, 2, batch.shape, batch.ndim), s(a.out1, 1, batch.shape, batch.ndim);
    const MatrixStack vh(a.out2, 2, batch.shape, batch.ndim);
    require_lapack_size("linalg_svd", std::max(in.rows(), in.cols()));
    const SvdOut out{&u, s, &vh, a.full_matrices};
    for_each_matrix("linalg_svd", batch.count, std::max(in.rows(), in.cols()), [&](int64_t b) {
      return svd_one<T>("linalg_svd", in, b, out);
    });
  });
}

void svdvals_kernel(const ops::linalg_svdvals::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_svdvals", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out, 1);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim), s(a.out, 1, batch.shape, batch.ndim);
    require_lapack_size("linalg_svdvals", std::max(in.rows(), in.cols()));
    const SvdOut out{nullptr, s, nullptr, false};
    for_each_matrix("linalg_svdvals", batch.count, std::max(in.rows(), in.cols()),
                    [&](int64_t b) { return svd_one<T>("linalg_svdvals", in, b, out); });
  });
}

/// qr of matrix b: R from geqrf's upper triangle, then Q's first `qcols` columns.
template <class T>
LapackFailure qr_one(const MatrixStack& in, int64_t b, const MatrixStack& q, const MatrixStack& r) {
  const int64_t m = in.rows(), n = in.cols(), k = std::min(m, n), qcols = q.cols();
  // Q's columns are made in place of the factored matrix: room for max(n, qcols) of them.
  ColumnMajor<T> a(m, std::max(n, qcols));
  read_matrix(in, b, a.data.data(), a.ld);
  std::vector<T> tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
  LapackFailure f{b, 0, LapackStep::kLu};
  if (k > 0) {
    f.info = Lapack<T>::geqrf(static_cast<lapack_idx>(m), static_cast<lapack_idx>(n),
                              a.data.data(), static_cast<lapack_idx>(a.ld), tau.data());
  }
  if (f.info != 0) return f;
  for (int64_t i = 0; i < r.rows(); ++i) {
    for (int64_t j = 0; j < n; ++j) *r.at<T>(b, i, j) = j >= i ? a(i, j) : T(0);
  }
  if (m > 0 && qcols > 0) {
    f.info = Lapack<T>::ungqr(static_cast<lapack_idx>(m), static_cast<lapack_idx>(qcols),
                              static_cast<lapack_idx>(k), a.data.data(),
                              static_cast<lapack_idx>(a.ld), tau.data());
  }
  if (f.info == 0) write_matrix(q, b, a.data.data(), a.ld);
  return f;
}

void qr_kernel(const ops::linalg_qr::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_qr", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out0, 2);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack q(a.out0, 2, batch.shape, batch.ndim), r(a.out1, 2, batch.shape, batch.ndim);
    require_lapack_size("linalg_qr", std::max(in.rows(), in.cols()));
    for_each_matrix("linalg_qr", batch.count, std::max(in.rows(), in.cols()),
                    [&](int64_t b) { return qr_one<T>(in, b, q, r); });
  });
}

}  // namespace

kf_status_t register_spectral_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, linalg_eigh, eigh_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_eigvalsh, eigvalsh_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_eig, eig_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_eigvals, eigvals_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_svd, svd_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_svdvals, svdvals_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_qr, qr_kernel, kLapackMask);
  return KF_OK;
}

}  // namespace kf::cpu

#else  // no LAPACK: these ops have no cpu kernel (kernforge ops shows it)

namespace kf::cpu {
kf_status_t register_spectral_kernels(const kf_registrar_t*) { return KF_OK; }
}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_LAPACK
