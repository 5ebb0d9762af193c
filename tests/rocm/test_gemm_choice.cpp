// The rocm plugin's GEMM without an AMD GPU (backends/rocm/gemm_choice.hpp, rocblas_library.hpp):
// rocBLAS is looked for by its SONAMEs and, absent, named as missing; the operands rocBLAS reads
// in place, and the choice between rocBLAS and the tiled kernel.
#include <gtest/gtest.h>

#include <string>

#include "gemm_choice.hpp"

namespace {

using kf::cuda::blas_operand;
using kf::cuda::BlasGemm;
using kf::cuda::choose_gemm;
using kf::cuda::GemmEngine;
using kf::cuda::GemmOperand;

GemmOperand row_major(int64_t rows, int64_t cols) {
  GemmOperand o;
  o.rows = rows, o.cols = cols, o.rs = cols, o.cs = 1, o.bs = rows * cols;
  return o;
}

GemmOperand transposed(int64_t rows, int64_t cols) {  // a row-major [cols, rows] read as .T
  GemmOperand o;
  o.rows = rows, o.cols = cols, o.rs = 1, o.cs = rows, o.bs = rows * cols;
  return o;
}

BlasGemm dense(int64_t m, int64_t n, int64_t k) {
  BlasGemm g;
  g.dtype = KF_FLOAT32;
  g.a = row_major(m, k);
  g.b = row_major(k, n);
  g.c = row_major(m, n);
  return g;
}

TEST(GemmChoice, WithoutRocblasEveryGemmIsTiled) {
  EXPECT_EQ(choose_gemm(false, dense(64, 64, 64)), GemmEngine::kTiled);
}

TEST(GemmChoice, RocblasTakesWhatItReadsInPlace) {
  EXPECT_EQ(choose_gemm(true, dense(64, 32, 16)), GemmEngine::kRocblas);
  BlasGemm g = dense(8, 8, 8);
  g.a = transposed(8, 8);
  EXPECT_EQ(choose_gemm(true, g), GemmEngine::kRocblas);
}

TEST(GemmChoice, OtherStridesAndAReadBiasGoToTheTiledKernel) {
  BlasGemm strided = dense(8, 8, 8);
  strided.b.cs = 2;  // every other column: neither layout
  EXPECT_EQ(choose_gemm(true, strided), GemmEngine::kTiled);
  BlasGemm out_t = dense(8, 8, 8);
  out_t.c = transposed(8, 8);  // rocBLAS writes row-major c only
  EXPECT_EQ(choose_gemm(true, out_t), GemmEngine::kTiled);
  BlasGemm addmm = dense(8, 8, 8);
  kf_tensor_view_t bias{};
  addmm.bias = &bias;
  addmm.beta = kf_scalar_f64(0.5);
  EXPECT_EQ(choose_gemm(true, addmm), GemmEngine::kTiled);
  addmm.beta = kf_scalar_f64(0.0);  // beta 0 never reads the bias
  EXPECT_EQ(choose_gemm(true, addmm), GemmEngine::kRocblas);
  BlasGemm huge = dense(8, 8, 8);
  huge.a.rs = int64_t{1} << 32;  // a leading dimension beyond rocblas_int
  EXPECT_EQ(choose_gemm(true, huge), GemmEngine::kTiled);
}

TEST(GemmChoice, OperandsAreReadRowMajorUntransposedOrColumnMajorTransposed) {
  const auto r = blas_operand(row_major(3, 5));
  EXPECT_TRUE(r.ok);
  EXPECT_FALSE(r.transposed);
  EXPECT_EQ(r.ld, 5);
  const auto t = blas_operand(transposed(3, 5));
  EXPECT_TRUE(t.ok);
  EXPECT_TRUE(t.transposed);
  EXPECT_EQ(t.ld, 3);
  GemmOperand gap = row_major(3, 5);
  gap.rs = 4;  // rows overlap: no leading dimension
  EXPECT_FALSE(blas_operand(gap).ok);
}

TEST(GemmChoice, AMissingRocblasIsNamedWithTheSonamesTried) {
  std::string why;
  const auto lib = kf::cuda::open_rocblas(why);
  if (lib != nullptr) GTEST_SKIP() << "rocBLAS is installed here: " << lib->path();
  for (const std::string& soname : kf::cuda::rocblas_sonames()) {
    EXPECT_NE(why.find(soname + " not found"), std::string::npos) << why;
  }
}

}  // namespace
