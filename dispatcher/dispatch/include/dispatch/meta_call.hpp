// The meta step of a call: the device every tensor lives on, then the op's shape rule (a core
// meta function, or the meta callback of the plugin that defined the op).
#pragma once

#include "dispatch/call_args.hpp"
#include "dispatch/meta_result.hpp"

namespace kf {

/// Fills `m` for the call: device, outputs, computation dtype, conversion/broadcast masks.
void compute_meta(const CallArgs& args, MetaResult& m);

/// The device of a call: the tensors' common device; 0-dim CPU tensors go along with any
/// device. Throws naming both devices when tensors live on two.
kf_device_t common_device(const CallArgs& args);

}  // namespace kf
