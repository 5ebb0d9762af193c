#include "dispatch/kernel_table.hpp"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "op_ids.hpp"

namespace kf {
namespace {

std::atomic<const KernelEntry*> g_table[op::kCount][kMaxBackendSlots];
std::mutex g_register_mutex;

const char* keep_string(const std::string& s) {
  char* copy = strdup(s.c_str());  // provenance lives as long as the process
  if (copy == nullptr) throw std::bad_alloc();
  return copy;
}

}  // namespace

const KernelEntry* lookup_kernels(int32_t op, int32_t slot) noexcept {
  return g_table[op][slot].load(std::memory_order_acquire);
}

void commit_kernels(const Backend& backend, int32_t slot, const PendingKernel* kernels,
                    size_t count) {
  std::lock_guard<std::mutex> lock(g_register_mutex);
  std::map<int32_t, KernelEntry> next;
  for (size_t k = 0; k < count; ++k) {
    const PendingKernel& p = kernels[k];
    auto it = next.find(p.op);
    if (it == next.end()) {
      const KernelEntry* cur = lookup_kernels(p.op, slot);
      it = next.emplace(p.op, cur != nullptr ? *cur : KernelEntry{}).first;
    }
    KernelEntry& e = it->second;
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      if ((p.desc.dtype_mask & (1u << d)) == 0) continue;
      if (e.fn[d] != nullptr) {
        fail(KF_ALREADY_EXISTS,
             "plugin '{}': kernel for op '{}' dtype {} at {} conflicts with the one registered "
             "at {}", backend.name, kOpDefs[p.op].name, dtype_name(static_cast<kf_dtype_t>(d)),
             p.provenance, e.provenance[d]);
      }
      e.fn[d] = p.desc.fn;
      e.flags[d] = p.desc.flags;
      e.provenance[d] = p.provenance.c_str();  // replaced by a kept copy below
      e.dtype_mask |= 1u << d;
    }
  }
  for (auto& [op_id, entry] : next) {
    auto* published = new KernelEntry(entry);
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      const KernelEntry* cur = lookup_kernels(op_id, slot);
      const bool existing = cur != nullptr && cur->fn[d] != nullptr;
      if (published->fn[d] != nullptr && !existing) {
        published->provenance[d] = keep_string(published->provenance[d]);
      }
    }
    g_table[op_id][slot].store(published, std::memory_order_release);
  }
}

}  // namespace kf
