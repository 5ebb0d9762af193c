#include "capi/op_calls.hpp"

#include <string>

#include "capi/startup.hpp"
#include "core/error.hpp"
#include "core/tls_model.hpp"
#include "dispatch/dispatch.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

// The innermost op call of this thread under way through the C ABI (a list through outer_). Read
// and written twice on every call, so initial-exec.
thread_local const OpCallDepth* t_innermost_call KF_TLS_INITIAL_EXEC = nullptr;

// Validates the caller's output pointers; for Out, the given tensors.
void check_outputs(const OpDef& def, CallMode mode, kf_tensor_t** outs, TensorImpl** given) {
  if (mode == CallMode::Inplace || def.nreturns == 0) return;
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

OpCallDepth::OpCallDepth(const OpDef& def)
    : def_(def), outer_(t_innermost_call), depth_(outer_ != nullptr ? outer_->depth_ + 1 : 1) {
  if (depth_ > kMaxOpCallDepth) {
    std::string under_way;  // outermost first
    for (const OpCallDepth* c = outer_; c != nullptr; c = c->outer_) {
      under_way = std::string(c->def_.name) + (under_way.empty() ? "" : " -> ") + under_way;
    }
    fail(KF_FAILED_PRECONDITION,
         "{}: an op call re-entered the C ABI {} deep on this thread ({} -> {}); a plugin's meta "
         "function or kernel that calls ops must not call its own op again",
         def.name, depth_, under_way, def.name);
  }
  t_innermost_call = this;
}

OpCallDepth::~OpCallDepth() { t_innermost_call = outer_; }

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
