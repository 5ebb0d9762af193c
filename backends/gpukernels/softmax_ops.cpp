// softmax_ops.cpp — softmax and log_softmax on CUDA: the host glue of softmax.cu.
//
// The core converts self to the output's floating dtype first (meta softmax: dtype= when
// given), so input and output share one dtype and self's shape; dim may be negative, and a
// 0-dim tensor takes dim 0 or -1. Empty tensors launch nothing.
#include "kernforge/plugin.hpp"
#include "reduce_host.hpp"
#include "softmax_launch.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

template <class Args>
void softmax_kernel(bool log, const Args& a, const char* name) {
  require_dtype_in(kSoftmaxDtypes, a.out.dtype, "an output");
  launch_line_op(a.call, a.self, a.out, a.dim, name,
                 [&](const LineLaunch& l, cudaStream_t s) { launch_softmax(log, l, s); });
}

void softmax_fn(const ops::softmax::Args& a) { softmax_kernel(false, a, "softmax"); }
void log_softmax_fn(const ops::log_softmax::Args& a) { softmax_kernel(true, a, "log_softmax"); }

}  // namespace

kf_status_t register_softmax_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, softmax, softmax_fn, kSoftmaxDtypes);
  KF_REGISTER_KERNEL(reg, log_softmax, log_softmax_fn, kSoftmaxDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
