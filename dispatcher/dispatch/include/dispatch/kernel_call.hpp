// Running an op on a backend after its meta: output checks, input preparation (device moves,
// conversion, broadcasting, contiguity), output allocation and the kernel call itself, on the
// thread's current stream of the device.
#pragma once

#include "device/backend.hpp"
#include "dispatch/call_args.hpp"
#include "dispatch/meta_result.hpp"

namespace kf {

/// Runs the op through its meta and the kernel choice. Returns false, having done nothing
/// visible, when the choice is the op's composite (the caller runs it).
bool run_kernel(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                TensorImpl** results);

/// Checks that a result of `result`'s shape and dtype can be written into `given`.
void check_output_fits(const OpDef& def, const TensorImpl& result, const TensorImpl& given,
                       CallMode mode);

}  // namespace kf
