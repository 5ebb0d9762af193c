// gemm_choice.hpp — how the rocm backend runs the floating-point GEMM of mm, bmm and addmm
// (blas_gemm.hpp, run by rocm_gemm.cpp): the choice between rocBLAS and the shared tiled
// kernel, and the layout rocBLAS reads in place. Pure logic, unit-tested without a GPU.
//
// Note [Row-major GEMM on rocBLAS]: rocBLAS is column-major. A row-major c = a @ b is the
// column-major c^T = b^T a^T, so the call passes b first and a second, swapping m and n. A
// matrix whose columns are adjacent (cs == 1) is, read column-major, its own transpose with
// leading dimension rs: it enters untransposed; one whose rows are adjacent (rs == 1) enters
// transposed with leading dimension cs. c must be row-major (cs == 1) with its leading
// dimension rs. Anything else (other strides, beyond 2^31 - 1, addmm's bias with beta != 0)
// runs on the tiled kernel, which reads any strides.
#pragma once

#include <cstdint>

#include "blas_gemm.hpp"
#include "blas_state.hpp"

namespace kf::cuda {

/// One operand as rocBLAS reads it: `transposed` (rocblas_operation_transpose) and its leading
/// dimension; ok false when rocBLAS cannot read it in place.
struct BlasOperand {
  bool ok = false;
  bool transposed = false;
  int64_t ld = 0;
};

/// How rocBLAS reads operand `o` (a or b of a row-major product) in the swapped column-major
/// call (the Note).
BlasOperand blas_operand(const GemmOperand& o);

/// rocBLAS when `rocblas_loaded` and g is a call it reads in place, else the tiled kernel.
GemmEngine choose_gemm(bool rocblas_loaded, const BlasGemm& g);

}  // namespace kf::cuda
