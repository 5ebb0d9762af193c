// plain_gemm.hpp — C = A·B for float and double in plain C++, the CPU backend's GEMM where no
// BLAS library is available (KF_CPU_BLAS=OFF, or no OpenBLAS found: the Windows/MinGW build).
//
// Every operand is strided: element (i, j) of A is a[i * a_rs + j * a_cs], and the same for B
// and C, so transposed, sliced and expanded (zero-stride) inputs and any strided output are
// taken as they are; the blocks are packed into contiguous buffers before they are multiplied.
// C must not overlap A or B. Its previous contents are ignored (beta = 0). Large products run
// on several OpenMP threads (parallel.hpp). See Note [Plain GEMM] in plain_gemm.cpp.
#pragma once

#include <cstdint>

namespace kf::cpu {

void plain_gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs,
                const float* b, int64_t b_rs, int64_t b_cs, float* c, int64_t c_rs,
                int64_t c_cs);
void plain_gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_rs, int64_t a_cs,
                const double* b, int64_t b_rs, int64_t b_cs, double* c, int64_t c_rs,
                int64_t c_cs);

}  // namespace kf::cpu
