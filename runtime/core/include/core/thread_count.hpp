// thread_count.hpp — the bound on the intra-op threads a backend may be asked for.
//
// Note [A bound on threads]
// kf_set_num_threads(n) and KERNFORGE_NUM_THREADS=n both pass n to every backend, which hands
// it to its thread pool (the CPU plugin: OpenMP). A kernel never runs faster on more threads
// than the machine has hardware threads, and a huge count does harm: 2,000 OpenMP threads under
// a memory limit hung the next op inside libgomp, which cannot report a thread it failed to
// start. So both take n only in [1, max_thread_count()]: four times the hardware threads (room
// for oversubscribing a machine on purpose), at least 64, at most 4096. Thread safety: no state
// but a value computed once.
#pragma once

#include <cstdint>

namespace kf {

/// The largest thread count the runtime accepts (Note [A bound on threads]).
int32_t max_thread_count() noexcept;

}  // namespace kf
