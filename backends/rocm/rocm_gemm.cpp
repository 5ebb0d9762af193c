// rocm_gemm.cpp — the floating-point GEMM on rocm (blas_gemm.hpp): rocBLAS where it reads the
// call in place, else the shared tiled kernel of linalg.cu (gemm_choice.hpp, Note [Row-major
// GEMM on rocBLAS]).
#include "gemm_choice.hpp"

#include <string>

#include "kernforge/plugin.hpp"
#include "linalg_launch.hpp"

namespace kf::cuda {
namespace {

int32_t rocblas_type(int32_t dtype) {
  switch (dtype) {
    case KF_FLOAT64: return rocblas::kF64;
    case KF_FLOAT16: return rocblas::kF16;
    case KF_BFLOAT16: return rocblas::kBF16;
    default: return rocblas::kF32;
  }
}

void run_tiled(const KernelScope& scope, const BlasGemm& g, const char* op) {
  FloatGemmLaunch t;
  t.dtype = g.dtype;
  t.batch = g.batch;
  t.m = g.c.rows;
  t.n = g.c.cols;
  t.k = g.a.cols;
  t.a = g.a;
  t.b = g.b;
  t.c = g.c;
  if (g.bias != nullptr) {
    t.bias = g.bias->data;
    t.bias_rs = g.bias->strides[g.bias->ndim - 2];
    t.bias_cs = g.bias->strides[g.bias->ndim - 1];
  }
  t.alpha_f = scalar_as_f32(g.alpha);
  t.beta_f = scalar_as_f32(g.beta);
  t.alpha_d = scalar_as_f64(g.alpha);
  t.beta_d = scalar_as_f64(g.beta);
  launch_float_gemm(t, scope.stream());
  scope.check(op);
}

void run_rocblas(const KernelScope& scope, RocblasLibrary& lib, const BlasGemm& g,
                 const char* op) {
  const BlasOperand a = blas_operand(g.a), b = blas_operand(g.b);
  const float alpha_f = scalar_as_f32(g.alpha), beta_f = 0.0f;
  const double alpha_d = scalar_as_f64(g.alpha), beta_d = 0.0;
  const bool f64 = g.dtype == KF_FLOAT64;
  const void* alpha = f64 ? static_cast<const void*>(&alpha_d) : &alpha_f;
  const void* beta = f64 ? static_cast<const void*>(&beta_d) : &beta_f;
  const int32_t type = rocblas_type(g.dtype);
  const int32_t compute = f64 ? rocblas::kF64 : rocblas::kF32;
  void* stream = scope.stream();
  rocblas::Handle h = lib.acquire(g.device, stream);
  if (h == nullptr) {
    throw kf::plugin::KernelError(KF_OUT_OF_MEMORY,
                                  std::string(op) + ": rocblas_create_handle failed");
  }
  const rocblas::Status s = lib.api().gemm_strided_batched_ex(
      h, b.transposed ? rocblas::kOperationTranspose : rocblas::kOperationNone,
      a.transposed ? rocblas::kOperationTranspose : rocblas::kOperationNone,
      static_cast<int32_t>(g.c.cols), static_cast<int32_t>(g.c.rows),
      static_cast<int32_t>(g.a.cols), alpha, g.b.data, type, static_cast<int32_t>(b.ld), g.b.bs,
      g.a.data, type, static_cast<int32_t>(a.ld), g.a.bs, beta, g.c.data, type,
      static_cast<int32_t>(g.c.rs), g.c.bs, g.c.data, type, static_cast<int32_t>(g.c.rs), g.c.bs,
      static_cast<int32_t>(g.batch), compute, rocblas::kAlgoStandard, 0, 0);
  lib.release(g.device, stream, h);
  if (s != rocblas::kSuccess) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string(op) +
                                                   ": rocblas_gemm_strided_batched_ex returned "
                                                   "rocblas_status " + std::to_string(s));
  }
}

}  // namespace

uint32_t blas_gemm_extra_dtypes() { return 0; }  // no complex GEMM on rocm yet

void blas_gemm(const KernelScope& scope, const BlasGemm& g, const char* op) {
  RocblasLibrary* lib = scope.backend().blas.rocblas.get();
  if (choose_gemm(lib != nullptr, g) == GemmEngine::kRocblas) {
    run_rocblas(scope, *lib, g, op);
  } else {
    run_tiled(scope, g, op);
  }
}

}  // namespace kf::cuda
