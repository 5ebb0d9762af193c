#include "capi/op_calls.hpp"

#include <string>

#include "capi/startup.hpp"
#include "core/error.hpp"
#include "dispatch/dispatch.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

// The op calls of this thread under way through the C ABI, outermost first.
thread_local int t_op_call_depth = 0;
thread_local const OpDef* t_op_calls[kMaxOpCallDepth];

std::string ops_under_way() {
  std::string out;
  for (int i = 0; i < t_op_call_depth; ++i) {
    out += (i > 0 ? " -> " : "") + std::string(t_op_calls[i]->name);
  }
  return out;
}

// Validates the caller's output pointers; for Out, the given tensors.
void check_outputs(const OpDef& def, CallMode mode, kf_tensor_t** outs, TensorImpl** given) {
  if (mode == CallMode::Inplace) return;
  if (outs == nullptr) fail(KF_INVALID_ARGUMENT, "{}: out must not be NULL", def.name);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    if (outs[i] == nullptr) fail(KF_INVALID_ARGUMENT, "{}: out must not be NULL", def.name);
    if (mode != CallMode::Out) continue;
    given[i] = find_tensor(*outs[i]);
    if (given[i] == nullptr) {
      fail(KF_INVALID_ARGUMENT, "{}: out tensor handle {}", def.name,
           tensor_handle_problem(*outs[i]));
    }
  }
}

}  // namespace

OpCallDepth::OpCallDepth(const OpDef& def) {
  if (t_op_call_depth >= kMaxOpCallDepth) {
    fail(KF_FAILED_PRECONDITION,
         "{}: an op call re-entered the C ABI {} deep on this thread ({} -> {}); a plugin's meta "
         "function or kernel that calls ops must not call its own op again",
         def.name, kMaxOpCallDepth + 1, ops_under_way(), def.name);
  }
  t_op_calls[t_op_call_depth++] = &def;
}

OpCallDepth::~OpCallDepth() { --t_op_call_depth; }

kf_status_t call_typed_entry(int32_t op, const kf_value_t* args, CallMode mode,
                             kf_tensor_t** outs) noexcept {
  try {
    ensure_initialized();
    const OpDef& def = *op_by_id(op);
    const OpCallDepth depth(def);
    TensorImpl* results[kMaxOutputs];
    TensorImpl* given[kMaxOutputs];  // set for Out only
    check_outputs(def, mode, outs, given);
    run_typed(op, args, mode, mode == CallMode::Out ? given : nullptr, results);
    if (mode == CallMode::Functional) {
      for (int32_t i = 0; i < def.nreturns; ++i) *outs[i] = handle_of(results[i]);
    }
    return KF_OK;
  } catch (...) {
    return report_current_exception();
  }
}

}  // namespace kf
