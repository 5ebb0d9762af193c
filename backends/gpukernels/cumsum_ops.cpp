// cumsum_ops.cpp — cumsum on CUDA: the host glue of cumsum.cu.
//
// The core converts self to the output's dtype first (meta cumsum: bool and integers become
// int64 unless dtype= is given), and the output has self's shape; it may be self itself (out=
// self: each element is read before it is written). Empty tensors launch nothing.
#include "cumsum_launch.hpp"
#include "kernforge/plugin.hpp"
#include "reduce_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void cumsum_kernel(const ops::cumsum::Args& a) {
  require_dtype_in(kCumsumDtypes, a.out.dtype, "an output");
  launch_line_op(a.call, a.self, a.out, a.dim, "cumsum",
                 [&](const LineLaunch& l, cudaStream_t s) { launch_cumsum(l, s); });
}

}  // namespace

kf_status_t register_cumsum_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, cumsum, cumsum_kernel, kCumsumDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
