// onednn_library.cpp — the plugin's side of Note [oneDNN on first use] (onednn/onednn_api.h):
// libkernforge_cpu_onednn.so is opened once, by its full path beside this plugin, when a GEMM
// engine is first chosen; and the 16-bit matmul (Note [16-bit engines]) through it.
//
// Note [16-bit engines]
// Which dtypes oneDNN serves is decided from its effective instruction set, without creating a
// primitive: describe() must not run oneDNN's primitive creation, which is not safe against a
// failing allocation (a std::bad_alloc inside it ends the process). oneDNN 2.x has bfloat16
// matmul kernels from AVX-512 on (native dot products with AVX512-BF16 and AMX) and float16
// ones with AMX-class CPUs (AVX512-FP16). Should it still refuse a call (a layout, an older
// oneDNN), that call goes through float32. Built without oneDNN, or when its library cannot be
// opened, every 16-bit product goes through float32 (linalg_kernels.cpp).
#include <algorithm>
#include <string>

#include "gemm_engine.hpp"
#include "kernforge/plugin.hpp"
#include "parallel.hpp"

#if KF_CPU_HAVE_ONEDNN
#include <dlfcn.h>

#include <mutex>
#include <new>

#include "onednn/onednn_api.h"
#endif

namespace kf::cpu {

#if KF_CPU_HAVE_ONEDNN
namespace {

struct OneDnnLibrary {
  const kf_cpu_onednn_table_t* table = nullptr;
  std::string problem;  // why table is null
};

/// The folder of this plugin's file, with its trailing '/'.
std::string plugin_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_folder), &info) == 0 || info.dli_fname == nullptr) {
    return "";
  }
  const std::string file = info.dli_fname;
  return file.substr(0, file.rfind('/') + 1);
}

OneDnnLibrary open_library() {
  OneDnnLibrary lib;
  const std::string path = plugin_folder() + "libkernforge_cpu_onednn.so";
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    lib.problem = "oneDNN not loaded (" + std::string(why != nullptr ? why : path) +
                  "; reinstall the cpu backend, or install oneDNN, Debian: libdnnl2)";
    return lib;
  }
  const auto* table =
      static_cast<const kf_cpu_onednn_table_t*>(dlsym(handle, KF_CPU_ONEDNN_TABLE_SYMBOL));
  if (table == nullptr || table->version != KF_CPU_ONEDNN_API_VERSION) {
    lib.problem = "oneDNN not loaded (" + path + " is of another build of the cpu plugin; "
                  "reinstall the cpu backend)";
    return lib;  // never dlclosed, as plugins are not
  }
  lib.table = table;
  return lib;
}

const OneDnnLibrary& library() {
  static const OneDnnLibrary lib = open_library();  // once, thread-safe
  return lib;
}

[[noreturn]] void call_failed(int32_t status, const char* message) {
  if (status == KF_CPU_ONEDNN_NO_MEMORY) throw std::bad_alloc();
  throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu: ") + message);
}

/// Whether oneDNN has matmul kernels of `dtype` for this CPU, from its instruction-set level
/// alone (Note [16-bit engines]).
bool has_kernels(int32_t dtype, Isa isa) {
  return dtype == KF_BFLOAT16 ? isa >= Isa::kAvx512 : isa >= Isa::kAmx;
}

kf_cpu_onednn_matrices_t matrices(const MatrixBatch& m) {
  return {m.data, m.rows, m.cols, m.batch_stride, m.row_stride, m.col_stride};
}

}  // namespace

bool onednn_loaded() { return library().table != nullptr; }

std::string onednn_problem() { return library().problem; }

Isa onednn_isa() { return static_cast<Isa>(library().table->isa_level()); }

std::string onednn_version() {
  char buf[64] = {};
  library().table->version_text(buf, sizeof buf);
  return buf;
}

void onednn_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                  int64_t ldc) {
  char message[256] = {};
  const int32_t status = library().table->sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k,
                                                alpha, a, lda, b, ldb, beta, c, ldc,
                                                std::max(1, num_threads()), message, sizeof message);
  if (status != KF_CPU_ONEDNN_DONE) call_failed(status, message);
}

GemmChoice choose_16bit(int32_t dtype, const GemmChoice& f32) {
  GemmChoice c;
  if (!onednn_loaded() || !has_kernels(dtype, onednn_isa())) {
    c.library = GemmLibrary::kViaFloat32;
    c.isa = f32.isa;
    c.detail = "via float32";
    return c;
  }
  c.library = GemmLibrary::kOneDnn;
  c.isa = onednn_isa();
  c.detail = onednn_version();
  return c;
}

bool matmul_16bit(int32_t dtype, int64_t batch, const MatrixBatch& a, const MatrixBatch& b,
                  void* out, int64_t obs, int64_t ors, int64_t ocs) {
  const GemmEngines& e = gemm_engines();
  if ((dtype == KF_BFLOAT16 ? e.bf16 : e.f16).library != GemmLibrary::kOneDnn) return false;
  const kf_cpu_onednn_matrices_t am = matrices(a), bm = matrices(b);
  char message[256] = {};
  const int32_t status = library().table->matmul_16bit(
      dtype == KF_BFLOAT16 ? 1 : 0, batch, &am, &bm, out, obs, ors, ocs,
      std::max(1, num_threads()), message, sizeof message);
  if (status == KF_CPU_ONEDNN_DECLINED) return false;  // nothing written: through float32
  if (status != KF_CPU_ONEDNN_DONE) call_failed(status, message);
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
