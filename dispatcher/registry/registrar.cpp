#include "registry/registrar.hpp"

#include <cstring>
#include <map>
#include <mutex>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

constexpr uint32_t kAllDtypeBits = (1u << KF_DTYPE_COUNT) - 1u;
constexpr size_t kMinOpDefinition = offsetof(kf_op_definition_t, line) + sizeof(int32_t);

const char* keep_string(const std::string& s) {
  char* copy = strdup(s.c_str());  // provenance lives as long as the process
  if (copy == nullptr) throw std::bad_alloc();
  return copy;
}

void check_mask(const std::string& where, const char* what, uint32_t mask) {
  if ((mask & ~kAllDtypeBits) != 0 || mask == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: {} has an invalid dtype mask 0x{:x}", where, what, mask);
  }
}

}  // namespace

Registrar::Registrar(std::string plugin) : plugin_(std::move(plugin)) {
  c_.struct_size = sizeof(c_);
  c_.ctx = this;
  c_.register_kernel = &Registrar::register_kernel;
  c_.define_op = &Registrar::define_op;
  c_.register_fallback = &Registrar::register_fallback;
}

template <class F>
kf_status_t Registrar::sticky(F&& fn) noexcept {
  const kf_status_t s = guard(fn);
  if (s != KF_OK && !error_) {
    try {
      error_.emplace(s, last_error());
    } catch (...) {
    }
  }
  return s;
}

kf_status_t Registrar::register_kernel(void* ctx, const kf_kernel_desc_t* desc) noexcept {
  auto* self = static_cast<Registrar*>(ctx);
  return self->sticky([&] {
    if (desc == nullptr || desc->struct_size < sizeof(kf_kernel_desc_t) ||
        desc->op_name == nullptr || desc->fn == nullptr) {
      fail(KF_INVALID_ARGUMENT, "register_kernel: the descriptor is NULL, too small or lacks "
                                "op_name/fn");
    }
    self->add_kernel(*desc);
  });
}

kf_status_t Registrar::define_op(void* ctx, const kf_op_definition_t* def) noexcept {
  auto* self = static_cast<Registrar*>(ctx);
  return self->sticky([&] {
    if (def == nullptr || def->struct_size < kMinOpDefinition) {
      fail(KF_INVALID_ARGUMENT, "define_op: the definition is NULL or its struct_size is not "
                                "sizeof(kf_op_definition_t)");
    }
    self->add_op(*def);
  });
}

kf_status_t Registrar::register_fallback(void* ctx, kf_kernel_fn fn, uint32_t mask) noexcept {
  auto* self = static_cast<Registrar*>(ctx);
  return self->sticky([&] { self->set_fallback(fn, mask); });
}

void Registrar::warn(std::string message) {
  log().warn("plugin {}", message);
  warnings_.push_back(std::move(message));
}

void Registrar::add_op(const kf_op_definition_t& def) {
  OpDefinition d = check_definition(def, plugin_);
  for (const OpDefinition& o : ops_) {
    if (o.schema.name != d.schema.name) continue;
    if (o.schema.canonical == d.schema.canonical) return;  // defined twice alike: once
    fail(KF_ALREADY_EXISTS, "{}: op '{}' is defined twice with different schemas: '{}' at {} "
                            "and '{}'", d.provenance, d.schema.name, o.schema.canonical,
         o.provenance, d.schema.canonical);
  }
  if (const OpDef* existing = find_op(d.schema.name)) {
    if (existing->schema != d.schema.canonical) {
      fail(KF_ALREADY_EXISTS, "{}: op '{}' is already defined as '{}' ({}); this plugin defines "
                              "it as '{}'", d.provenance, d.schema.name, existing->schema,
           existing->provenance, d.schema.canonical);
    }
  }
  ops_.push_back(std::move(d));
}

void Registrar::set_fallback(kf_kernel_fn fn, uint32_t mask) {
  if (fn == nullptr) fail(KF_INVALID_ARGUMENT, "register_fallback: fn is NULL");
  if (fallback_) fail(KF_ALREADY_EXISTS, "register_fallback: plugin '{}' registers a second "
                                         "fallback; a backend has at most one", plugin_);
  check_mask(plugin_, "the fallback", mask);
  fallback_ = PendingFallback{fn, mask};
}

void Registrar::add_kernel(const kf_kernel_desc_t& desc) {
  const std::string where = fmt::format("{}: {}:{}", plugin_,
                                        desc.file != nullptr ? desc.file : "?", desc.line);
  const OpDef* def = find_op(desc.op_name);
  int32_t pending = -1;
  for (size_t i = 0; def == nullptr && i < ops_.size(); ++i) {
    if (ops_[i].schema.name == desc.op_name) pending = static_cast<int32_t>(i);
  }
  if (def == nullptr && pending < 0) {
    return warn(fmt::format("{}: unknown op '{}' skipped (built against a newer schema, or an "
                            "op of a plugin that is not loaded?)", where, desc.op_name));
  }
  const uint64_t hash = def != nullptr ? def->schema_hash : ops_[pending].schema.hash;
  if (desc.schema_hash != 0 && desc.schema_hash != hash) {
    return warn(fmt::format("{}: kernel for '{}' rejected: it was built for another signature "
                            "(schema hash {:016x}, this core has {:016x}: {})", where,
                            desc.op_name, desc.schema_hash, hash,
                            def != nullptr ? def->schema : ops_[pending].schema.canonical));
  }
  if (def != nullptr && def->kind == OpKind::View) {
    fail(KF_INVALID_ARGUMENT, "{}: '{}' is a view, computed in the core from the input's "
                              "metadata; a backend cannot register a kernel for it", where,
         def->name);
  }
  if (def != nullptr && def->kind == OpKind::Composite && def->meta == nullptr) {
    fail(KF_INVALID_ARGUMENT, "{}: '{}' is a composite without a meta rule in ops.yaml, so a "
                              "backend kernel cannot override it (the core could not allocate "
                              "its outputs); only composites with 'meta:' can be overridden",
         where, def->name);
  }
  check_mask(where, fmt::format("the kernel for '{}'", desc.op_name).c_str(), desc.dtype_mask);
  kernels_.push_back(PendingKernel{def, def != nullptr ? -1 : pending, desc, where});
}

// The id each pending op will have: an existing op's (defined alike before) or a new one.
std::vector<int32_t> Registrar::resolve_ops() const {
  std::vector<int32_t> ids;
  int32_t next = op_count();
  for (const OpDefinition& d : ops_) {
    const OpDef* existing = find_op(d.schema.name);
    if (existing != nullptr && existing->schema != d.schema.canonical) {
      fail(KF_ALREADY_EXISTS, "{}: op '{}' is already defined as '{}' ({})", d.provenance,
           d.schema.name, existing->schema, existing->provenance);
    }
    ids.push_back(existing != nullptr ? existing->id : next++);
  }
  if (next > kMaxOps) {
    fail(KF_OUT_OF_RANGE, "plugin '{}' defines {} ops: the registry holds at most {}", plugin_,
         ops_.size(), kMaxOps);
  }
  return ids;
}

// The new table entries of the plugin's (fresh) slot; throws on a conflict inside the plugin.
std::vector<std::pair<int32_t, KernelEntry>> Registrar::build_entries(
    const std::vector<int32_t>& ids, const Backend& backend) const {
  std::map<int32_t, KernelEntry> next;
  for (const PendingKernel& p : kernels_) {
    const int32_t op = p.def != nullptr ? p.def->id : ids[static_cast<size_t>(p.pending_op)];
    KernelEntry& e = next[op];
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      if ((p.desc.dtype_mask & (1u << d)) == 0) continue;
      if (e.fn[d] != nullptr) {
        fail(KF_ALREADY_EXISTS,
             "plugin '{}': kernel for op '{}' dtype {} at {} conflicts with the one registered "
             "at {}", backend.name, p.desc.op_name, dtype_name(static_cast<kf_dtype_t>(d)),
             p.provenance, e.provenance[d]);
      }
      e.fn[d] = p.desc.fn;
      e.flags[d] = p.desc.flags;
      e.provenance[d] = p.provenance.c_str();  // replaced by a kept copy when published
      e.dtype_mask |= 1u << d;
    }
  }
  return {next.begin(), next.end()};
}

// Appends the new ops and fills `slot` with the plugin's kernels and fallback.
void Registrar::publish_entries(const std::vector<int32_t>& ids,
                                std::vector<std::pair<int32_t, KernelEntry>>& entries,
                                const Backend& backend, int32_t slot) const {
  for (size_t i = 0; i < ops_.size(); ++i) {
    if (ids[i] >= op_count()) append_op(make_op(ops_[i], backend.plugin_state()));
  }
  for (auto& [op, entry] : entries) {
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      if (entry.provenance[d] != nullptr) entry.provenance[d] = keep_string(entry.provenance[d]);
    }
    publish_kernels(op, slot, new KernelEntry(entry));
  }
  if (fallback_) {
    publish_fallback(slot, new FallbackEntry{fallback_->fn, fallback_->dtype_mask,
                                             keep_string(plugin_ + ": fallback")});
  }
}

// Note [Slots are taken only by accepted plugins] (device/backend_registry.hpp): every check
// that can refuse the plugin runs before its slot is reserved; a failure after that (out of
// memory) empties the slot again and releases it.
void Registrar::commit(Backend& backend) {
  if (error_) throw Error(error_->first, error_->second);
  std::lock_guard<std::mutex> lock(registration_mutex());
  const std::vector<int32_t> ids = resolve_ops();
  std::vector<std::pair<int32_t, KernelEntry>> entries = build_entries(ids, backend);
  SlotReservation reservation(backend.name);
  try {
    publish_entries(ids, entries, backend, reservation.slot());
  } catch (...) {
    for (int32_t op = 0; op < kMaxOps; ++op) publish_kernels(op, reservation.slot(), nullptr);
    publish_fallback(reservation.slot(), nullptr);
    throw;
  }
  publish_backend(backend, reservation);
  next_registration_generation();
}

}  // namespace kf
