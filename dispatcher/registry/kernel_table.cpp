#include "registry/kernel_table.hpp"

#include <atomic>

namespace kf {
namespace {

// 2048 ops x 16 slots of pointers: 256 KiB of zero pages, touched only where kernels exist.
std::atomic<const KernelEntry*> g_table[kMaxOps][kMaxBackendSlots];
std::atomic<const FallbackEntry*> g_fallbacks[kMaxBackendSlots];
std::atomic<uint64_t> g_generation{1};

}  // namespace

const KernelEntry* lookup_kernels(int32_t op, int32_t slot) noexcept {
  return g_table[op][slot].load(std::memory_order_acquire);
}

const FallbackEntry* lookup_fallback(int32_t slot) noexcept {
  return g_fallbacks[slot].load(std::memory_order_acquire);
}

void publish_kernels(int32_t op, int32_t slot, const KernelEntry* entry) {
  g_table[op][slot].store(entry, std::memory_order_release);
}

void publish_fallback(int32_t slot, const FallbackEntry* entry) {
  g_fallbacks[slot].store(entry, std::memory_order_release);
}

uint64_t registration_generation() noexcept {
  return g_generation.load(std::memory_order_acquire);
}

void next_registration_generation() noexcept {
  g_generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace kf
