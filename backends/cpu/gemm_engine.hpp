// gemm_engine.hpp — which library multiplies matrices of each dtype on this CPU, and the calls.
//
// Note [GEMM engines]
// OpenBLAS picks its kernels from the CPU's model number, so a release older than the CPU runs
// generic ones (Debian's 0.3.21 runs Prescott (SSE3) kernels on an Emerald Rapids: 64 GFLOP/s
// where its SkylakeX kernels reach 300). oneDNN picks its kernels from the CPU's features, and
// has bfloat16 (AVX512-BF16, AMX) and float16 kernels. So, once per process, for each dtype:
//  - float32: the library whose kernels are of the highest level for this CPU (OpenBLAS's from
//    openblas_get_corename(), oneDNN's from dnnl_get_effective_cpu_isa(), both capped at AVX-512,
//    which is all float32 FMA uses); on a tie, oneDNN (its sgemm at 2048² ran 7% ahead of
//    OpenBLAS's Cooperlake kernels on a Zen 4, and at parity on the Emerald Rapids of the
//    SkylakeX figures above; docs/benchmarks.md), except that products of at most 64³
//    multiply-adds stay on OpenBLAS, whose call is 2-9x cheaper there (dnnl_sgemm's pays for
//    its kernel choice and scratch memory on every call; gemm_engine.cpp has the figures). The
//    user's OPENBLAS_CORETYPE is never set or changed here.
//  - float64: OpenBLAS (oneDNN has no float64 GEMM on CPUs).
//  - bfloat16 / float16: oneDNN's matmul when it has kernels for the dtype here (Note [16-bit
//    engines] in onednn_library.cpp); else converted to float32 and multiplied on the float32
//    engine.
// Without OpenBLAS (KF_CPU_BLAS=OFF, the MinGW build) the plugin's own blocked GEMM
// (plain_gemm.hpp) stands in for it. A choice whose kernels are below the CPU's level carries a
// warning in the backend's describe() line, which `kernforge doctor` prints.
//
// oneDNN is opened when the engines are first chosen, not at start-up (Note [oneDNN on first
// use], onednn/onednn_api.h).
//
// Threads: oneDNN runs on the OpenMP runtime the kernels use (libgomp, loaded once through
// libkernforge_global_deps), with the plugin's thread count set on the calling thread before
// each call; OpenBLAS gets the same count through openblas_set_num_threads.
#pragma once

#include <cstdint>
#include <string>

#include "cpu_isa.hpp"

namespace kf::cpu {

enum class GemmLibrary : int32_t { kOpenBlas, kOneDnn, kPlain, kViaFloat32 };

/// The engine of one dtype.
struct GemmChoice {
  GemmLibrary library = GemmLibrary::kPlain;
  Isa isa = Isa::kGeneric;  // the level of its kernels for this dtype
  std::string detail;       // "OpenBLAS 0.3.21 Cooperlake", "oneDNN 2.6.3 brg:avx512_core_bf16"
  bool below_cpu = false;   // its kernels are of a lower level than this CPU's for the dtype
};

struct GemmEngines {
  GemmChoice f32, f64, bf16, f16;
};

/// A candidate library for a floating GEMM: whether it is there and its kernels' level.
struct GemmCandidate {
  bool available = false;
  Isa isa = Isa::kGeneric;
};

#if KF_CPU_HAVE_ONEDNN
/// oneDNN, opened on the first call (Note [oneDNN on first use], onednn/onednn_api.h): whether
/// it could be, and why not. The rest needs onednn_loaded().
bool onednn_loaded();
std::string onednn_problem();
/// oneDNN's effective instruction set (dnnl_get_effective_cpu_isa) and "oneDNN 2.6.3".
Isa onednn_isa();
std::string onednn_version();
/// dnnl_sgemm (row-major) on the plugin's thread count; throws KernelError when it fails.
void onednn_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                  int64_t ldc);
#endif

/// The float32 rule of Note [GEMM engines], as a pure function of the levels.
GemmLibrary choose_f32_library(Isa cpu, GemmCandidate openblas, GemmCandidate onednn);

/// The engines chosen for this process (on first use; thread-safe, cheap afterwards).
const GemmEngines& gemm_engines();

/// "GEMM float32 oneDNN 2.6.3 (AVX-512), float64 OpenBLAS ..., bfloat16 ...": the describe()
/// part, with a warning for each dtype whose engine runs below the CPU.
std::string describe_gemm();

/// Row-major C = alpha * op(A) @ op(B) + beta * C on the engine chosen for the type, with
/// op(X) = X or X^T (trans_x) and leading dimensions in elements. Sizes must fit in int32
/// for OpenBLAS (the caller checks). Throws KernelError on a library failure.
void gemm_f32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
              const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
              int64_t ldc);
void gemm_f64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
              const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
              int64_t ldc);

/// A batch of matrices for a 16-bit matmul: element strides of batch, row and column.
struct MatrixBatch {
  const void* data;
  int64_t rows, cols;
  int64_t batch_stride, row_stride, col_stride;
};

/// out[i] = a[i] @ b[i] for i < batch in bfloat16 or float16 (dtype), accumulated in float32,
/// through oneDNN's matmul when the dtype's engine is oneDNN. Returns false (having written
/// nothing) when that engine is not oneDNN or oneDNN refuses these strides: the caller then
/// computes through float32.
bool matmul_16bit(int32_t dtype, int64_t batch, const MatrixBatch& a, const MatrixBatch& b,
                  void* out, int64_t out_batch_stride, int64_t out_row_stride,
                  int64_t out_col_stride);

}  // namespace kf::cpu
