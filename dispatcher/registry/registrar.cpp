#include "registry/registrar.hpp"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

constexpr uint32_t kAllDtypeBits = (1u << KF_DTYPE_COUNT) - 1u;
constexpr size_t kMinOpDefinition = offsetof(kf_op_definition_t, line) + sizeof(int32_t);

// A copy of `s` that `kept` owns until the commit publishes it; then it lives for the process.
const char* keep_string(const char* s, std::vector<std::unique_ptr<char[]>>& kept) {
  const size_t n = std::strlen(s) + 1;
  kept.push_back(nullptr);  // room first: the copy is never left unowned
  kept.back().reset(new char[n]);
  std::memcpy(kept.back().get(), s, n);
  return kept.back().get();
}

void check_mask(const std::string& where, const char* what, uint32_t mask) {
  if ((mask & ~kAllDtypeBits) != 0 || mask == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: {} has an invalid dtype mask 0x{:x}", where, what, mask);
  }
}

}  // namespace

Registrar::Registrar(std::string plugin, const BackwardPort* backward)
    : plugin_(std::move(plugin)), backward_port_(backward) {
  c_.struct_size = sizeof(c_);
  c_.ctx = this;
  c_.register_kernel = &Registrar::register_kernel;
  c_.define_op = &Registrar::define_op;
  c_.register_fallback = &Registrar::register_fallback;
}

template <class F>
kf_status_t Registrar::sticky(F&& fn) noexcept {
  const kf_status_t s = guard(fn);
  if (s != KF_OK && error_status_ == KF_OK) {
    error_status_ = s;  // kept even when there is no memory left for the message
    try {
      error_message_ = last_error();
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
  if (!d.formulas.empty() || d.callback != nullptr) {
    if (backward_port_ == nullptr) {
      fail(KF_UNIMPLEMENTED, "{}: op '{}' has a backward, and this registrar cannot take one",
           d.provenance, d.schema.name);
    }
    d.backward = backward_port_->compile(d, ops_);
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

// Note [A commit publishes nothing until it cannot fail]
// Everything a commit allocates (the definitions of new ops, the kernel entries, the fallback,
// the kept provenance strings) is made first and owned by Staged, which frees all of it if
// anything fails: a conflict, or memory running out. Only then is the slot assigned and all of
// it published, with stores that cannot fail. So a failed commit leaves the registry, the
// dispatch table and the slots as they were, and the plugin can be shut down safely (no op keeps
// its state, no kernel of it is reachable).
struct Registrar::Staged {
  std::vector<std::unique_ptr<char[]>> strings;
  std::vector<std::unique_ptr<DefinedOp>> ops;  // the new ops, in id order
  std::vector<std::pair<int32_t, std::unique_ptr<KernelEntry>>> entries;
  std::unique_ptr<FallbackEntry> fallback;
};

Registrar::Staged Registrar::stage(const std::vector<int32_t>& ids, Backend& backend) const {
  Staged st;
  for (size_t i = 0; i < ops_.size(); ++i) {
    if (ids[i] >= op_count()) st.ops.push_back(make_op(ops_[i], backend.plugin_state()));
  }
  for (auto& [op, entry] : build_entries(ids, backend)) {
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      if (entry.provenance[d] != nullptr) {
        entry.provenance[d] = keep_string(entry.provenance[d], st.strings);
      }
    }
    st.entries.emplace_back(op, std::make_unique<KernelEntry>(entry));
  }
  if (fallback_) {
    const std::string provenance = plugin_ + ": fallback";
    st.fallback = std::make_unique<FallbackEntry>(FallbackEntry{
        fallback_->fn, fallback_->dtype_mask, keep_string(provenance.c_str(), st.strings)});
  }
  return st;
}

// Note [Slots are taken only by accepted plugins] (device/backend_registry.hpp): every check
// that can refuse the plugin, and every allocation, runs before its slot is reserved; the
// reservation is committed with the backend's publication.
void Registrar::commit(Backend& backend) {
  if (error_status_ != KF_OK) throw Error(error_status_, error_message_);
  std::lock_guard<std::mutex> lock(registration_mutex());
  const std::vector<int32_t> ids = resolve_ops();
  Staged st = stage(ids, backend);
  SlotReservation reservation(backend.name);
  const int32_t slot = reservation.slot();
  // From here on nothing can fail (Note [A commit publishes nothing until it cannot fail]).
  for (std::unique_ptr<DefinedOp>& op : st.ops) {
    DefinedOp* kept = op.release();
    // The backward first, under the id the op gets next: a caller that finds the op finds it.
    if (kept->backward) backward_port_->publish(op_count(), kept->backward.get());
    append_op(&kept->def);
  }
  for (auto& [op, entry] : st.entries) publish_kernels(op, slot, entry.release());
  if (st.fallback) publish_fallback(slot, st.fallback.release());
  for (std::unique_ptr<char[]>& kept : st.strings) (void)kept.release();  // process lifetime
  publish_backend(backend, reservation);
  next_registration_generation();
}

}  // namespace kf
