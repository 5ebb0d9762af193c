// schedule.hpp — which kind of device the shared kernels shape their work-groups for.
#pragma once

#include "clkernels/device.hpp"

namespace kf::clk {

/// Whether the device runs a work-group's items one after another (a CPU, such as PoCL) rather
/// than side by side (a GPU): Capabilities::items_in_sequence, unless the environment variable
/// KERNFORGE_CLKERNELS_SCHEDULE=gpu|cpu overrides it (read once), so that the GPU shapes are
/// tested on PoCL too (tests/cts). The reductions (reduce_plan.cpp) and the sorts' block width
/// (sort_ops.cpp) follow it.
bool items_run_in_sequence(const Capabilities& caps);

}  // namespace kf::clk
