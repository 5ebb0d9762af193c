#include "capi/op_calls.hpp"

#include "core/error.hpp"
#include "dispatch/dispatch.hpp"
#include "capi/startup.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

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

kf_status_t call_typed_entry(int32_t op, const kf_value_t* args, CallMode mode,
                             kf_tensor_t** outs) noexcept {
  try {
    ensure_initialized();
    const OpDef& def = *op_by_id(op);
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
