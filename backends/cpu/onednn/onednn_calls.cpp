// onednn_calls.cpp — libkernforge_cpu_onednn.so: every call of the CPU plugin into oneDNN,
// behind the C table of onednn_api.h (Note [oneDNN on first use]): its instruction set and
// version, sgemm, and the bfloat16 / float16 matmul primitive.
//
// oneDNN takes each operand of the matmul as a 3-D memory descriptor with its own strides
// (batch, row, column), so transposed and sliced operands need no copy; it accumulates in
// float32 and rounds once into the 16-bit output. Primitive descriptors are created per call;
// oneDNN keeps the compiled primitives in its own cache (DNNL_PRIMITIVE_CACHE_CAPACITY, 1024 by
// default), so a repeated shape costs a lookup. Nothing throws out of this library: a refusal,
// a failure and a failed allocation are statuses.
#include <omp.h>

#include <cstdio>
#include <new>
#include <oneapi/dnnl/dnnl.hpp>

#include "../cpu_isa.hpp"
#include "onednn_api.h"

namespace {

using kf::cpu::Isa;

void say(char* message, size_t cap, const char* what, const char* detail) {
  if (message != nullptr && cap > 0) std::snprintf(message, cap, "%s%s", what, detail);
}

int32_t isa_level() {
  const unsigned isa = static_cast<unsigned>(dnnl_get_effective_cpu_isa());
  const auto has = [isa](dnnl_cpu_isa_t level) {
    return (isa & static_cast<unsigned>(level)) == static_cast<unsigned>(level);
  };
  Isa level = Isa::kGeneric;
  if (has(dnnl_cpu_isa_avx512_core_amx)) level = Isa::kAmx;
  else if (has(dnnl_cpu_isa_avx512_core_bf16)) level = Isa::kAvx512Bf16;
  else if (has(dnnl_cpu_isa_avx512_core)) level = Isa::kAvx512;
  else if (has(dnnl_cpu_isa_avx2)) level = Isa::kAvx2;
  else if (has(dnnl_cpu_isa_avx)) level = Isa::kAvx;
  else if (has(dnnl_cpu_isa_sse41)) level = Isa::kSse3;
  return static_cast<int32_t>(level);
}

void version_text(char* buf, size_t cap) {
  const dnnl_version_t* v = dnnl_version();
  if (cap > 0) std::snprintf(buf, cap, "oneDNN %d.%d.%d", v->major, v->minor, v->patch);
}

int32_t sgemm(char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, float alpha,
              const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
              int64_t ldc, int32_t threads, char* message, size_t cap) {
  omp_set_num_threads(threads > 0 ? threads : 1);
  const dnnl_status_t s = dnnl_sgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (s == dnnl_success) return KF_CPU_ONEDNN_DONE;
  if (s == dnnl_out_of_memory) return KF_CPU_ONEDNN_NO_MEMORY;
  char status[32];
  std::snprintf(status, sizeof status, "%d", static_cast<int>(s));
  say(message, cap, "dnnl_sgemm failed with status ", status);
  return KF_CPU_ONEDNN_FAILED;
}

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::desc desc_of(bool bf16, int64_t batch, int64_t rows, int64_t cols, int64_t bs,
                           int64_t rs, int64_t cs) {
  return dnnl::memory::desc({batch, rows, cols},
                            bf16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f16,
                            {bs, rs, cs});
}

/// The matmul primitive descriptor of these operands; throws dnnl::error when oneDNN has no
/// implementation for them.
dnnl::matmul::primitive_desc matmul_pd(bool bf16, int64_t batch, const kf_cpu_onednn_matrices_t& a,
                                       const kf_cpu_onednn_matrices_t& b, int64_t obs,
                                       int64_t ors, int64_t ocs) {
  const auto a_md = desc_of(bf16, batch, a.rows, a.cols, a.batch_stride, a.row_stride,
                            a.col_stride);
  const auto b_md = desc_of(bf16, batch, b.rows, b.cols, b.batch_stride, b.row_stride,
                            b.col_stride);
  const auto c_md = desc_of(bf16, batch, a.rows, b.cols, obs, ors, ocs);
  return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), cpu_engine());
}

void run_matmul(const dnnl::matmul::primitive_desc& pd, const kf_cpu_onednn_matrices_t& a,
                const kf_cpu_onednn_matrices_t& b, void* out) {
  dnnl::stream stream(cpu_engine());
  dnnl::memory am(pd.src_desc(), cpu_engine(), const_cast<void*>(a.data));
  dnnl::memory bm(pd.weights_desc(), cpu_engine(), const_cast<void*>(b.data));
  dnnl::memory cm(pd.dst_desc(), cpu_engine(), out);
  dnnl::matmul(pd).execute(stream, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm},
                                    {DNNL_ARG_DST, cm}});
  stream.wait();
}

int32_t matmul_16bit(int32_t is_bf16, int64_t batch, const kf_cpu_onednn_matrices_t* a,
                     const kf_cpu_onednn_matrices_t* b, void* out, int64_t obs, int64_t ors,
                     int64_t ocs, int32_t threads, char* message, size_t cap) {
  try {
    dnnl::matmul::primitive_desc pd;
    try {
      pd = matmul_pd(is_bf16 != 0, batch, *a, *b, obs, ors, ocs);
    } catch (const dnnl::error&) {
      return KF_CPU_ONEDNN_DECLINED;  // strides it does not take (zero strides of an expanded operand, ...)
    }
    omp_set_num_threads(threads > 0 ? threads : 1);
    run_matmul(pd, *a, *b, out);
    return KF_CPU_ONEDNN_DONE;
  } catch (const std::bad_alloc&) {
    return KF_CPU_ONEDNN_NO_MEMORY;
  } catch (const dnnl::error& err) {
    say(message, cap, "oneDNN matmul failed: ", err.what());
    return KF_CPU_ONEDNN_FAILED;
  } catch (...) {
    say(message, cap, "oneDNN matmul failed: ", "an unknown exception");
    return KF_CPU_ONEDNN_FAILED;
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const kf_cpu_onednn_table_t kf_cpu_onednn_table = {
    KF_CPU_ONEDNN_API_VERSION, isa_level, version_text, sgemm, matmul_16bit};
