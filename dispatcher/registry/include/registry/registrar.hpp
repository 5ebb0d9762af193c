// The registrar handed to a plugin's register_kernels: it buffers the plugin's op definitions,
// kernels and fallback, and commits them as one transaction. Unknown op names (a plugin built
// against a newer schema) are skipped with a warning; a kernel built for another signature
// (schema hash) is skipped with a warning; anything else that is wrong (a bad descriptor, a
// kernel for a view or for a composite without a meta rule, a bad definition, a conflict) rejects
// the whole plugin: the first such error is kept and commit() throws it even when the plugin
// ignored the status it got.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "device/backend.hpp"
#include "kernforge/plugin.h"
#include "registry/backward_port.hpp"
#include "registry/defined_op.hpp"
#include "registry/kernel_table.hpp"

namespace kf {

class Registrar {
 public:
  /// `plugin`: the plugin's name, for provenance and messages. `backward`: how the backward
  /// of a defined op is checked and published (Note [The backward port]); without it a
  /// definition with a backward is refused.
  explicit Registrar(std::string plugin, const BackwardPort* backward = nullptr);
  const kf_registrar_t* c_api() const noexcept { return &c_; }

  /// Publishes everything buffered: the defined ops, then `backend`'s slot (reserved here)
  /// with its kernels and fallback, then the backend itself (publish_backend). Throws, having
  /// taken no slot and published no backend, on any error.
  void commit(Backend& backend);

  const std::vector<std::string>& warnings() const noexcept { return warnings_; }
  size_t kernel_count() const noexcept { return kernels_.size(); }
  size_t defined_op_count() const noexcept { return ops_.size(); }

 private:
  struct PendingKernel {
    const OpDef* def;      // an op of the registry, or
    int32_t pending_op;    // an index into ops_ (-1 when def is set)
    kf_kernel_desc_t desc;
    std::string provenance;
  };
  struct PendingFallback {
    kf_kernel_fn fn;
    uint32_t dtype_mask;
  };

  static kf_status_t register_kernel(void* ctx, const kf_kernel_desc_t* desc) noexcept;
  static kf_status_t define_op(void* ctx, const kf_op_definition_t* def) noexcept;
  static kf_status_t register_fallback(void* ctx, kf_kernel_fn fn, uint32_t mask) noexcept;
  template <class F>
  kf_status_t sticky(F&& fn) noexcept;

  void add_kernel(const kf_kernel_desc_t& desc);
  void add_op(const kf_op_definition_t& def);
  void set_fallback(kf_kernel_fn fn, uint32_t mask);
  void warn(std::string message);
  std::vector<int32_t> resolve_ops() const;
  std::vector<std::pair<int32_t, KernelEntry>> build_entries(const std::vector<int32_t>& ids,
                                                             const Backend& backend) const;
  struct Staged;
  Staged stage(const std::vector<int32_t>& ids, Backend& backend) const;

  std::string plugin_;
  const BackwardPort* backward_port_;
  kf_registrar_t c_{};
  std::vector<OpDefinition> ops_;
  std::vector<PendingKernel> kernels_;
  std::optional<PendingFallback> fallback_;
  std::vector<std::string> warnings_;
  kf_status_t error_status_ = KF_OK;  // the first error, kept (its status even without memory)
  std::string error_message_;
};

}  // namespace kf
