// The dispatch table (DESIGN section 5): table[op][backend_slot] -> KernelEntry, one atomic
// load per lookup. Registration builds new entries under a lock and publishes them with a
// release store (copy-on-write); dispatch never locks. Old entries are never freed, so a
// reader holding one stays safe.
#pragma once

#include <cstdint>
#include <string>

#include "dispatch/op_def.hpp"
#include "kernforge/plugin.h"
#include "loader/backend.hpp"

namespace kf {

struct KernelEntry {
  kf_kernel_fn fn[KF_DTYPE_COUNT] = {};
  uint32_t flags[KF_DTYPE_COUNT] = {};
  const char* provenance[KF_DTYPE_COUNT] = {};  // "cpu: backends/cpu/x.cpp:12", process lifetime
  uint32_t dtype_mask = 0;
};

/// The entry for (op, slot) or nullptr. Lock-free.
const KernelEntry* lookup_kernels(int32_t op, int32_t slot) noexcept;

/// One pending kernel registration of a plugin.
struct PendingKernel {
  int32_t op;
  kf_kernel_desc_t desc;
  std::string provenance;
};

/// Publishes a plugin's registrations as one transaction into `slot`. Throws
/// KF_ALREADY_EXISTS naming both registrations when one conflicts; nothing is published then.
void commit_kernels(const Backend& backend, int32_t slot, const PendingKernel* kernels,
                    size_t count);

}  // namespace kf
