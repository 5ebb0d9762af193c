// Running a kernel op on a backend: meta, output checks, input preparation (conversion,
// broadcasting, contiguity), output allocation and the kernel call itself.
#pragma once

#include "dispatch/call_args.hpp"
#include "dispatch/meta_result.hpp"
#include "loader/backend.hpp"

namespace kf {

void run_kernel(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                TensorImpl** results);

/// Checks that a result of `result`'s shape and dtype can be written into `given`.
void check_output_fits(const OpDef& def, const TensorImpl& result, const TensorImpl& given,
                       CallMode mode);

/// The device of a call: the tensors' common device; 0-dim CPU tensors go along with any
/// device. Throws naming both devices when tensors live on two.
kf_device_t common_device(const CallArgs& args);

/// Whether the CPU fallback is on (KERNFORGE_CPU_FALLBACK is not "0"; Note [CPU fallback]).
bool cpu_fallback_enabled();

/// Called when `backend` has no kernel for (op, dtype): the CPU fallback or KF_UNIMPLEMENTED.
void run_fallback(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                  TensorImpl** results, const MetaResult& meta, const Backend& backend);

}  // namespace kf
