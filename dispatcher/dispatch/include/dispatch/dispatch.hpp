// The dispatcher. A call runs: check arguments -> meta (output shapes and dtypes) -> choose the
// kernel (one load from the table) -> allocate outputs -> call. Views and composites are
// computed in the core. Functionality layers (profiler, autograd) sit above the backend slots
// and cost one relaxed load when none is active (Note [Functionality layers]).
//
// Everything here throws kf::Error; the C ABI turns that into a status at its boundary
// (capi/include/capi/op_calls.hpp). Inside the core, ops are called through the generated
// kf::ops functions (core_ops.hpp), which end in run_typed.
#pragma once

#include <cstdint>

#include "dispatch/call_args.hpp"
#include "registry/op_def.hpp"

namespace kf {

/// Runs the op of `args`. `given`: the outputs of an Out call (Inplace: self); `results`: where
/// a Functional call stores its new tensors (one reference each).
void run_op(const CallArgs& args, CallMode mode, TensorImpl* const* given, TensorImpl** results);

/// Binds arguments that are all present with their exact tags (the generated entry points and
/// kf::ops functions make them so) and runs op `op`. For Inplace, self is the output.
void run_typed(int32_t op, const kf_value_t* args, CallMode mode, TensorImpl* const* given,
               TensorImpl** results);

/// Normalises a boxed call's arguments (defaults, loose tags; kf_op_call) and runs it.
void run_boxed(const OpDef& def, const kf_value_t* args, int32_t nargs, CallMode mode,
               TensorImpl* const* given, TensorImpl** results);

/// A functionality layer: does its work, then calls run_op_below(layer) to re-dispatch.
/// A layer `gated` by layer data acts only on calls with a tensor that carries
/// TensorImpl::layer_data (autograd: a tensor that requires grad or was recorded); while only
/// such layers are active, a call whose tensors carry none keeps its call plan.
struct DispatchLayer {
  const char* name;
  void (*handle)(int32_t layer, const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results);
  bool gated = false;
};

/// Registers a layer (at most 8, highest index first) and returns its index. Layers start
/// inactive.
int32_t add_dispatch_layer(const DispatchLayer& layer);
void set_dispatch_layer_active(int32_t layer, bool active);
/// Continues dispatch below `layer` (the next active layer, then the backends).
void run_op_below(int32_t layer, const CallArgs& args, CallMode mode, TensorImpl* const* given,
                  TensorImpl** results);

}  // namespace kf
