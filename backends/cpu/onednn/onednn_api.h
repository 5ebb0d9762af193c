/* onednn_api.h — the one table libkernforge_cpu_onednn.so (this folder) gives the CPU plugin.
 *
 * Note [oneDNN on first use]
 * oneDNN is a large C++ library: mapping it and running its static initialisers was about 10 ms
 * of every process's start-up (docs/benchmarks.md), most of `dlopen cpu`, while most processes
 * never multiply a matrix of a size or dtype it serves. So the plugin does not link it: its
 * calls live in a library of their own, libkernforge_cpu_onednn.so, installed beside the plugin
 * (it is no plugin: it has no manifest), which the plugin opens by its full path the first time
 * a GEMM engine is chosen (onednn_library.cpp). Everything crosses as plain C: a status, never
 * an exception. Without the file (a build without oneDNN, a package that lost it), or when it
 * fails to open, oneDNN counts as absent: float32 runs on OpenBLAS and the 16-bit dtypes through
 * float32, and describe() says why. A wheel's auditwheel repair rewrites this library's
 * DT_NEEDED to the libdnnl it bundles and gives it an RPATH to it, so the lookup stays the
 * dynamic loader's. The plugin's describe() line names the GEMM engines and so opens oneDNN;
 * the loader asks for it only when a report needs it (Note [describe() on first read],
 * runtime/loader/include/loader/plugin_record.hpp), so `kernforge doctor` opens it and a
 * process that only starts does not (tests/python/test_onednn_first_use.py).
 */
#ifndef KF_CPU_ONEDNN_API_H
#define KF_CPU_ONEDNN_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised with any change to the table below; the plugin refuses a table of another version. */
#define KF_CPU_ONEDNN_API_VERSION 1
#define KF_CPU_ONEDNN_TABLE_SYMBOL "kf_cpu_onednn_table"

/* What a call did. */
enum {
  KF_CPU_ONEDNN_DONE = 0,
  KF_CPU_ONEDNN_DECLINED = 1,   /* oneDNN has no implementation for these operands: nothing written */
  KF_CPU_ONEDNN_FAILED = 2,     /* it failed; the message says how */
  KF_CPU_ONEDNN_NO_MEMORY = 3   /* an allocation failed */
};

/* One batch of matrices: element strides of batch, row and column. */
typedef struct kf_cpu_onednn_matrices_t {
  const void* data;
  int64_t rows, cols;
  int64_t batch_stride, row_stride, col_stride;
} kf_cpu_onednn_matrices_t;

typedef struct kf_cpu_onednn_table_t {
  uint32_t version; /* KF_CPU_ONEDNN_API_VERSION */
  /* oneDNN's effective instruction set as the plugin's Isa level (cpu_isa.hpp's numbering). */
  int32_t (*isa_level)(void);
  /* "oneDNN 2.7.3" into buf. */
  void (*version_text)(char* buf, size_t cap);
  /* Row-major sgemm (dnnl_sgemm) on `threads` OpenMP threads; returns DONE or FAILED. */
  int32_t (*sgemm)(char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float* a, int64_t lda, const float* b, int64_t ldb, float beta,
                   float* c, int64_t ldc, int32_t threads, char* message, size_t cap);
  /* out[i] = a[i] @ b[i] for i < batch in bfloat16 (is_bf16) or float16 through oneDNN's
   * matmul primitive. */
  int32_t (*matmul_16bit)(int32_t is_bf16, int64_t batch, const kf_cpu_onednn_matrices_t* a,
                          const kf_cpu_onednn_matrices_t* b, void* out, int64_t out_batch_stride,
                          int64_t out_row_stride, int64_t out_col_stride, int32_t threads,
                          char* message, size_t cap);
} kf_cpu_onednn_table_t;

#ifdef __cplusplus
}
#endif

#endif /* KF_CPU_ONEDNN_API_H */
