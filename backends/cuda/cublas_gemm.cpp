// cublas_gemm.cpp — blas_gemm (cublas_gemm.hpp): row-major strided matrix products on
// cuBLAS's column-major GEMM.
//
// Note [Row-major GEMM on cuBLAS]
// A row-major matrix X [r, c] with unit column stride is, read column-major, X^T with leading
// dimension rs ("rows layout"); one with unit row stride (a transposed view) is X itself with
// leading dimension cs ("columns layout"). cuBLAS computes C' = op(A') op(B') column-major, so:
//   - an output in rows layout takes C^T = B^T A^T: A' = b read as b^T, B' = a read as a^T,
//     M = n, N = m, ldc = c.rs;
//   - an output in columns layout (a transposed out=) takes C = A B: A' = a, B' = b, M = m,
//     N = n, ldc = c.cs.
// An operand in either layout is read as it lies, with op N or T as needed; one in neither
// (an expanded or step-sliced view) is copied to a dense temporary first, and an output in
// neither is computed into a dense temporary and copied back, as the CPU's gemm_float does. A
// dim of size 1 puts no constraint on its stride. Batches (bmm) use the strided-batched call
// with each tensor's batch stride (0 for a broadcast batch of an input).
//
// Complex64 and complex128 (mm and bmm only: blas_gemm_extra_dtypes) take the same calls with
// CUDA_C_32F / CUDA_C_64F and complex scalars: the layouts transpose, never conjugate.
//
// Precision: float32 computes in float32 (CUBLAS_COMPUTE_32F; TF32 only with
// KERNFORGE_CUDA_ALLOW_TF32=1), float64 in float64, float16 and bfloat16 take 16-bit inputs and
// outputs with float32 accumulation, with cuBLAS's reduced-precision split-K reductions
// disallowed, so each result is rounded to 16 bits once (the CPU's float32 products rounded).
// addmm's beta is applied by cuBLAS in the same accumulation (the CPU rounds the 16-bit
// product first: the difference is within the CTS tolerances).
#include "blas_gemm.hpp"

#include <algorithm>
#include <climits>
#include <memory>
#include <string>

#include "copy_launch.hpp"
#include "blas_state.hpp"
#include "cublas_check.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "solver_common.hpp"

namespace kf::cuda {
namespace {

struct BlasType {
  cudaDataType data;
  cublasComputeType_t compute;
  bool wide;  // float64, complex128: double scalars
  bool complex;  // complex64, complex128: complex scalars
};

BlasType blas_type(int32_t dtype, bool allow_tf32) {
  switch (dtype) {
    case KF_FLOAT32:
      return {CUDA_R_32F, allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, false,
              false};
    case KF_FLOAT64: return {CUDA_R_64F, CUBLAS_COMPUTE_64F, true, false};
    case KF_FLOAT16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F, false, false};
    case KF_BFLOAT16: return {CUDA_R_16BF, CUBLAS_COMPUTE_32F, false, false};
    case KF_COMPLEX64:
      return {CUDA_C_32F, allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, false,
              true};
    case KF_COMPLEX128: return {CUDA_C_64F, CUBLAS_COMPUTE_64F, true, true};
    default:
      throw kf::plugin::KernelError(KF_INTERNAL, std::string("cuBLAS GEMM of dtype ") +
                                                     kf_dtype_string(dtype));
  }
}

/// Rows layout (Note [Row-major GEMM on cuBLAS]): x^T column-major with leading dim `ld`.
bool rows_layout(const GemmOperand& x, int64_t& ld) {
  if (x.cs != 1 && x.cols != 1) return false;
  const int64_t need = std::max<int64_t>(1, x.cols);
  ld = x.rows == 1 ? need : x.rs;
  return ld >= need;
}

/// Columns layout: x column-major with leading dim `ld`.
bool columns_layout(const GemmOperand& x, int64_t& ld) {
  if (x.rs != 1 && x.rows != 1) return false;
  const int64_t need = std::max<int64_t>(1, x.rows);
  ld = x.cols == 1 ? need : x.cs;
  return ld >= need;
}

bool readable(const GemmOperand& x) {
  int64_t ld = 0;
  return rows_layout(x, ld) || columns_layout(x, ld);
}

/// How cuBLAS reads x as the column-major matrix x^T (transposed) or x; x is readable().
void blas_operand(const GemmOperand& x, bool transposed, cublasOperation_t& op, int64_t& ld) {
  const bool rows = rows_layout(x, ld);
  if (!rows) columns_layout(x, ld);
  op = rows == transposed ? CUBLAS_OP_N : CUBLAS_OP_T;
}

/// A 2-D (batch 1) or 3-D tensor view over a GemmOperand, for the copy launcher.
struct MatView {
  int64_t shape[3];
  int64_t strides[3];
  kf_tensor_view_t view{};
  MatView(const GemmOperand& x, int64_t batch, int32_t dtype) {
    const int nd = batch == 1 ? 2 : 3, first = nd - 2;
    shape[0] = batch, strides[0] = x.bs;
    shape[first] = x.rows, strides[first] = x.rs;
    shape[first + 1] = x.cols, strides[first + 1] = x.cs;
    view.data = x.data;
    view.dtype = dtype;
    view.ndim = nd;
    view.shape = shape;
    view.strides = strides;
    view.numel = batch * x.rows * x.cols;
  }
};

/// Copies matrices of one dtype (complex ones as their raw bits: copy_view of solver_common.hpp).
void copy_matrices(const GemmOperand& dst, const GemmOperand& src, int64_t batch, int32_t dtype,
                   cudaStream_t stream) {
  const MatView d(dst, batch, dtype), s(src, batch, dtype);
  copy_view(layout_of(d.view), dst.data, layout_of(s.view), src.data, stream);
}

/// A dense row-major operand of x's sizes in new scratch memory (held by `holder`).
GemmOperand dense_like(const GemmOperand& x, int64_t batch, int32_t dtype, cudaStream_t stream,
                       std::unique_ptr<StreamScratch>& holder) {
  const size_t bytes = static_cast<size_t>(batch * x.rows * x.cols) * kf_dtype_itemsize(dtype);
  holder = std::make_unique<StreamScratch>(bytes, stream);
  GemmOperand d = x;
  d.data = holder->get();
  d.cs = 1;
  d.rs = std::max<int64_t>(1, x.cols);
  d.bs = x.rows * x.cols;
  return d;
}

void require_int(int64_t v, const char* what, const char* op) {
  if (v > INT_MAX) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string("cuda ") + op + ": " + what +
                                                        " " + std::to_string(v) +
                                                        " exceeds 2^31-1 (cuBLAS's int)");
  }
}

/// The cuBLAS call of Note [Row-major GEMM on cuBLAS] for readable a and b and a c in rows
/// (`rows_out`) or columns layout with leading dim ldc.
struct GemmCall {
  cublasOperation_t op1, op2;
  int64_t m, n, k, ld1, ld2, ldc;
  const GemmOperand* first;
  const GemmOperand* second;
};

GemmCall plan_call(const GemmOperand& a, const GemmOperand& b, const GemmOperand& c,
                   bool rows_out, int64_t ldc, const char* op) {
  GemmCall call{};
  call.first = rows_out ? &b : &a;
  call.second = rows_out ? &a : &b;
  blas_operand(*call.first, rows_out, call.op1, call.ld1);
  blas_operand(*call.second, rows_out, call.op2, call.ld2);
  call.m = rows_out ? c.cols : c.rows;
  call.n = rows_out ? c.rows : c.cols;
  call.k = a.cols;
  call.ldc = ldc;
  require_int(call.m, "a matrix size", op);
  require_int(call.n, "a matrix size", op);
  require_int(call.k, "the inner size", op);
  require_int(call.ld1, "a row or column stride", op);
  require_int(call.ld2, "a row or column stride", op);
  require_int(call.ldc, "the output's row or column stride", op);
  return call;
}

void run_call(cublasHandle_t h, const GemmCall& c, const BlasType& t, const void* alpha,
              const void* beta, const GemmOperand& out, int64_t batch, const char* op) {
  const int m = static_cast<int>(c.m), n = static_cast<int>(c.n), k = static_cast<int>(c.k);
  const int ld1 = static_cast<int>(c.ld1), ld2 = static_cast<int>(c.ld2);
  const int ldc = static_cast<int>(c.ldc);
  cublasStatus_t s;
  if (batch == 1) {
    s = cublasGemmEx(h, c.op1, c.op2, m, n, k, alpha, c.first->data, t.data, ld1,
                     c.second->data, t.data, ld2, beta, out.data, t.data, ldc, t.compute,
                     CUBLAS_GEMM_DEFAULT);
  } else {
    require_int(batch, "the batch size", op);
    s = cublasGemmStridedBatchedEx(h, c.op1, c.op2, m, n, k, alpha, c.first->data, t.data, ld1,
                                   c.first->bs, c.second->data, t.data, ld2, c.second->bs, beta,
                                   out.data, t.data, ldc, out.bs, static_cast<int>(batch),
                                   t.compute, CUBLAS_GEMM_DEFAULT);
  }
  check(s, batch == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx");
}

}  // namespace

uint32_t blas_gemm_extra_dtypes() {
  return (1u << KF_COMPLEX64) | (1u << KF_COMPLEX128);
}

void blas_gemm(const KernelScope& scope, const BlasGemm& g, const char* op) {
  const cudaStream_t stream = scope.stream();
  const BlasType t = blas_type(g.dtype, scope.backend().allow_tf32);
  std::unique_ptr<StreamScratch> a_tmp, b_tmp, c_tmp;
  GemmOperand a = g.a, b = g.b, c = g.c;
  if (!readable(a)) {
    a = dense_like(g.a, g.batch, g.dtype, stream, a_tmp);
    copy_matrices(a, g.a, g.batch, g.dtype, stream);
  }
  if (!readable(b)) {
    b = dense_like(g.b, g.batch, g.dtype, stream, b_tmp);
    copy_matrices(b, g.b, g.batch, g.dtype, stream);
  }
  int64_t ldc = 0;
  bool rows_out = rows_layout(c, ldc);
  if (!rows_out && !columns_layout(c, ldc)) {
    c = dense_like(g.c, g.batch, g.dtype, stream, c_tmp);
    rows_out = rows_layout(c, ldc);
  }
  const float alpha_f = scalar_as_f32(g.alpha), beta_f = scalar_as_f32(g.beta);
  const double alpha_d = scalar_as_f64(g.alpha), beta_d = scalar_as_f64(g.beta);
  const cuComplex alpha_c{alpha_f, 0.0f}, beta_c{beta_f, 0.0f};  // mm, bmm: 1 and 0
  const cuDoubleComplex alpha_z{alpha_d, 0.0}, beta_z{beta_d, 0.0};
  const bool beta_zero = t.wide ? beta_d == 0.0 : beta_f == 0.0f;
  if (!beta_zero && g.bias != nullptr) {
    const MatView cv(c, 1, g.dtype);
    launch_convert(make_operands({&cv.view, g.bias}), g.dtype, g.dtype, stream);
  }
  const GemmCall call = plan_call(a, b, c, rows_out, ldc, op);
  {
    PooledHandle<CublasPool> handle(scope.backend().blas.cublas, g.device, stream);
    check(cublasSetStream(handle.get(), stream), "cublasSetStream");
    check(cublasSetMathMode(handle.get(),
                            static_cast<cublasMath_t>(
                                CUBLAS_DEFAULT_MATH |
                                CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
          "cublasSetMathMode");
    const void* alpha = t.complex ? (t.wide ? static_cast<const void*>(&alpha_z) : &alpha_c)
                                  : (t.wide ? static_cast<const void*>(&alpha_d) : &alpha_f);
    const void* beta = t.complex ? (t.wide ? static_cast<const void*>(&beta_z) : &beta_c)
                                 : (t.wide ? static_cast<const void*>(&beta_d) : &beta_f);
    run_call(handle.get(), call, t, alpha, beta, c, g.batch, op);
  }
  if (c_tmp) copy_matrices(g.c, c, g.batch, g.dtype, stream);
}

}  // namespace kf::cuda
