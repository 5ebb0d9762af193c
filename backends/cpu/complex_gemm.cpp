// complex_gemm.cpp — complex GEMM (complex_gemm.hpp): OpenBLAS's cblas_cgemm / cblas_zgemm, or
// a plain loop without OpenBLAS.
#include "complex_gemm.hpp"

#if KF_CPU_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace kf::cpu {
namespace {

#if !KF_CPU_HAVE_OPENBLAS
/// c = op(a) · op(b), row-major: element (i, p) of op(a) is a[i * lda + p], or a[p * lda + i]
/// when transposed.
template <class T>
void plain_complex_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a,
                        int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    T* crow = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) crow[j] = T(0);
    for (int64_t p = 0; p < k; ++p) {
      const T x = ta ? a[p * lda + i] : a[i * lda + p];
      for (int64_t j = 0; j < n; ++j) crow[j] += x * (tb ? b[j * ldb + p] : b[p * ldb + j]);
    }
  }
}
#endif

}  // namespace

void gemm_c64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
              const std::complex<float>* a, int64_t lda, const std::complex<float>* b,
              int64_t ldb, std::complex<float>* c, int64_t ldc) {
#if KF_CPU_HAVE_OPENBLAS
  const std::complex<float> one(1.0f, 0.0f), zero(0.0f, 0.0f);
  cblas_cgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
              trans_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), &one, a,
              static_cast<blasint>(lda), b, static_cast<blasint>(ldb), &zero, c,
              static_cast<blasint>(ldc));
#else
  plain_complex_gemm(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
#endif
}

void gemm_c128(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
               const std::complex<double>* a, int64_t lda, const std::complex<double>* b,
               int64_t ldb, std::complex<double>* c, int64_t ldc) {
#if KF_CPU_HAVE_OPENBLAS
  const std::complex<double> one(1.0, 0.0), zero(0.0, 0.0);
  cblas_zgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
              trans_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), &one, a,
              static_cast<blasint>(lda), b, static_cast<blasint>(ldb), &zero, c,
              static_cast<blasint>(ldc));
#else
  plain_complex_gemm(trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
#endif
}

}  // namespace kf::cpu
