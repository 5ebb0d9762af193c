// complex_gemm.hpp — C = A·B for complex64 and complex128, row-major with leading dimensions
// (alpha 1, beta 0): OpenBLAS's cgemm and zgemm when the plugin has OpenBLAS, else a plain
// i-k-j loop (the MinGW build, KF_CPU_BLAS=OFF), which is correct but not fast.
#pragma once

#include <complex>
#include <cstdint>

namespace kf::cpu {

void gemm_c64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
              const std::complex<float>* a, int64_t lda, const std::complex<float>* b,
              int64_t ldb, std::complex<float>* c, int64_t ldc);
void gemm_c128(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
               const std::complex<double>* a, int64_t lda, const std::complex<double>* b,
               int64_t ldb, std::complex<double>* c, int64_t ldc);

}  // namespace kf::cpu
