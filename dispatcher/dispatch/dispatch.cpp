#include "dispatch/dispatch.hpp"

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "dispatch/internal_ops.hpp"
#include "dispatch/kernel_call.hpp"
#include "dispatch/layers.hpp"
#include "runtime_state.hpp"

namespace kf {
namespace {

void check_given_outputs(const OpDef& def, CallMode mode, kf_tensor_t** outs,
                         TensorImpl** given) {
  if (mode == CallMode::Inplace) return;
  if (outs == nullptr) fail(KF_INVALID_ARGUMENT, "{}: out must not be NULL", def.name);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    if (outs[i] == nullptr) fail(KF_INVALID_ARGUMENT, "{}: out must not be NULL", def.name);
    if (mode == CallMode::Out) {
      kf_tensor_t t = *outs[i];
      if (t == nullptr || t->magic != kTensorAlive) {
        fail(KF_INVALID_ARGUMENT, "{}: out tensor handle {}", def.name,
             t == nullptr ? "is NULL" : "was already released");
      }
      given[i] = t;
    }
  }
}

// Runs a composite or view and copies its result into the given outputs for Out/Inplace.
void run_in_core(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results) {
  const OpDef& def = *args.def;
  kf_tensor_t outs[kMaxOutputs] = {};
  const ImplFn fn = def.kind == OpKind::View ? def.view : def.composite;
  check_status(fn(args.v, outs), "");
  if (mode == CallMode::Functional) {
    for (int32_t i = 0; i < def.nreturns; ++i) results[i] = outs[i];
    return;
  }
  TensorRef temps[kMaxOutputs];
  for (int32_t i = 0; i < def.nreturns; ++i) temps[i] = TensorRef(outs[i]);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    check_output_fits(def, *temps[i], *given[i], mode);
    op_copy_into(*given[i], *temps[i]);
  }
}

}  // namespace

void run_backend(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results) {
  if (args.def->kind == OpKind::Kernel) {
    run_kernel(args, mode, given, results);
  } else {
    run_in_core(args, mode, given, results);
  }
}

void run_op(const CallArgs& args, CallMode mode, TensorImpl* const* given, TensorImpl** results) {
  if (g_active_layers.load(std::memory_order_relaxed) != 0) {
    run_layers_from(8, args, mode, given, results);
  } else {
    run_backend(args, mode, given, results);
  }
}

namespace {

void finish_call(CallArgs& ca, CallMode mode, kf_tensor_t** outs) {
  const OpDef& def = *ca.def;
  TensorImpl* given[kMaxOutputs] = {};
  check_given_outputs(def, mode, outs, given);
  if (mode == CallMode::Inplace) given[0] = ca.tensors[ca.tensor_index[0]];
  TensorImpl* results[kMaxOutputs] = {};
  run_op(ca, mode, given, results);
  if (mode == CallMode::Functional) {
    for (int32_t i = 0; i < def.nreturns; ++i) *outs[i] = results[i];
  }
}

}  // namespace

kf_status_t call_op(int32_t op, const kf_value_t* args, int32_t nargs, CallMode mode,
                    kf_tensor_t** outs) noexcept {
  try {
    ensure_initialized();
    CallArgs ca;
    normalize_args(kOpDefs[op], args, nargs, ca);
    finish_call(ca, mode, outs);
    return KF_OK;
  } catch (...) {
    return report_current_exception();
  }
}

kf_status_t call_op_typed(int32_t op, const kf_value_t* args, CallMode mode,
                          kf_tensor_t** outs) noexcept {
  try {
    ensure_initialized();
    CallArgs ca;
    bind_typed_args(kOpDefs[op], args, ca);
    finish_call(ca, mode, outs);
    return KF_OK;
  } catch (...) {
    return report_current_exception();
  }
}

}  // namespace kf
