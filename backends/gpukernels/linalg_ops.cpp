// linalg_ops.cpp — mm, bmm and addmm on the GPU, as the CPU backend's linalg_kernels.cpp:
// float32, float64, float16 and bfloat16 through the backend's BLAS (blas_gemm.hpp), integer
// dtypes through the wrapping tiled kernel of linalg.cu; mm and bmm also take the complex
// dtypes where the backend's BLAS has them (blas_gemm_extra_dtypes: cuBLAS on cuda). Operands and
// outputs may be any strided
// views (transposed and sliced ones are read in place where cuBLAS can). addmm's self arrives
// expanded to out's shape; beta = 0 never reads it. An empty inner dim gives zeros (mm, bmm)
// or beta * self + alpha * 0 (addmm). An out= that overlaps an input never reaches the kernel
// (the core reads such inputs from copies).
#include <string>

#include "blas_gemm.hpp"
#include "factory_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/scalar.hpp"
#include "linalg_launch.hpp"
#include "operands.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kMatmulMask = kFloatDtypes | kIntDtypes;  // the CPU's, but complex

/// mm's and bmm's: kMatmulMask and the complex dtypes where the backend's BLAS has them.
uint32_t product_mask() { return kMatmulMask | blas_gemm_extra_dtypes(); }

bool in_mask(uint32_t mask, int32_t dtype) {
  return dtype >= 0 && dtype < KF_DTYPE_COUNT && ((mask >> dtype) & 1u) != 0;
}

void require_dtype(const kf_tensor_view_t& v, int32_t dtype, const char* what, const char* op) {
  if (v.dtype != dtype) {
    throw kf::plugin::KernelError(
        KF_INTERNAL, std::string(what) + " has dtype " + kf_dtype_string(v.dtype) + ", expected " +
                         kf_dtype_string(dtype) + " (" KF_GPU_VENDOR " " + op + ")");
  }
}

/// The CPU's check_linalg: one dtype, `ndim`-D operands with matching sizes.
void check_linalg(const kf_tensor_view_t& a, const kf_tensor_view_t& b,
                  const kf_tensor_view_t& out, int ndim, const char* op,
                  uint32_t mask = kMatmulMask) {
  if (!in_mask(mask, out.dtype)) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED,
                                  std::string("dtype ") + kf_dtype_string(out.dtype) +
                                      " is not supported by " KF_GPU_VENDOR " " + op);
  }
  require_dtype(a, out.dtype, "self", op);
  require_dtype(b, out.dtype, "mat2", op);
  if (a.ndim != ndim || b.ndim != ndim || out.ndim != ndim) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string(op) + " expects " +
                                                   std::to_string(ndim) + "-D tensors");
  }
  const int r = ndim - 2;
  const bool ok = a.shape[r + 1] == b.shape[r] && out.shape[r] == a.shape[r] &&
                  out.shape[r + 1] == b.shape[r + 1] &&
                  (ndim == 2 || (a.shape[0] == out.shape[0] && b.shape[0] == out.shape[0]));
  if (!ok) throw kf::plugin::KernelError(KF_INTERNAL, std::string(op) + ": shapes do not match");
}

/// The matrices of a 2-D view, or of the last two dims of a 3-D one (batch stride dim 0).
GemmOperand operand_of(const kf_tensor_view_t& v) {
  const int first = v.ndim - 2;
  GemmOperand m;
  m.data = v.data;
  m.rows = v.shape[first];
  m.cols = v.shape[first + 1];
  m.rs = v.strides[first];
  m.cs = v.strides[first + 1];
  m.bs = v.ndim == 3 ? v.strides[0] : 0;
  return m;
}

/// The CPU's scalar_to<T> for an integer T, as the two's complement bits (the low bits count).
uint64_t scalar_wrapped(const kf_scalar_t& s) { return scalar_int_bits(s); }

/// One product: out = alpha * a @ b (+ beta * bias for addmm), batched when 3-D.
struct Product {
  const kf_tensor_view_t* a;
  const kf_tensor_view_t* b;
  const kf_tensor_view_t* out;
  const kf_tensor_view_t* bias;  // addmm's self, else null
  kf_scalar_t alpha, beta;
};

void int_product(const KernelScope& scope, const Product& p) {
  IntGemmLaunch g;
  g.dtype = p.out->dtype;
  g.a = operand_of(*p.a);
  g.b = operand_of(*p.b);
  g.c = operand_of(*p.out);
  g.batch = p.out->ndim == 3 ? p.out->shape[0] : 1;
  g.m = g.c.rows;
  g.n = g.c.cols;
  g.k = g.a.cols;
  g.alpha = scalar_wrapped(p.alpha);
  g.beta = p.bias != nullptr ? scalar_wrapped(p.beta) : 0u;
  if (p.bias != nullptr) {
    g.bias = p.bias->data;
    g.bias_rs = p.bias->strides[0];
    g.bias_cs = p.bias->strides[1];
  }
  launch_int_gemm(g, scope.stream());
}

/// Zeros into a complex output (mm, bmm), through the view of its real and imaginary parts
/// (the fill kernels hold no complex dtype).
void fill_complex_zeros(const KernelScope& scope, const kf_tensor_view_t& out) {
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  if (out.ndim + 1 > KF_MAX_NDIM) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, "a complex product of " +
                                                        std::to_string(out.ndim) + " dims");
  }
  for (int d = 0; d < out.ndim; ++d) {
    shape[d] = out.shape[d];
    strides[d] = out.strides[d] * 2;
  }
  shape[out.ndim] = 2;
  strides[out.ndim] = 1;
  kf_tensor_view_t parts = out;
  parts.dtype = out.dtype == KF_COMPLEX64 ? KF_FLOAT32 : KF_FLOAT64;
  parts.ndim = out.ndim + 1;
  parts.shape = shape;
  parts.strides = strides;
  parts.numel = out.numel * 2;
  launch_fill(make_operands({&parts}), parts.dtype, Number{}, scope.stream());
}

/// An empty inner dim: zeros, or addmm's beta * self + alpha * 0.
void empty_inner_product(const KernelScope& scope, const Product& p) {
  if (in_mask(kComplexDtypes, p.out->dtype)) return fill_complex_zeros(scope, *p.out);
  if (p.bias == nullptr) {
    launch_fill(make_operands({p.out}), p.out->dtype, Number{}, scope.stream());
    return;
  }
  EmptyInnerAddmm e;
  e.p = make_operands({p.out, p.bias});
  e.dtype = p.out->dtype;
  e.beta_f = scalar_as_f32(p.beta);
  e.alpha_f = scalar_as_f32(p.alpha);
  e.beta_d = scalar_as_f64(p.beta);
  e.alpha_d = scalar_as_f64(p.alpha);
  launch_empty_inner_addmm(e, scope.stream());
}

void product(const kf_kernel_call_t& call, const Product& p, const char* op) {
  KernelScope scope(call, *p.out);
  if (p.out->numel == 0) return;
  if (in_mask(kIntDtypes, p.out->dtype)) {
    int_product(scope, p);
  } else if (p.a->shape[p.a->ndim - 1] == 0) {
    empty_inner_product(scope, p);
  } else {
    BlasGemm g;
    g.dtype = p.out->dtype;
    g.device = p.out->device.index;
    g.batch = p.out->ndim == 3 ? p.out->shape[0] : 1;
    g.a = operand_of(*p.a);
    g.b = operand_of(*p.b);
    g.c = operand_of(*p.out);
    g.bias = p.bias;
    g.alpha = p.alpha;
    g.beta = p.bias != nullptr ? p.beta : kf_scalar_i64(0);
    blas_gemm(scope, g, op);
  }
  scope.check(op);
}

void mm_kernel(const ops::mm::Args& a) {
  check_linalg(a.self, a.mat2, a.out, 2, "mm", product_mask());
  product(a.call, Product{&a.self, &a.mat2, &a.out, nullptr, kf_scalar_i64(1), kf_scalar_i64(0)},
          "mm");
}

void bmm_kernel(const ops::bmm::Args& a) {
  check_linalg(a.self, a.mat2, a.out, 3, "bmm", product_mask());
  product(a.call, Product{&a.self, &a.mat2, &a.out, nullptr, kf_scalar_i64(1), kf_scalar_i64(0)},
          "bmm");
}

void addmm_kernel(const ops::addmm::Args& a) {
  check_linalg(a.mat1, a.mat2, a.out, 2, "addmm");
  require_dtype(a.self, a.out.dtype, "self", "addmm");
  if (a.self.ndim != 2 || a.self.shape[0] != a.out.shape[0] ||
      a.self.shape[1] != a.out.shape[1]) {
    throw kf::plugin::KernelError(KF_INTERNAL, "addmm: self is not expanded to out's shape");
  }
  product(a.call, Product{&a.mat1, &a.mat2, &a.out, &a.self, a.alpha, a.beta}, "addmm");
}

}  // namespace

kf_status_t register_linalg_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, mm, mm_kernel, product_mask());
  KF_REGISTER_KERNEL(reg, bmm, bmm_kernel, product_mask());
  KF_REGISTER_KERNEL(reg, addmm, addmm_kernel, kMatmulMask);
  return KF_OK;
}

}  // namespace kf::cuda
