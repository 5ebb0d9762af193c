// The registrar handed to a plugin's register_kernels: it buffers the plugin's registrations
// and commits them as one transaction (DESIGN section 5). Unknown op names (a plugin built
// against a newer schema) are skipped with a warning; a schema-hash mismatch rejects that
// kernel with a warning; a conflict rejects the whole plugin.
#pragma once

#include <string>
#include <vector>

#include "dispatch/kernel_table.hpp"
#include "kernforge/plugin.h"

namespace kf {

class Registrar {
 public:
  explicit Registrar(Backend& backend);
  const kf_registrar_t* c_api() const noexcept { return &c_; }
  /// Publishes everything buffered into the backend's slot (throws on conflict).
  void commit(int32_t slot);
  const std::vector<std::string>& warnings() const noexcept { return warnings_; }
  size_t kernel_count() const noexcept { return pending_.size(); }

 private:
  static kf_status_t register_kernel(void* ctx, const kf_kernel_desc_t* desc) noexcept;
  void add(const kf_kernel_desc_t& desc);

  Backend& backend_;
  kf_registrar_t c_{};
  std::vector<PendingKernel> pending_;
  std::vector<std::string> warnings_;
};

}  // namespace kf
