// The dispatcher (DESIGN section 5). A call runs: check arguments -> meta (output shapes and
// dtypes) -> pick the kernel (one load from the table) -> allocate outputs -> call. Views and
// composites are computed in the core. Functionality layers (profiler, autograd) sit above the
// backend slots and cost one relaxed load when none is active.
#pragma once

#include <cstdint>

#include "dispatch/call_args.hpp"
#include "dispatch/op_def.hpp"

namespace kf {

/// The entry of every op call from the C ABI (typed and boxed). `outs`: Functional: where to
/// store new tensors; Out: *outs[i] are the given outputs; Inplace: unused (self is written).
kf_status_t call_op(int32_t op, const kf_value_t* args, int32_t nargs, CallMode mode,
                    kf_tensor_t** outs) noexcept;

/// The generated typed entry points' call: every argument present with its exact tag.
kf_status_t call_op_typed(int32_t op, const kf_value_t* args, CallMode mode,
                          kf_tensor_t** outs) noexcept;

/// The throwing core of call_op, for code inside the core. `given` holds Out/Inplace outputs;
/// Functional results are written to `results` (new references).
void run_op(const CallArgs& args, CallMode mode, TensorImpl* const* given, TensorImpl** results);

/// A functionality layer: does its work, then calls run_op_below(layer) to re-dispatch.
struct DispatchLayer {
  const char* name;
  void (*handle)(int32_t layer, const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results);
};

/// Registers a layer (at most 8, highest index first) and returns its index. Layers start
/// inactive.
int32_t add_dispatch_layer(const DispatchLayer& layer);
void set_dispatch_layer_active(int32_t layer, bool active);
/// Continues dispatch below `layer` (the next active layer, then the backends).
void run_op_below(int32_t layer, const CallArgs& args, CallMode mode, TensorImpl* const* given,
                  TensorImpl** results);

}  // namespace kf
