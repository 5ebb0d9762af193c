// onednn_matmul.cpp — bfloat16 and float16 matrix products through oneDNN's matmul primitive
// (Note [GEMM engines] in gemm_engine.hpp): which engine serves them, and the call.
//
// oneDNN takes each operand as a 3-D memory descriptor with its own strides (batch, row,
// column), so transposed and sliced operands need no copy; it accumulates in float32 and
// rounds once into the 16-bit output. Primitive descriptors are created per call; oneDNN keeps
// the compiled primitives in its own cache (DNNL_PRIMITIVE_CACHE_CAPACITY, 1024 by default), so
// a repeated shape costs a lookup. Built without oneDNN, every 16-bit product goes through
// float32 (linalg_kernels.cpp).
//
// Note [16-bit engines]
// Which dtypes oneDNN serves is decided from its effective instruction set, without creating a
// primitive: start-up (the describe line) must not run oneDNN's primitive creation, which is
// not safe against a failing allocation (a std::bad_alloc inside it ends the process). oneDNN
// 2.x has bfloat16 matmul kernels from AVX-512 on (native dot products with AVX512-BF16 and
// AMX) and float16 ones with AMX-class CPUs (AVX512-FP16). Should it still refuse a call (a
// layout, an older oneDNN), that call goes through float32.
#include <string>

#include "gemm_engine.hpp"
#include "kernforge/plugin.hpp"
#include "parallel.hpp"

#if KF_CPU_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace kf::cpu {

#if KF_CPU_HAVE_ONEDNN
namespace {

dnnl::memory::data_type dnnl_type(int32_t dtype) {
  return dtype == KF_BFLOAT16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f16;
}

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::desc desc_of(int32_t dtype, int64_t batch, int64_t rows, int64_t cols,
                           int64_t bs, int64_t rs, int64_t cs) {
  return dnnl::memory::desc({batch, rows, cols}, dnnl_type(dtype), {bs, rs, cs});
}

/// The matmul primitive descriptor of these operands; throws dnnl::error when oneDNN has no
/// implementation for them.
dnnl::matmul::primitive_desc matmul_pd(int32_t dtype, int64_t batch, const MatrixBatch& a,
                                       const MatrixBatch& b, int64_t obs, int64_t ors,
                                       int64_t ocs) {
  const auto a_md = desc_of(dtype, batch, a.rows, a.cols, a.batch_stride, a.row_stride,
                            a.col_stride);
  const auto b_md = desc_of(dtype, batch, b.rows, b.cols, b.batch_stride, b.row_stride,
                            b.col_stride);
  const auto c_md = desc_of(dtype, batch, a.rows, b.cols, obs, ors, ocs);
  return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), cpu_engine());
}

/// Whether oneDNN has matmul kernels of `dtype` for this CPU, from its instruction-set level
/// alone (Note [16-bit engines]).
bool has_kernels(int32_t dtype, Isa isa) {
  return dtype == KF_BFLOAT16 ? isa >= Isa::kAvx512 : isa >= Isa::kAmx;
}

}  // namespace

GemmChoice choose_16bit(int32_t dtype, const GemmChoice& f32) {
  GemmChoice c;
  const Isa isa = onednn_isa();
  if (!has_kernels(dtype, isa)) {
    c.library = GemmLibrary::kViaFloat32;
    c.isa = f32.isa;
    c.detail = "via float32";
    return c;
  }
  c.library = GemmLibrary::kOneDnn;
  c.isa = isa;
  c.detail = onednn_version();
  return c;
}

bool matmul_16bit(int32_t dtype, int64_t batch, const MatrixBatch& a, const MatrixBatch& b,
                  void* out, int64_t obs, int64_t ors, int64_t ocs) {
  const GemmEngines& e = gemm_engines();
  if ((dtype == KF_BFLOAT16 ? e.bf16 : e.f16).library != GemmLibrary::kOneDnn) return false;
  dnnl::matmul::primitive_desc pd;
  try {
    pd = matmul_pd(dtype, batch, a, b, obs, ors, ocs);
  } catch (const dnnl::error&) {
    return false;  // strides it does not take (zero strides of an expanded operand, ...)
  }  // std::bad_alloc goes on: the kernel boundary reports KF_OUT_OF_MEMORY
  try {
    omp_set_num_threads(num_threads() > 0 ? num_threads() : 1);
    dnnl::stream stream(cpu_engine());
    dnnl::memory am(pd.src_desc(), cpu_engine(), const_cast<void*>(a.data));
    dnnl::memory bm(pd.weights_desc(), cpu_engine(), const_cast<void*>(b.data));
    dnnl::memory cm(pd.dst_desc(), cpu_engine(), out);
    dnnl::matmul(pd).execute(stream, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm},
                                      {DNNL_ARG_DST, cm}});
    stream.wait();
  } catch (const dnnl::error& err) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu: oneDNN matmul failed: ") +
                                                   err.what());
  }
  return true;
}

#else  // no oneDNN

GemmChoice choose_16bit(int32_t /*dtype*/, const GemmChoice& f32) {
  GemmChoice c;
  c.library = GemmLibrary::kViaFloat32;
  c.isa = f32.isa;
  c.detail = "via float32";
  return c;
}

bool matmul_16bit(int32_t, int64_t, const MatrixBatch&, const MatrixBatch&, void*, int64_t,
                  int64_t, int64_t) {
  return false;
}

#endif  // KF_CPU_HAVE_ONEDNN

}  // namespace kf::cpu
