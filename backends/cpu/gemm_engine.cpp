// gemm_engine.cpp — the per-dtype GEMM choice of Note [GEMM engines] (gemm_engine.hpp), the
// describe() text, and the float32/float64 calls. oneDNN's calls and the 16-bit matmul are in
// onednn_library.cpp.
#include "gemm_engine.hpp"

#if KF_CPU_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <string>
#include <vector>

#include "kernforge/plugin.hpp"
#include "parallel.hpp"
#include "plain_gemm.hpp"

namespace kf::cpu {

// Defined in onednn_library.cpp: the engine of bfloat16 or float16 (oneDNN's matmul when it
// has kernels for the dtype here, else through float32).
GemmChoice choose_16bit(int32_t dtype, const GemmChoice& f32);

namespace {

/// Float GEMMs use FMA on vectors: nothing past AVX-512 adds to them.
Isa fp_level(Isa isa) { return std::min(isa, Isa::kAvx512); }

GemmCandidate openblas_candidate() {
#if KF_CPU_HAVE_OPENBLAS
  return GemmCandidate{true, openblas_core_isa(openblas_get_corename())};
#else
  return GemmCandidate{};
#endif
}

}  // namespace


namespace {

GemmCandidate onednn_candidate() {
#if KF_CPU_HAVE_ONEDNN
  return onednn_loaded() ? GemmCandidate{true, onednn_isa()} : GemmCandidate{};
#else
  return GemmCandidate{};
#endif
}

std::string openblas_detail() {
#if KF_CPU_HAVE_OPENBLAS
  const char* config = openblas_get_config();  // "OpenBLAS 0.3.21 DYNAMIC_ARCH ... Haswell ..."
  std::string version = config != nullptr ? config : "OpenBLAS";
  const size_t space = version.find(' ', version.find(' ') + 1);  // "OpenBLAS 0.3.21"
  if (space != std::string::npos) version.resize(space);
  return version + " " + openblas_get_corename();
#else
  return "";
#endif
}

GemmChoice choice_of(GemmLibrary lib, Isa cpu) {
  GemmChoice c;
  c.library = lib;
  switch (lib) {
    case GemmLibrary::kOpenBlas:
      c.isa = fp_level(openblas_candidate().isa);
      c.detail = openblas_detail();
      break;
    case GemmLibrary::kOneDnn:
#if KF_CPU_HAVE_ONEDNN
      c.isa = fp_level(onednn_isa());
      c.detail = onednn_version();
#endif
      break;
    default:
      c.isa = Isa::kGeneric;
      c.detail = "the plugin's blocked GEMM (no BLAS library)";
      break;
  }
  c.below_cpu = c.isa < fp_level(cpu);
  return c;
}

GemmEngines choose_all() {
  const Isa cpu = cpu_isa();
  GemmEngines e;
  e.f32 = choice_of(choose_f32_library(cpu, openblas_candidate(), onednn_candidate()), cpu);
  e.f64 = choice_of(openblas_candidate().available ? GemmLibrary::kOpenBlas : GemmLibrary::kPlain,
                    cpu);
  e.bf16 = choose_16bit(KF_BFLOAT16, e.f32);
  e.f16 = choose_16bit(KF_FLOAT16, e.f32);
  return e;
}

std::string describe_one(const char* dtype, const GemmChoice& c) {
  std::string s = std::string(dtype) + " " + c.detail;
  if (c.library != GemmLibrary::kViaFloat32) s += std::string(" (") + isa_name(c.isa) + ")";
  return s;
}

std::string warning_of(const char* dtype, const GemmChoice& c) {
  if (!c.below_cpu) return "";
  return std::string("; warning: ") + dtype + " GEMM runs " + isa_name(c.isa) +
         " kernels below this CPU's " + isa_name(fp_level(cpu_isa())) +
         " (install oneDNN, Debian: libdnnl2, or a newer OpenBLAS; OPENBLAS_CORETYPE is the "
         "user's to set)";
}


/// Row-major alpha * op(A) @ op(B) + beta * C on the plain GEMM, which computes C = A @ B for
/// strided operands: op(X) is X's strides swapped; alpha and beta go through a temporary.
template <class T>
void plain_gemm_rowmajor(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha,
                         const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                         int64_t ldc) {
  const int64_t a_rs = trans_a ? 1 : lda, a_cs = trans_a ? lda : 1;
  const int64_t b_rs = trans_b ? 1 : ldb, b_cs = trans_b ? ldb : 1;
  if (alpha == T(1) && beta == T(0)) {
    plain_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc, 1);
    return;
  }
  std::vector<T> tmp(static_cast<size_t>(std::max<int64_t>(m * n, 1)));
  plain_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, tmp.data(), n, 1);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      T& out = c[i * ldc + j];
      out = alpha * tmp[static_cast<size_t>(i * n + j)] + (beta == T(0) ? T(0) : beta * out);
    }
  }
}


}  // namespace

GemmLibrary choose_f32_library(Isa cpu, GemmCandidate openblas, GemmCandidate onednn) {
  (void)cpu;  // both candidates run on this CPU; their levels already reflect it
  if (!openblas.available && !onednn.available) return GemmLibrary::kPlain;
  if (!onednn.available) return GemmLibrary::kOpenBlas;
  if (!openblas.available) return GemmLibrary::kOneDnn;
  return fp_level(onednn.isa) >= fp_level(openblas.isa) ? GemmLibrary::kOneDnn
                                                        : GemmLibrary::kOpenBlas;
}

const GemmEngines& gemm_engines() {
  static const GemmEngines engines = choose_all();
  return engines;
}

std::string describe_gemm() {
  const GemmEngines& e = gemm_engines();
  std::string s = "GEMM " + describe_one("float32", e.f32) + ", " + describe_one("float64", e.f64) +
                  ", " + describe_one("bfloat16", e.bf16) + ", " +
                  describe_one("float16", e.f16);
  s += warning_of("float32", e.f32);
#if KF_CPU_HAVE_ONEDNN
  if (!onednn_loaded()) s += "; " + onednn_problem();
#endif
  if (e.f64.below_cpu && !e.f32.below_cpu) s += warning_of("float64", e.f64);
  return s;
}

/// Products of at most this many multiply-adds go to OpenBLAS even where oneDNN is the float32
/// engine (Note [GEMM engines]): measured here, 2 threads, n³ products, OpenBLAS vs dnnl_sgemm:
/// 32³ 0.68 vs 1.17 us, 64³ 5.0 vs 10.3 us, then 96³ 16.7 vs 12.9 us, 256³ 376 vs 183 us.
constexpr double kSmallF32Product = 64.0 * 64.0 * 64.0;

GemmLibrary f32_library_for(int64_t m, int64_t n, int64_t k) {
  const GemmLibrary chosen = gemm_engines().f32.library;
#if KF_CPU_HAVE_OPENBLAS
  const double work = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  if (chosen == GemmLibrary::kOneDnn && work <= kSmallF32Product) return GemmLibrary::kOpenBlas;
#else
  (void)m, (void)n, (void)k;
#endif
  return chosen;
}

void gemm_f32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
              const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
              int64_t ldc) {
  switch (f32_library_for(m, n, k)) {
#if KF_CPU_HAVE_ONEDNN
    case GemmLibrary::kOneDnn:
      onednn_sgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
#endif
#if KF_CPU_HAVE_OPENBLAS
    case GemmLibrary::kOpenBlas:
      cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                  trans_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
                  static_cast<blasint>(n), static_cast<blasint>(k), alpha, a,
                  static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta, c,
                  static_cast<blasint>(ldc));
      return;
#endif
    default:
      plain_gemm_rowmajor(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
  }
}

void gemm_f64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
              const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
              int64_t ldc) {
#if KF_CPU_HAVE_OPENBLAS
  cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
              trans_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), alpha, a,
              static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta, c,
              static_cast<blasint>(ldc));
#else
  plain_gemm_rowmajor(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

}  // namespace kf::cpu
