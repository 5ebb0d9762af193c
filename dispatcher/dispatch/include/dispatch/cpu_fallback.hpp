// Note [CPU fallback]
// When a backend has no kernel for (op, dtype) and no fallback of its own, the call runs on the
// CPU backend: tensor arguments are copied to the CPU, the op runs there, and results are copied
// back to the device (or into the given out/self). It is on by default and warns once per op and
// backend; KERNFORGE_CPU_FALLBACK=0 turns it off (dispatch/kernel_choice.hpp decides).
#pragma once

#include "device/backend.hpp"
#include "dispatch/call_args.hpp"
#include "dispatch/meta_result.hpp"

namespace kf {

/// Runs the call on the CPU backend and moves the results to the call's device.
void run_cpu_fallback(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                      TensorImpl** results, const MetaResult& meta, const Backend& backend);

/// Throws KF_UNIMPLEMENTED naming the op, the dtype and the backends that have a kernel.
[[noreturn]] void fail_unimplemented(const OpDef& def, kf_dtype_t dtype, const Backend& backend);

}  // namespace kf
