#include "dispatch/registrar.hpp"

#include "core/error.hpp"
#include "core/logging.hpp"

namespace kf {

Registrar::Registrar(Backend& backend) : backend_(backend) {
  c_.struct_size = sizeof(c_);
  c_.ctx = this;
  c_.register_kernel = &Registrar::register_kernel;
}

kf_status_t Registrar::register_kernel(void* ctx, const kf_kernel_desc_t* desc) noexcept {
  return guard([&] {
    if (desc == nullptr || desc->struct_size < sizeof(kf_kernel_desc_t) ||
        desc->op_name == nullptr || desc->fn == nullptr) {
      fail(KF_INVALID_ARGUMENT, "register_kernel: the descriptor is NULL, too small or lacks "
                                "op_name/fn");
    }
    static_cast<Registrar*>(ctx)->add(*desc);
  });
}

void Registrar::add(const kf_kernel_desc_t& desc) {
  const std::string where = fmt::format("{}: {}:{}", backend_.name,
                                        desc.file != nullptr ? desc.file : "?", desc.line);
  const OpDef* def = find_op(desc.op_name);
  if (def == nullptr) {
    warnings_.push_back(fmt::format("{}: unknown op '{}' skipped (built against a newer schema?)",
                                    where, desc.op_name));
    log().warn("plugin {}", warnings_.back());
    return;
  }
  if (desc.schema_hash != 0 && desc.schema_hash != def->schema_hash) {
    warnings_.push_back(fmt::format("{}: kernel for '{}' rejected: it was built for another "
                                    "signature (schema hash {:016x}, this core has {:016x}: {})",
                                    where, def->name, desc.schema_hash, def->schema_hash,
                                    def->schema));
    log().warn("plugin {}", warnings_.back());
    return;
  }
  if (def->kind != OpKind::Kernel) {
    warnings_.push_back(fmt::format("{}: kernel for '{}' ignored: it is a {} op computed in the "
                                    "core", where, def->name,
                                    def->kind == OpKind::View ? "view" : "composite"));
    log().info("plugin {}", warnings_.back());
    return;
  }
  if ((desc.dtype_mask & ~((1u << KF_DTYPE_COUNT) - 1u)) != 0 || desc.dtype_mask == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: kernel for '{}' has an invalid dtype mask 0x{:x}", where,
         def->name, desc.dtype_mask);
  }
  pending_.push_back(PendingKernel{def->id, desc, where});
}

void Registrar::commit(int32_t slot) {
  commit_kernels(backend_, slot, pending_.data(), pending_.size());
}

}  // namespace kf
