// The C ABI's one boundary for op calls: the generated typed entry points (c_entry_points.cpp)
// and kf_op_call come through here; exceptions from the dispatcher become a status and the
// thread's last error message once, here.
#pragma once

#include <cstdint>

#include "kernforge/kernforge.h"
#include "registry/op_def.hpp"

namespace kf {

/// A typed entry point's call: `args` has every argument with its exact tag. `outs`:
/// Functional: where to store the new tensors; Out: *outs[i] are the given outputs; Inplace:
/// unused (self is written).
kf_status_t call_typed_entry(int32_t op, const kf_value_t* args, CallMode mode,
                             kf_tensor_t** outs) noexcept;

}  // namespace kf
