#include "registry/op_registry.hpp"

#include <atomic>
#include <cstring>

#include "core/error.hpp"

namespace kf {
namespace {

// Defined ops by id - kBuiltinOpCount.
std::atomic<const OpDef*> g_defined[kMaxOps];
std::atomic<int32_t> g_count{0};  // ops defined by plugins

}  // namespace

int32_t op_count() noexcept { return kBuiltinOpCount + g_count.load(std::memory_order_acquire); }

const OpDef* op_by_id(int32_t id) noexcept {
  if (id < 0) return nullptr;
  if (id < kBuiltinOpCount) return &kBuiltinOps[id];
  const int32_t k = id - kBuiltinOpCount;
  if (k >= g_count.load(std::memory_order_acquire)) return nullptr;
  return g_defined[k].load(std::memory_order_acquire);
}

const OpDef* find_op(std::string_view name) noexcept {
  const int32_t n = op_count();
  for (int32_t id = 0; id < n; ++id) {
    const OpDef* def = op_by_id(id);
    if (def != nullptr && name == def->name) return def;
  }
  return nullptr;
}

const MetaRule* find_meta_rule(std::string_view name) noexcept {
  for (int32_t i = 0; i < kMetaRuleCount; ++i) {
    if (name == kMetaRules[i].name) return &kMetaRules[i];
  }
  return nullptr;
}

std::mutex& registration_mutex() {
  static std::mutex* m = new std::mutex();  // registration may happen late in the process
  return *m;
}

int32_t append_op(OpDef* def) {
  const int32_t k = g_count.load(std::memory_order_relaxed);
  if (kBuiltinOpCount + k >= kMaxOps) {
    fail(KF_OUT_OF_RANGE, "cannot define op '{}': the registry holds at most {} ops", def->name,
         kMaxOps);
  }
  def->id = kBuiltinOpCount + k;
  g_defined[k].store(def, std::memory_order_release);
  g_count.store(k + 1, std::memory_order_release);
  return def->id;
}

const OpDef* op_of_handle(kf_op_t op) noexcept {
  const uintptr_t raw = reinterpret_cast<uintptr_t>(op);
  return raw == 0 || raw > static_cast<uintptr_t>(kMaxOps)
             ? nullptr
             : op_by_id(static_cast<int32_t>(raw - 1));
}

const OpDef& checked_op(kf_op_t op) {
  const OpDef* def = op_of_handle(op);
  if (def == nullptr) {
    fail(KF_INVALID_ARGUMENT, "op handle is NULL or not from kf_op_find/kf_op_at");
  }
  return *def;
}

}  // namespace kf
