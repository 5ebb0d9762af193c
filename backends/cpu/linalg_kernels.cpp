// linalg_kernels.cpp — mm, bmm and addmm. float32/float64 go to the GEMM engine chosen for the dtype
// (gemm_engine.hpp, Note [GEMM engines]: OpenBLAS or oneDNN, row-major): an operand that is
// row-major with unit column stride is passed as is, one that is a transposed contiguous matrix
// (strides (1, rows)) is passed transposed, anything else (expanded, sliced with steps) is first
// copied into a contiguous temporary. An output the engine cannot write directly is computed
// into a temporary and copied back. float16/bfloat16 go to oneDNN's matmul where it has kernels
// for them (one call for a whole bmm), else they are computed in float32 through temporaries;
// integer dtypes use a wrapping triple loop; complex64/complex128 OpenBLAS's cgemm/zgemm
// (complex_gemm.hpp). addmm (self arrives expanded to out's shape)
// is one GEMM with beta into out where the engine can write out, else the product then
// beta * self + alpha * product.
#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

#include "complex_gemm.hpp"
#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "gemm_engine.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kMatmulMask = kAllFloatMask | kIntMask | kComplexMask;

/// A 2-D matrix operand: data, sizes and element strides.
struct Mat {
  void* data;
  int64_t rows, cols;
  int64_t rs, cs;  // row and column strides, in elements
};

/// A 2-D tensor view over a Mat (for the strided copy helpers).
struct MatView {
  int64_t shape[2];
  int64_t strides[2];
  kf_tensor_view_t view;
  MatView(const Mat& m, int32_t dtype) : shape{m.rows, m.cols}, strides{m.rs, m.cs}, view{} {
    view.data = m.data;
    view.dtype = dtype;
    view.ndim = 2;
    view.shape = shape;
    view.strides = strides;
    view.numel = m.rows * m.cols;
  }
};

/// A row-major contiguous copy of m with element type To, converted from From.
template <class To, class From>
std::unique_ptr<To[]> contiguous_copy(const Mat& m, int32_t dtype) {
  std::unique_ptr<To[]> buf(new To[static_cast<size_t>(std::max<int64_t>(m.rows * m.cols, 1))]);
  Mat dst{buf.get(), m.rows, m.cols, m.cols, 1};
  MatView out(dst, dtype), in(m, dtype);
  map1<To, From>(out.view, in.view, [](From v) { return convert<To>(v); });
  return buf;
}

/// How a row-major GEMM can read m directly: as is with ld = rs, transposed with ld = cs, or
/// not at all.
bool gemm_layout(const Mat& m, bool& trans, int64_t& ld) {
  if (m.cs == 1 && m.rs >= std::max<int64_t>(1, m.cols)) {
    trans = false;
    ld = m.rs;
    return true;
  }
  if (m.rs == 1 && m.cs >= std::max<int64_t>(1, m.rows)) {
    trans = true;
    ld = m.cs;
    return true;
  }
  return false;
}

template <class T>
void gemm_call(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
               const T* b, int64_t ldb, T* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    gemm_f32(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    gemm_f64(ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    gemm_c64(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  } else {
    gemm_c128(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
  }
}

/// c = a @ b on the dtype's engine (T = float, double or their complex); c is [a.rows, b.cols].
template <class T>
void gemm_float(const Mat& a, const Mat& b, const Mat& c, int32_t dtype) {
  const int64_t limit = INT_MAX;
  if (a.rows > limit || a.cols > limit || b.cols > limit || a.rs > limit || a.cs > limit ||
      b.rs > limit || b.cs > limit || c.rs > limit) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, "cpu mm: a dimension or stride exceeds 2^31-1");
  }
  bool ta, tb;
  int64_t lda, ldb;
  std::unique_ptr<T[]> a_tmp, b_tmp;
  const T* ap = static_cast<const T*>(a.data);
  const T* bp = static_cast<const T*>(b.data);
  if (!gemm_layout(a, ta, lda)) {
    a_tmp = contiguous_copy<T, T>(a, dtype);
    ap = a_tmp.get(), ta = false, lda = std::max<int64_t>(1, a.cols);
  }
  if (!gemm_layout(b, tb, ldb)) {
    b_tmp = contiguous_copy<T, T>(b, dtype);
    bp = b_tmp.get(), tb = false, ldb = std::max<int64_t>(1, b.cols);
  }
  if (c.cs == 1 && c.rs >= std::max<int64_t>(1, c.cols)) {
    gemm_call<T>(ta, tb, a.rows, b.cols, a.cols, ap, lda, bp, ldb, static_cast<T*>(c.data), c.rs);
    return;
  }
  std::unique_ptr<T[]> c_tmp(new T[static_cast<size_t>(c.rows * c.cols)]);
  gemm_call<T>(ta, tb, a.rows, b.cols, a.cols, ap, lda, bp, ldb, c_tmp.get(),
               std::max<int64_t>(1, c.cols));
  MatView out(c, dtype), in(Mat{c_tmp.get(), c.rows, c.cols, c.cols, 1}, dtype);
  map1<T, T>(out.view, in.view, [](T v) { return v; });
}

/// The operand m as one matrix of a oneDNN batch.
MatrixBatch batch_of_one(const Mat& m) {
  return MatrixBatch{m.data, m.rows, m.cols, m.rows * m.cols, m.rs, m.cs};
}

/// c = a @ b for 16-bit floats: oneDNN's matmul, or in float32 through temporaries.
template <class T>
void gemm_half(const Mat& a, const Mat& b, const Mat& c, int32_t dtype) {
  if (matmul_16bit(dtype, 1, batch_of_one(a), batch_of_one(b), c.data, c.rows * c.cols, c.rs,
                   c.cs)) {
    return;
  }
  auto af = contiguous_copy<float, T>(a, dtype);
  auto bf = contiguous_copy<float, T>(b, dtype);
  std::unique_ptr<float[]> cf(new float[static_cast<size_t>(c.rows * c.cols)]);
  const Mat a32{af.get(), a.rows, a.cols, a.cols, 1}, b32{bf.get(), b.rows, b.cols, b.cols, 1};
  gemm_float<float>(a32, b32, Mat{cf.get(), c.rows, c.cols, c.cols, 1}, KF_FLOAT32);
  MatView out(c, dtype), in(Mat{cf.get(), c.rows, c.cols, c.cols, 1}, KF_FLOAT32);
  map1<T, float>(out.view, in.view, [](float v) { return convert<T>(v); });
}

/// c = a @ b for integers: i-k-j loops with wrapping arithmetic, rows split over threads.
template <class T>
void gemm_int(const Mat& a, const Mat& b, const Mat& c) {
  const T* ap = static_cast<const T*>(a.data);
  const T* bp = static_cast<const T*>(b.data);
  T* cp = static_cast<T*>(c.data);
  const int64_t m = a.rows, n = b.cols, k = a.cols;
  auto row = [&](int64_t i) {
    std::vector<uint64_t> acc(static_cast<size_t>(n), 0);
    for (int64_t p = 0; p < k; ++p) {
      const uint64_t x = static_cast<uint64_t>(ap[i * a.rs + p * a.cs]);
      const T* brow = bp + p * b.rs;
      for (int64_t j = 0; j < n; ++j) acc[j] += x * static_cast<uint64_t>(brow[j * b.cs]);
    }
    for (int64_t j = 0; j < n; ++j) cp[i * c.rs + j * c.cs] = static_cast<T>(acc[j]);
  };
  const int nt = threads_for(m * n * std::max<int64_t>(k, 1));
  if (nt <= 1) {
    for (int64_t i = 0; i < m; ++i) row(i);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t i = 0; i < m; ++i) row(i);
}

/// c = a @ b for any supported dtype T.
template <class T>
void gemm(const Mat& a, const Mat& b, const Mat& c, int32_t dtype) {
  if (c.rows == 0 || c.cols == 0) return;
  if (a.cols == 0) {  // empty inner dim: zeros
    MatView out(c, dtype);
    map0<T>(out.view, [] { return convert<T>(0); });
    return;
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || is_complex_v<T>) {
    gemm_float<T>(a, b, c, dtype);
  } else if constexpr (is_half_v<T>) {
    gemm_half<T>(a, b, c, dtype);
  } else {
    gemm_int<T>(a, b, c);
  }
}

bool is_half_dtype(int32_t d) { return (dtype_bit(d) & kHalfMask) != 0; }

/// The matrix of dims (first, first + 1) of v.
Mat mat_of(const kf_tensor_view_t& v, int first) {
  return Mat{v.data, v.shape[first], v.shape[first + 1], v.strides[first], v.strides[first + 1]};
}

void check_linalg(const kf_tensor_view_t& a, const kf_tensor_view_t& b,
                  const kf_tensor_view_t& out, int ndim, const char* op) {
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

void mm_kernel(const ops::mm::Args& a) {
  check_linalg(a.self, a.mat2, a.out, 2, "mm");
  dispatch<kMatmulMask>(a.out.dtype, "mm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    gemm<T>(mat_of(a.self, 0), mat_of(a.mat2, 0), mat_of(a.out, 0), a.out.dtype);
  });
}

/// The matrix number `i` of a 3-D view.
template <class T>
Mat batch_of(const kf_tensor_view_t& v, int64_t i) {
  Mat m = mat_of(v, 1);
  m.data = static_cast<T*>(v.data) + i * v.strides[0];
  return m;
}

/// A 3-D view as a oneDNN batch.
MatrixBatch batch_view(const kf_tensor_view_t& v) {
  return MatrixBatch{v.data, v.shape[1], v.shape[2], v.strides[0], v.strides[1], v.strides[2]};
}

void bmm_kernel(const ops::bmm::Args& a) {
  check_linalg(a.self, a.mat2, a.out, 3, "bmm");
  const bool empty = a.out.shape[0] == 0 || a.out.shape[1] == 0 || a.out.shape[2] == 0 ||
                     a.self.shape[2] == 0;
  if (!empty && is_half_dtype(a.out.dtype) &&
      matmul_16bit(a.out.dtype, a.out.shape[0], batch_view(a.self), batch_view(a.mat2),
                   a.out.data, a.out.strides[0], a.out.strides[1], a.out.strides[2])) {
    return;
  }
  dispatch<kMatmulMask>(a.out.dtype, "bmm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < a.out.shape[0]; ++i) {
      gemm<T>(batch_of<T>(a.self, i), batch_of<T>(a.mat2, i), batch_of<T>(a.out, i), a.out.dtype);
    }
  });
}

/// out = beta * self + alpha * prod for out, self (expanded to out's shape by the core) and a
/// contiguous product `prod`; beta == 0 never reads self (its NaN and inf do not reach out).
template <class T>
void scale_add(const kf_tensor_view_t& out, const kf_tensor_view_t& self, const T* prod,
               const kf_scalar_t& beta_arg, const kf_scalar_t& alpha_arg) {
  using M = OpMath<T>;
  const M beta = scalar_to_opmath<T>(beta_arg), alpha = scalar_to_opmath<T>(alpha_arg);
  const Mat pm{const_cast<T*>(prod), out.shape[0], out.shape[1], out.shape[1], 1};
  MatView pv(pm, out.dtype);
  if constexpr (std::is_integral_v<T>) {
    binary_same<T>(out, self, pv.view, [beta, alpha](T s, T p) {
      return beta == 0 ? wrap_mul(alpha, p) : wrap_add(wrap_mul(beta, s), wrap_mul(alpha, p));
    });
  } else {
    binary_same<T>(out, self, pv.view, [beta, alpha](M s, M p) {
      return beta == M(0) ? alpha * p : beta * s + alpha * p;
    });
  }
}

/// addmm for float32/float64 whose out the engine writes directly: out = self (skipped when
/// beta == 0), then out = alpha * mat1 @ mat2 + beta * out in one GEMM. Returns false when out
/// or an operand has a layout the engine does not take (the caller goes through a product).
template <class T>
bool addmm_in_place(const ops::addmm::Args& a, T beta, T alpha) {
  const Mat c = mat_of(a.out, 0), x = mat_of(a.mat1, 0), y = mat_of(a.mat2, 0);
  bool ta, tb;
  int64_t lda, ldb;
  const int64_t limit = INT_MAX;
  if (!(c.cs == 1 && c.rs >= std::max<int64_t>(1, c.cols)) || !gemm_layout(x, ta, lda) ||
      !gemm_layout(y, tb, ldb) || c.rs > limit || lda > limit || ldb > limit ||
      x.rows > limit || x.cols > limit || y.cols > limit) {
    return false;
  }
  if (beta != T(0)) map1<T, T>(a.out, a.self, [](T v) { return v; });
  if constexpr (std::is_same_v<T, float>) {
    gemm_f32(ta, tb, c.rows, c.cols, x.cols, alpha, static_cast<const T*>(x.data), lda,
             static_cast<const T*>(y.data), ldb, beta, static_cast<T*>(c.data), c.rs);
  } else {
    gemm_f64(ta, tb, c.rows, c.cols, x.cols, alpha, static_cast<const T*>(x.data), lda,
             static_cast<const T*>(y.data), ldb, beta, static_cast<T*>(c.data), c.rs);
  }
  return true;
}

void addmm_kernel(const ops::addmm::Args& a) {
  check_linalg(a.mat1, a.mat2, a.out, 2, "addmm");
  require_dtype(a.self, a.out.dtype, "self", "addmm");
  dispatch<kMatmulMask>(a.out.dtype, "addmm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (a.out.numel == 0) return;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (a.mat1.shape[1] > 0 && addmm_in_place<T>(a, scalar_to<T>(a.beta), scalar_to<T>(a.alpha)))
        return;
    }
    const int64_t n = a.out.shape[0], m = a.out.shape[1];
    std::unique_ptr<T[]> prod(new T[static_cast<size_t>(n * m)]);
    gemm<T>(mat_of(a.mat1, 0), mat_of(a.mat2, 0), Mat{prod.get(), n, m, m, 1}, a.out.dtype);
    scale_add<T>(a.out, a.self, prod.get(), a.beta, a.alpha);
  });
}

}  // namespace

kf_status_t register_linalg_kernels(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, mm, mm_kernel, kMatmulMask);
  KF_REGISTER_KERNEL(reg, bmm, bmm_kernel, kMatmulMask);
  KF_REGISTER_KERNEL(reg, addmm, addmm_kernel, kMatmulMask);
  return KF_OK;
}

}  // namespace kf::cpu
