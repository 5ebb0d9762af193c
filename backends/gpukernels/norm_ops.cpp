// norm_ops.cpp — fused layer_norm and rms_norm on CUDA, overriding the core's composites: the
// host glue of norm.cu.
//
// The core's meta has checked the arguments (a floating input; normalized_shape its trailing
// dims; weight and bias of exactly that shape and the input's dtype; out of the input's shape
// and dtype). The kernels are registered with KF_KERNEL_NEEDS_CONTIGUOUS, so input, weight and
// bias arrive dense (strided or expanded ones are copied first) and a row is a run of d
// elements; the output is the core's fresh, dense tensor (these ops have no out= variant).
// rms_norm's eps None is the machine epsilon of the compute type (float32's for float32,
// float16 and bfloat16, float64's for float64), as PyTorch.
#include <limits>
#include <optional>
#include <string>

#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "norm_launch.hpp"
#include "operands.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

[[noreturn]] void internal(const std::string& what) {
  throw kf::plugin::KernelError(KF_INTERNAL, what);
}

void require_dense(const kf_tensor_view_t* t, const char* name) {
  if (t == nullptr) return;
  if (!is_contiguous(*t)) internal(std::string(name) + " is not contiguous");
  if (t->dtype != KF_FLOAT32 && t->dtype != KF_FLOAT64 && t->dtype != KF_FLOAT16 &&
      t->dtype != KF_BFLOAT16) {
    internal(std::string(name) + " is not floating point");
  }
}

/// The launch of a norm over the trailing `k` dims of `in` (checks what the meta promised).
NormLaunch norm_launch(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int32_t k,
                       const kf_tensor_view_t* w, const kf_tensor_view_t* b) {
  if (k < 1 || k > in.ndim || out.ndim != in.ndim || out.dtype != in.dtype) {
    internal("normalized_shape, the input and the output do not fit together");
  }
  NormLaunch l{};
  l.d = 1;
  for (int32_t d = in.ndim - k; d < in.ndim; ++d) l.d *= in.shape[d];
  l.rows = l.d == 0 ? 0 : in.numel / l.d;
  if (l.rows == 0) return l;  // nothing to compute (empty tensors may have any strides)
  require_dense(&in, "the input");
  require_dense(&out, "the output");
  require_dense(w, "weight");
  require_dense(b, "bias");
  for (const kf_tensor_view_t* t : {w, b}) {
    if (t != nullptr && (t->numel != l.d || t->dtype != in.dtype)) {
      internal("weight or bias does not match normalized_shape and the input's dtype");
    }
  }
  l.in = in.data;
  l.out = out.data;
  l.weight = w != nullptr ? w->data : nullptr;
  l.bias = b != nullptr ? b->data : nullptr;
  l.dtype = in.dtype;
  return l;
}

void run(NormLaunch& l, const kf_kernel_call_t& call, const kf_tensor_view_t& out,
         const char* op) {
  if (l.rows == 0 || l.d == 0) return;
  KernelScope scope(call, out);
  l.sched = schedule_rows(l.rows, l.d, false, scope.device().multiprocessors);
  launch_norm(l, scope.stream());
  scope.check(op);
}

void layer_norm_kernel(const ops::layer_norm::Args& a) {
  NormLaunch l = norm_launch(a.input, a.out, a.normalized_shape.size(), a.weight, a.bias);
  l.eps = a.eps;
  l.rms = false;
  run(l, a.call, a.out, "layer_norm");
}

void rms_norm_kernel(const ops::rms_norm::Args& a) {
  NormLaunch l = norm_launch(a.input, a.out, a.normalized_shape.size(), a.weight, nullptr);
  l.eps = a.eps ? *a.eps
                : a.input.dtype == KF_FLOAT64
                      ? std::numeric_limits<double>::epsilon()
                      : static_cast<double>(std::numeric_limits<float>::epsilon());
  l.rms = true;
  run(l, a.call, a.out, "rms_norm");
}

}  // namespace

kf_status_t register_norm_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL_FLAGS(reg, layer_norm, layer_norm_kernel, kNormDtypes,
                           KF_KERNEL_NEEDS_CONTIGUOUS);
  KF_REGISTER_KERNEL_FLAGS(reg, rms_norm, rms_norm_kernel, kNormDtypes,
                           KF_KERNEL_NEEDS_CONTIGUOUS);
  return KF_OK;
}

}  // namespace kf::cuda
