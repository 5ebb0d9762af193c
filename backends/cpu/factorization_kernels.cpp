// factorization_kernels.cpp — the LU and Cholesky family: linalg_cholesky (potrf), linalg_inv
// (getrf, getri), linalg_solve (gesv), linalg_det and linalg_slogdet (getrf), and
// linalg_lstsq (gelsd), for float32, float64, complex64 and complex128, batched over the
// leading dims (matrix_batch.hpp, Note [Batches in parallel]). Each matrix is copied into a
// column-major buffer, which LAPACK overwrites, and its result written to the output's layout.
// A singular or non-positive-definite matrix is an error naming its batch index
// (lapack_status.hpp); det and slogdet of a singular matrix are 0 and (0, -inf), not errors.
#include "kernels.hpp"

#if KF_CPU_HAVE_LAPACK

#include <cmath>
#include <complex>
#include <limits>
#include <utility>
#include <vector>

#include "dtype_dispatch.hpp"
#include "lapack.hpp"
#include "matrix_batch.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

void cholesky_kernel(const ops::linalg_cholesky::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_cholesky", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out, 2);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim), out(a.out, 2, batch.shape, batch.ndim);
    const int64_t n = in.rows();
    require_lapack_size("linalg_cholesky", n);
    for_each_matrix("linalg_cholesky", batch.count, n, [&](int64_t b) {
      ColumnMajor<T> m(n, n);
      read_matrix(in, b, m.data.data(), m.ld);
      LapackFailure f{b, n > 0 ? Lapack<T>::potrf('L', static_cast<lapack_idx>(n), m.data.data(),
                                                   static_cast<lapack_idx>(m.ld))
                               : 0, LapackStep::kCholesky};
      if (f.info != 0) return f;
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = 0; i < n; ++i) {
          if (i < j) m(i, j) = T(0);  // potrf leaves the other triangle as it was
        }
      }
      if (a.upper) {  // U = L^H
        ColumnMajor<T> u(n, n);
        for (int64_t j = 0; j < n; ++j) {
          for (int64_t i = 0; i < n; ++i) u(i, j) = conj_of(m(j, i));
        }
        write_matrix(out, b, u.data.data(), u.ld);
      } else {
        write_matrix(out, b, m.data.data(), m.ld);
      }
      return f;
    });
  });
}

void inv_kernel(const ops::linalg_inv::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_inv", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out, 2);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim), out(a.out, 2, batch.shape, batch.ndim);
    const int64_t n = in.rows();
    require_lapack_size("linalg_inv", n);
    for_each_matrix("linalg_inv", batch.count, n, [&](int64_t b) {
      ColumnMajor<T> m(n, n);
      std::vector<lapack_idx> ipiv(static_cast<size_t>(std::max<int64_t>(n, 1)));
      read_matrix(in, b, m.data.data(), m.ld);
      const auto nn = static_cast<lapack_idx>(n), ld = static_cast<lapack_idx>(m.ld);
      LapackFailure f{b, n > 0 ? Lapack<T>::getrf(nn, nn, m.data.data(), ld, ipiv.data()) : 0,
                      LapackStep::kLu};
      if (f.info == 0 && n > 0) f.info = Lapack<T>::getri(nn, m.data.data(), ld, ipiv.data());
      if (f.info == 0) write_matrix(out, b, m.data.data(), m.ld);
      return f;
    });
  });
}

void solve_kernel(const ops::linalg_solve::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_solve", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int32_t rhs_dims = a.other.ndim == 1 ? 1 : 2;
    const BatchShape batch = batch_of(a.out, rhs_dims);
    const MatrixStack lhs(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack rhs(a.other, rhs_dims, batch.shape, batch.ndim);
    const MatrixStack out(a.out, rhs_dims, batch.shape, batch.ndim);
    const int64_t n = lhs.rows(), k = rhs.cols();
    require_lapack_size("linalg_solve", n);
    require_lapack_size("linalg_solve", k);
    for_each_matrix("linalg_solve", batch.count, n, [&](int64_t b) {
      ColumnMajor<T> m(n, n), x(n, k);
      std::vector<lapack_idx> ipiv(static_cast<size_t>(std::max<int64_t>(n, 1)));
      read_matrix(lhs, b, m.data.data(), m.ld);
      read_matrix(rhs, b, x.data.data(), x.ld);
      LapackFailure f{b, 0, LapackStep::kLu};
      if (n > 0 && k > 0) {
        f.info = Lapack<T>::gesv(static_cast<lapack_idx>(n), static_cast<lapack_idx>(k),
                                 m.data.data(), static_cast<lapack_idx>(m.ld), ipiv.data(),
                                 x.data.data(), static_cast<lapack_idx>(x.ld));
      }
      if (f.info == 0) write_matrix(out, b, x.data.data(), x.ld);
      return f;
    });
  });
}

/// The LU factorisation's determinant of one matrix as (sign or phase, log |det|); a zero
/// pivot gives (0, -inf).
template <class T>
std::pair<T, real_t<T>> lu_slogdet(const MatrixStack& in, int64_t b, int64_t n) {
  using R = real_t<T>;
  if (n == 0) return {T(1), R(0)};
  ColumnMajor<T> m(n, n);
  std::vector<lapack_idx> ipiv(static_cast<size_t>(n));
  read_matrix(in, b, m.data.data(), m.ld);
  const auto nn = static_cast<lapack_idx>(n);
  const lapack_idx info = Lapack<T>::getrf(nn, nn, m.data.data(), static_cast<lapack_idx>(m.ld),
                                           ipiv.data());
  if (info < 0) throw_lapack_failure("linalg_slogdet", LapackFailure{b, info, LapackStep::kLu});
  T sign(1);
  R log_abs(0);
  for (int64_t i = 0; i < n; ++i) {
    const T d = m(i, i);
    const R mag = std::abs(d);
    if (ipiv[static_cast<size_t>(i)] != i + 1) sign = -sign;
    if (mag == R(0)) return {T(0), -std::numeric_limits<R>::infinity()};
    sign *= d / mag;  // the phase (+-1 for real)
    log_abs += std::log(mag);
  }
  return {sign, log_abs};
}

void det_kernel(const ops::linalg_det::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_det", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BatchShape batch = batch_of(a.out, 0);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim), out(a.out, 0, batch.shape, batch.ndim);
    const int64_t n = in.rows();
    require_lapack_size("linalg_det", n);
    for_each_matrix("linalg_det", batch.count, n, [&](int64_t b) {
      // The product of the pivots directly (numpy's det): no exp(log) rounding.
      if (n == 0) {
        *out.at<T>(b, 0, 0) = T(1);
        return LapackFailure{};
      }
      ColumnMajor<T> m(n, n);
      std::vector<lapack_idx> ipiv(static_cast<size_t>(n));
      read_matrix(in, b, m.data.data(), m.ld);
      const auto nn = static_cast<lapack_idx>(n);
      const lapack_idx info = Lapack<T>::getrf(nn, nn, m.data.data(),
                                               static_cast<lapack_idx>(m.ld), ipiv.data());
      if (info < 0) return LapackFailure{b, info, LapackStep::kLu};
      T det(1);
      for (int64_t i = 0; i < n; ++i) {
        det *= m(i, i);
        if (ipiv[static_cast<size_t>(i)] != i + 1) det = -det;
      }
      *out.at<T>(b, 0, 0) = det;
      return LapackFailure{};
    });
  });
}

void slogdet_kernel(const ops::linalg_slogdet::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_slogdet", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    const BatchShape batch = batch_of(a.out0, 0);
    const MatrixStack in(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack sign(a.out0, 0, batch.shape, batch.ndim);
    const MatrixStack logabs(a.out1, 0, batch.shape, batch.ndim);
    const int64_t n = in.rows();
    require_lapack_size("linalg_slogdet", n);
    for_each_matrix("linalg_slogdet", batch.count, n, [&](int64_t b) {
      const auto [s, l] = lu_slogdet<T>(in, b, n);
      *sign.at<T>(b, 0, 0) = s;
      *logabs.at<R>(b, 0, 0) = l;
      return LapackFailure{};
    });
  });
}

/// Squared column norms of rhs - lhs @ x for one matrix (lstsq's residuals).
template <class T>
void residuals(const MatrixStack& lhs, const MatrixStack& rhs, int64_t b, ColumnMajor<T>& x,
               const MatrixStack& res) {
  using R = real_t<T>;
  const int64_t m = lhs.rows(), n = lhs.cols();
  const T* a = lhs.matrix<T>(b);
  const T* y = rhs.matrix<T>(b);
  for (int64_t j = 0; j < rhs.cols(); ++j) {
    R sum(0);
    for (int64_t i = 0; i < m; ++i) {
      T r = y[i * rhs.row_stride() + j * rhs.col_stride()];
      for (int64_t p = 0; p < n; ++p) r -= a[i * lhs.row_stride() + p * lhs.col_stride()] * x(p, j);
      sum += std::norm(r);
    }
    *res.at<R>(b, j, 0) = sum;
  }
}

void lstsq_kernel(const ops::linalg_lstsq::Args& a) {
  dispatch<kLapackMask>(a.self.dtype, "linalg_lstsq", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = real_t<T>;
    const int32_t rhs_dims = a.other.ndim == 1 ? 1 : 2;
    const BatchShape batch = batch_of(a.out0, rhs_dims);
    const MatrixStack lhs(a.self, 2, batch.shape, batch.ndim);
    const MatrixStack rhs(a.other, rhs_dims, batch.shape, batch.ndim);
    const MatrixStack sol(a.out0, rhs_dims, batch.shape, batch.ndim);
    const MatrixStack rank(a.out2, 0, batch.shape, batch.ndim);
    const MatrixStack sv(a.out3, 1, batch.shape, batch.ndim);
    const int64_t m = lhs.rows(), n = lhs.cols(), k = rhs.cols();
    const bool with_residuals = m > n;
    const MatrixStack res(a.out1, 1, batch.shape, batch.ndim);  // [0] unless with_residuals
    for (int64_t s : {m, n, k}) require_lapack_size("linalg_lstsq", s);
    const R rcond = a.rcond ? static_cast<R>(*a.rcond)
                            : std::numeric_limits<R>::epsilon() * static_cast<R>(std::max(m, n));
    for_each_matrix("linalg_lstsq", batch.count, std::max(m, n), [&](int64_t b) {
      ColumnMajor<T> lhs_copy(m, n), x(std::max(m, n), k);
      std::vector<R> s(static_cast<size_t>(std::max<int64_t>(std::min(m, n), 1)));
      read_matrix(lhs, b, lhs_copy.data.data(), lhs_copy.ld);
      read_matrix(rhs, b, x.data.data(), x.ld);  // the first m rows
      if (!all_finite(lhs_copy.data.data(), m, n, lhs_copy.ld)) throw_non_finite("linalg_lstsq", b);
      lapack_idx r = 0;
      LapackFailure f{b, 0, LapackStep::kLeastSquares};
      if (m > 0 && n > 0 && k > 0) {
        f.info = Lapack<T>::gelsd(static_cast<lapack_idx>(m), static_cast<lapack_idx>(n),
                                  static_cast<lapack_idx>(k), lhs_copy.data.data(),
                                  static_cast<lapack_idx>(lhs_copy.ld), x.data.data(),
                                  static_cast<lapack_idx>(x.ld), s.data(), rcond, &r);
      } else {
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < k; ++j) x(i, j) = T(0);  // no equations: the least-norm 0
        }
      }
      if (f.info != 0) return f;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < k; ++j) *sol.at<T>(b, i, j) = x(i, j);
      }
      *rank.at<int64_t>(b, 0, 0) = r;
      for (int64_t i = 0; i < std::min(m, n); ++i) *sv.at<R>(b, i, 0) = s[static_cast<size_t>(i)];
      if (with_residuals) residuals(lhs, rhs, b, x, res);
      return f;
    });
  });
}

}  // namespace

kf_status_t register_factorization_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, linalg_cholesky, cholesky_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_inv, inv_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_solve, solve_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_det, det_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_slogdet, slogdet_kernel, kLapackMask);
  KF_CPU_KERNEL(reg, linalg_lstsq, lstsq_kernel, kLapackMask);
  return KF_OK;
}

}  // namespace kf::cpu

#else  // no LAPACK: these ops have no cpu kernel (kernforge ops shows it)

namespace kf::cpu {
kf_status_t register_factorization_kernels(const kf_registrar_t*) { return KF_OK; }
}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_LAPACK
