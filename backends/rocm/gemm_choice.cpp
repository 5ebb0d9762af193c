// gemm_choice.cpp — rocBLAS or the tiled kernel, and how rocBLAS reads an operand
// (gemm_choice.hpp).
#include "gemm_choice.hpp"

namespace kf::cuda {
namespace {

constexpr int64_t kIntMax = 2147483647;  // rocblas_int

bool fits_int(int64_t v) { return v >= 0 && v <= kIntMax; }

}  // namespace

BlasOperand blas_operand(const GemmOperand& o) {
  BlasOperand r;
  if (o.cs == 1 && o.rs >= (o.cols > 1 ? o.cols : 1)) {
    r.ld = o.rs;  // row-major: read column-major, its transpose, untransposed
  } else if (o.rs == 1 && o.cs >= (o.rows > 1 ? o.rows : 1)) {
    r.transposed = true;
    r.ld = o.cs;
  } else {
    return r;
  }
  r.ok = fits_int(r.ld) && fits_int(o.rows) && fits_int(o.cols);
  return r;
}

GemmEngine choose_gemm(bool rocblas_loaded, const BlasGemm& g) {
  if (!rocblas_loaded) return GemmEngine::kTiled;
  const bool beta_reads_bias = g.bias != nullptr && scalar_as_f64(g.beta) != 0.0;
  const bool c_ok = g.c.cs == 1 && g.c.rs >= (g.c.cols > 1 ? g.c.cols : 1) && fits_int(g.c.rs);
  const bool ok = !beta_reads_bias && c_ok && blas_operand(g.a).ok && blas_operand(g.b).ok &&
                  fits_int(g.batch);
  return ok ? GemmEngine::kRocblas : GemmEngine::kTiled;
}

}  // namespace kf::cuda
