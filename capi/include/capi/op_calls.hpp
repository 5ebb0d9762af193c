// The C ABI's one boundary for op calls: the generated typed entry points (c_entry_points.cpp)
// and kf_op_call come through here; exceptions from the dispatcher become a status and the
// thread's last error message once, here.
#pragma once

#include <cstdint>

#include "kernforge/kernforge.h"
#include "registry/op_def.hpp"

namespace kf {

/// Note [Op calls that re-enter the C ABI]
/// A plugin's meta function or kernel may call the C ABI (kf_op_call, a typed entry point)
/// while an op call of the same thread is under way; one that calls its own op again recursed
/// until the stack ran out (SIGSEGV). Every op call through the C ABI counts itself on its
/// thread while it runs; one more than kMaxOpCallDepth deep is KF_FAILED_PRECONDITION naming
/// the op and the ops under way, and nothing is run. Calls inside the core (composites,
/// conversions: kf::ops) do not pass here and are not counted: their depth is fixed by the
/// schema. 16 leaves room for a plugin that builds its ops from other ops, a few levels deep,
/// and stays far from the stack's end even on small thread stacks.
constexpr int kMaxOpCallDepth = 16;

/// Counts one op call of this thread through the C ABI while it lives (Note [Op calls that
/// re-enter the C ABI]); throws before counting when the thread is already kMaxOpCallDepth deep.
/// The calls under way are a list of these objects on the thread's stack: the thread keeps one
/// pointer (the core's static TLS is small: python.test_static_tls).
class OpCallDepth {
 public:
  explicit OpCallDepth(const OpDef& def);
  ~OpCallDepth();
  OpCallDepth(const OpCallDepth&) = delete;
  OpCallDepth& operator=(const OpCallDepth&) = delete;

 private:
  const OpDef& def_;
  const OpCallDepth* outer_;
  int depth_;
};

/// A typed entry point's call: `args` has every argument with its exact tag. `outs`:
/// Functional: where to store the new tensors; Out: *outs[i] are the given outputs; Inplace:
/// unused (self is written).
kf_status_t call_typed_entry(int32_t op, const kf_value_t* args, CallMode mode,
                             kf_tensor_t** outs) noexcept;

}  // namespace kf
