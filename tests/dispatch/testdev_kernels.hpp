// testdev_kernels.hpp — the kernels of the test backends. testdev (synchronous): add float32,
// and copy_/to_dtype for every dtype (what moves and clones need); everything else goes through
// the CPU fallback. testasync (queued, testdev_queues.hpp) adds a kernel that overrides the
// composite `linear` (float32), a kernel for the op `cdev::scale` that the C plugin (cdev)
// defines when it is loaded first, and a boxed fallback of its own for int16 (neg and mul).
#pragma once

#include "kernforge/plugin.h"

namespace kf::testdev {

/// Finds the op ids the fallback serves (init calls it).
void find_fallback_ops(const kf_host_api_t* host);
/// Registers the backend's kernels (and, for testasync, its fallback).
kf_status_t register_testdev_kernels(const kf_registrar_t* reg);

}  // namespace kf::testdev
