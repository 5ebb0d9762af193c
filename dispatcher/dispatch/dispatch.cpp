#include "dispatch/dispatch.hpp"

#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/call_plan.hpp"
#include "dispatch/kernel_call.hpp"
#include "dispatch/layers.hpp"
#include "dispatch/written_overlap.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

// The tensors an in-place call writes: self, then its further written arguments (Tensor(b!),
// ...), as many as the op returns.
TensorImpl* const* written_tensors(const CallArgs& a, TensorImpl** out) {
  out[0] = a.tensors[a.tensor_index[0]];
  if (a.def->nreturns == 1) return out;
  int32_t n = 0;
  for (int32_t i = 0; i < a.nargs; ++i) {
    if (a.def->args[i].written) out[n++] = a.tensors[i];
  }
  return out;
}

// Runs a composite or view and, for Out/Inplace, copies its result into the given outputs.
void run_in_core(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results) {
  const OpDef& def = *args.def;
  TensorRef outs[kMaxOutputs];
  def.impl(args, outs);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    if (!outs[i]) fail(KF_INTERNAL, "{}: the core's implementation returned no tensor", def.name);
  }
  if (mode == CallMode::Functional) {
    for (int32_t i = 0; i < def.nreturns; ++i) results[i] = outs[i].take();
    return;
  }
  for (int32_t i = 0; i < def.nreturns; ++i) {
    check_output_fits(def, *outs[i], *given[i], mode);
    ops::copy_(*given[i], *outs[i]);
  }
}

void run_checked(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results) {
  const OpDef& def = *args.def;
  if (def.kind == OpKind::View || (def.kind == OpKind::Composite && def.meta == nullptr)) {
    return run_in_core(args, mode, given, results);
  }
  // A kernel op, or a composite a backend kernel may override: decided after its meta.
  if (!run_kernel(args, mode, given, results)) run_in_core(args, mode, given, results);
}

}  // namespace

// Every call with written tensors passes check_written first (Note [Written tensors that
// overlap]); a Functional call writes only what it allocates.
void run_backend(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results) {
  if (mode != CallMode::Functional && !check_written(args, mode, given)) {
    return run_with_copied_inputs(args, mode, given, results, run_checked);
  }
  run_checked(args, mode, given, results);
}

void run_op(const CallArgs& args, CallMode mode, TensorImpl* const* given, TensorImpl** results) {
  if (g_active_layers.load(std::memory_order_relaxed) != 0) {
    run_layers_from(8, args, mode, given, results);
  } else {
    run_backend(args, mode, given, results);
  }
  if (mode == CallMode::Functional) return;
  for (int32_t i = 0; i < args.def->nreturns; ++i) bump_version(*given[i]);  // Note [Version counters]
}

void run_typed(int32_t op, const kf_value_t* args, CallMode mode, TensorImpl* const* given,
               TensorImpl** results) {
  if (mode == CallMode::Functional && run_planned(op, args, results)) return;
  CallArgs ca;
  bind_typed_args(*op_by_id(op), args, ca);
  TensorImpl* written[kMaxOutputs];
  if (mode == CallMode::Inplace) given = written_tensors(ca, written);
  run_op(ca, mode, given, results);
}

void run_boxed(const OpDef& def, const kf_value_t* args, int32_t nargs, CallMode mode,
               TensorImpl* const* given, TensorImpl** results) {
  CallArgs ca;
  normalize_args(def, args, nargs, ca);
  if (mode == CallMode::Functional && run_planned(def.id, ca.v, results)) return;
  TensorImpl* written[kMaxOutputs];
  if (mode == CallMode::Inplace) given = written_tensors(ca, written);
  run_op(ca, mode, given, results);
}

}  // namespace kf
