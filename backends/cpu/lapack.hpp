// lapack.hpp — the LAPACK routines of the decompositions, for T in float, double,
// std::complex<float> and std::complex<double>, as Lapack<T>::routine(...) with the workspaces
// queried and allocated inside. They are OpenBLAS's LAPACK (the plugin links libopenblas, which
// carries the Fortran routines), declared by LAPACK's lapack.h; only built with
// KF_CPU_HAVE_LAPACK. Matrices are column-major with leading dimension `ld`. Every routine
// returns LAPACK's `info` (0: done; < 0: argument -info was bad, which is a bug here; > 0: the
// routine's own failure, read by lapack_status.hpp). Thread safety: reentrant, no state.
#pragma once

#if KF_CPU_HAVE_LAPACK

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapack.h>

#include "dtype_dispatch.hpp"  // is_complex_v
#include "kernforge/dtypes.hpp"

namespace kf::cpu {

using lapack_idx = lapack_int;

/// The dtypes LAPACK computes in.
constexpr uint32_t kLapackMask = dtype_bit(KF_FLOAT32) | dtype_bit(KF_FLOAT64) |
                                 dtype_bit(KF_COMPLEX64) | dtype_bit(KF_COMPLEX128);

/// The real type of T (float for std::complex<float>).
template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename RealOf<T>::type;

/// The size a workspace query wrote into `work[0]`, at least 1. A float32 routine reports it
/// as a float, which above 2^24 may be rounded down: a margin of 1e-6 covers that.
template <class T>
lapack_idx work_size(const T& w) {
  const double v = static_cast<double>(std::real(w));
  return v < 1 ? 1 : static_cast<lapack_idx>(std::ceil(v * (1.0 + 1e-6)));
}

template <class T>
struct Lapack {
  using R = real_t<T>;

  /// Cholesky factor of the `uplo` triangle ('L' or 'U'), in place.
  static lapack_idx potrf(char uplo, lapack_idx n, T* a, lapack_idx ld) {
    lapack_idx info = 0;
    if constexpr (std::is_same_v<T, float>) LAPACK_spotrf(&uplo, &n, a, &ld, &info);
    else if constexpr (std::is_same_v<T, double>) LAPACK_dpotrf(&uplo, &n, a, &ld, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACK_cpotrf(&uplo, &n, a, &ld, &info);
    else LAPACK_zpotrf(&uplo, &n, a, &ld, &info);
    return info;
  }

  /// LU factorisation with partial pivoting of an m x n matrix, in place.
  static lapack_idx getrf(lapack_idx m, lapack_idx n, T* a, lapack_idx ld, lapack_idx* ipiv) {
    lapack_idx info = 0;
    if constexpr (std::is_same_v<T, float>) LAPACK_sgetrf(&m, &n, a, &ld, ipiv, &info);
    else if constexpr (std::is_same_v<T, double>) LAPACK_dgetrf(&m, &n, a, &ld, ipiv, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACK_cgetrf(&m, &n, a, &ld, ipiv, &info);
    else LAPACK_zgetrf(&m, &n, a, &ld, ipiv, &info);
    return info;
  }

  /// The inverse from getrf's factors, in place.
  static lapack_idx getri(lapack_idx n, T* a, lapack_idx ld, const lapack_idx* ipiv) {
    lapack_idx info = 0, lwork = -1;
    T query{};
    call_getri(n, a, ld, ipiv, &query, lwork, info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    call_getri(n, a, ld, ipiv, work.data(), lwork, info);
    return info;
  }

  /// Solves A X = B (A n x n, B n x nrhs), both overwritten (A by its LU factors, B by X).
  static lapack_idx gesv(lapack_idx n, lapack_idx nrhs, T* a, lapack_idx lda, lapack_idx* ipiv,
                         T* b, lapack_idx ldb) {
    lapack_idx info = 0;
    if constexpr (std::is_same_v<T, float>) LAPACK_sgesv(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
    else if constexpr (std::is_same_v<T, double>) LAPACK_dgesv(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACK_cgesv(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
    else LAPACK_zgesv(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
    return info;
  }

  /// Eigenvalues (ascending, into w) and, when jobz is 'V', eigenvectors (into a) of the
  /// Hermitian matrix whose lower triangle a holds (syevd / heevd).
  static lapack_idx evd(char jobz, lapack_idx n, T* a, lapack_idx ld, R* w) {
    const char uplo = 'L';
    lapack_idx info = 0, lwork = -1, lrwork = -1, liwork = -1, iquery = 0;
    T query{};
    R rquery{};
    call_evd(jobz, uplo, n, a, ld, w, &query, lwork, &rquery, lrwork, &iquery, liwork, info);
    if (info != 0) return info;
    lwork = work_size(query);
    lrwork = work_size(rquery);
    liwork = iquery < 1 ? 1 : iquery;
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<R> rwork(is_complex_v<T> ? static_cast<size_t>(lrwork) : 1);
    std::vector<lapack_idx> iwork(static_cast<size_t>(liwork));
    call_evd(jobz, uplo, n, a, ld, w, work.data(), lwork, rwork.data(), lrwork, iwork.data(),
             liwork, info);
    return info;
  }

  /// Householder QR of an m x n matrix, in place, with its k = min(m, n) scalars in tau.
  static lapack_idx geqrf(lapack_idx m, lapack_idx n, T* a, lapack_idx ld, T* tau) {
    lapack_idx info = 0, lwork = -1;
    T query{};
    call_geqrf(m, n, a, ld, tau, &query, lwork, info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    call_geqrf(m, n, a, ld, tau, work.data(), lwork, info);
    return info;
  }

  /// The first n columns of Q from geqrf's k reflectors, in place (orgqr / ungqr).
  static lapack_idx ungqr(lapack_idx m, lapack_idx n, lapack_idx k, T* a, lapack_idx ld,
                          const T* tau) {
    lapack_idx info = 0, lwork = -1;
    T query{};
    call_ungqr(m, n, k, a, ld, tau, &query, lwork, info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    call_ungqr(m, n, k, a, ld, tau, work.data(), lwork, info);
    return info;
  }

  /// Singular values (into s) and, for jobz 'A' or 'S', vectors (u, vt) of an m x n matrix,
  /// which is destroyed (gesdd, divide and conquer).
  static lapack_idx gesdd(char jobz, lapack_idx m, lapack_idx n, T* a, lapack_idx lda, R* s,
                          T* u, lapack_idx ldu, T* vt, lapack_idx ldvt) {
    const lapack_idx k = m < n ? m : n, big = m < n ? n : m;
    lapack_idx info = 0, lwork = -1;
    T query{};
    std::vector<lapack_idx> iwork(static_cast<size_t>(8 * (k > 0 ? k : 1)));
    // zgesdd's rwork: LAPACK's documented minimum for jobz.
    const int64_t lrwork = jobz == 'N' ? 7 * int64_t{k} + 1
                                       : int64_t{k} * std::max<int64_t>(5 * int64_t{k} + 7,
                                                                        2 * int64_t{big} + 2 * k + 1);
    std::vector<R> rwork(is_complex_v<T> ? static_cast<size_t>(lrwork > 1 ? lrwork : 1) : 1);
    call_gesdd(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, &query, lwork, rwork.data(),
               iwork.data(), info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    call_gesdd(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work.data(), lwork, rwork.data(),
               iwork.data(), info);
    return info;
  }

  /// Eigenvalues (w, complex) and, when vr is not null, right eigenvectors of a general n x n
  /// matrix, which is destroyed (geev). For real T the vectors come in LAPACK's packed form
  /// (a complex pair as two real columns), which the caller unpacks.
  static lapack_idx geev(lapack_idx n, T* a, lapack_idx ld, std::complex<R>* w, T* vr) {
    const char jobvl = 'N', jobvr = vr != nullptr ? 'V' : 'N';
    const lapack_idx ldvr = vr != nullptr ? ld : 1;
    lapack_idx info = 0, lwork = -1;
    T query{}, vl_dummy{};
    std::vector<R> wr(is_complex_v<T> ? 1 : static_cast<size_t>(n > 0 ? n : 1));
    std::vector<R> wi(wr.size()), rwork(is_complex_v<T> ? static_cast<size_t>(2 * n + 1) : 1);
    T* vr_out = vr != nullptr ? vr : &vl_dummy;
    call_geev(jobvl, jobvr, n, a, ld, w, wr.data(), wi.data(), &vl_dummy, vr_out, ldvr, &query,
              lwork, rwork.data(), info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    call_geev(jobvl, jobvr, n, a, ld, w, wr.data(), wi.data(), &vl_dummy, vr_out, ldvr,
              work.data(), lwork, rwork.data(), info);
    if constexpr (!is_complex_v<T>) {
      for (lapack_idx i = 0; i < n && info == 0; ++i) w[i] = std::complex<R>(wr[i], wi[i]);
    }
    return info;
  }

  /// Least squares min |A X - B| of an m x n A (destroyed) and B [max(m, n) x nrhs] (its first
  /// n rows become X), singular values into s, the effective rank into *rank (gelsd).
  static lapack_idx gelsd(lapack_idx m, lapack_idx n, lapack_idx nrhs, T* a, lapack_idx lda,
                          T* b, lapack_idx ldb, R* s, R rcond, lapack_idx* rank) {
    lapack_idx info = 0, lwork = -1, iquery = 0;
    T query{};
    R rquery{};
    call_gelsd(m, n, nrhs, a, lda, b, ldb, s, rcond, rank, &query, lwork, &rquery, &iquery,
               info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<R> rwork(is_complex_v<T> ? static_cast<size_t>(work_size(rquery)) : 1);
    std::vector<lapack_idx> iwork(static_cast<size_t>(iquery < 1 ? 1 : iquery));
    call_gelsd(m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work.data(), lwork, rwork.data(),
               iwork.data(), info);
    return info;
  }

 private:
  static void call_getri(lapack_idx n, T* a, lapack_idx ld, const lapack_idx* ipiv, T* work,
                         lapack_idx lwork, lapack_idx& info) {
    if constexpr (std::is_same_v<T, float>) LAPACK_sgetri(&n, a, &ld, ipiv, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, double>) LAPACK_dgetri(&n, a, &ld, ipiv, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACK_cgetri(&n, a, &ld, ipiv, work, &lwork, &info);
    else LAPACK_zgetri(&n, a, &ld, ipiv, work, &lwork, &info);
  }

  static void call_evd(char jobz, char uplo, lapack_idx n, T* a, lapack_idx ld, R* w, T* work,
                       lapack_idx lwork, R* rwork, lapack_idx lrwork, lapack_idx* iwork,
                       lapack_idx liwork, lapack_idx& info) {
    if constexpr (std::is_same_v<T, float>) {
      LAPACK_ssyevd(&jobz, &uplo, &n, a, &ld, w, work, &lwork, iwork, &liwork, &info);
    } else if constexpr (std::is_same_v<T, double>) {
      LAPACK_dsyevd(&jobz, &uplo, &n, a, &ld, w, work, &lwork, iwork, &liwork, &info);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      LAPACK_cheevd(&jobz, &uplo, &n, a, &ld, w, work, &lwork, rwork, &lrwork, iwork, &liwork,
                    &info);
    } else {
      LAPACK_zheevd(&jobz, &uplo, &n, a, &ld, w, work, &lwork, rwork, &lrwork, iwork, &liwork,
                    &info);
    }
  }

  static void call_geqrf(lapack_idx m, lapack_idx n, T* a, lapack_idx ld, T* tau, T* work,
                         lapack_idx lwork, lapack_idx& info) {
    if constexpr (std::is_same_v<T, float>) LAPACK_sgeqrf(&m, &n, a, &ld, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, double>) LAPACK_dgeqrf(&m, &n, a, &ld, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACK_cgeqrf(&m, &n, a, &ld, tau, work, &lwork, &info);
    else LAPACK_zgeqrf(&m, &n, a, &ld, tau, work, &lwork, &info);
  }

  static void call_ungqr(lapack_idx m, lapack_idx n, lapack_idx k, T* a, lapack_idx ld,
                         const T* tau, T* work, lapack_idx lwork, lapack_idx& info) {
    if constexpr (std::is_same_v<T, float>) LAPACK_sorgqr(&m, &n, &k, a, &ld, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, double>) LAPACK_dorgqr(&m, &n, &k, a, &ld, tau, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>) LAPACK_cungqr(&m, &n, &k, a, &ld, tau, work, &lwork, &info);
    else LAPACK_zungqr(&m, &n, &k, a, &ld, tau, work, &lwork, &info);
  }

  static void call_gesdd(char jobz, lapack_idx m, lapack_idx n, T* a, lapack_idx lda, R* s,
                         T* u, lapack_idx ldu, T* vt, lapack_idx ldvt, T* work, lapack_idx lwork,
                         R* rwork, lapack_idx* iwork, lapack_idx& info) {
    if constexpr (std::is_same_v<T, float>) {
      LAPACK_sgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info);
    } else if constexpr (std::is_same_v<T, double>) {
      LAPACK_dgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      LAPACK_cgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork,
                    &info);
    } else {
      LAPACK_zgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork,
                    &info);
    }
  }

  static void call_geev(char jobvl, char jobvr, lapack_idx n, T* a, lapack_idx ld,
                        std::complex<R>* w, R* wr, R* wi, T* vl, T* vr, lapack_idx ldvr, T* work,
                        lapack_idx lwork, R* rwork, lapack_idx& info) {
    const lapack_idx ldvl = 1;
    if constexpr (std::is_same_v<T, float>) {
      LAPACK_sgeev(&jobvl, &jobvr, &n, a, &ld, wr, wi, vl, &ldvl, vr, &ldvr, work, &lwork, &info);
    } else if constexpr (std::is_same_v<T, double>) {
      LAPACK_dgeev(&jobvl, &jobvr, &n, a, &ld, wr, wi, vl, &ldvl, vr, &ldvr, work, &lwork, &info);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      LAPACK_cgeev(&jobvl, &jobvr, &n, a, &ld, w, vl, &ldvl, vr, &ldvr, work, &lwork, rwork,
                   &info);
    } else {
      LAPACK_zgeev(&jobvl, &jobvr, &n, a, &ld, w, vl, &ldvl, vr, &ldvr, work, &lwork, rwork,
                   &info);
    }
    (void)w;
    (void)wr;
    (void)wi;
    (void)rwork;
  }

  static void call_gelsd(lapack_idx m, lapack_idx n, lapack_idx nrhs, T* a, lapack_idx lda,
                         T* b, lapack_idx ldb, R* s, R rcond, lapack_idx* rank, T* work,
                         lapack_idx lwork, R* rwork, lapack_idx* iwork, lapack_idx& info) {
    if constexpr (std::is_same_v<T, float>) {
      LAPACK_sgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, &info);
    } else if constexpr (std::is_same_v<T, double>) {
      LAPACK_dgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, &info);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      LAPACK_cgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, rwork, iwork,
                    &info);
    } else {
      LAPACK_zgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, rwork, iwork,
                    &info);
    }
    (void)rwork;
  }
};

}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_LAPACK
