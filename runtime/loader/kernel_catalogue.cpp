#include "loader/kernel_catalogue.hpp"

namespace kf {
namespace {

using Entries = std::vector<CatalogueEntry>;

// The callbacks run inside the plugin's register_kernels: nothing may throw across the ABI, so
// running out of host memory is KF_OUT_OF_MEMORY (and the list is dropped).
kf_status_t record_kernel(void* ctx, const kf_kernel_desc_t* desc) noexcept {
  if (desc == nullptr || desc->op_name == nullptr) return KF_INVALID_ARGUMENT;
  auto& entries = *static_cast<Entries*>(ctx);
  for (CatalogueEntry& e : entries) {
    if (!e.fallback && e.op == desc->op_name) {
      e.dtype_mask |= desc->dtype_mask;
      return KF_OK;
    }
  }
  try {
    entries.push_back(CatalogueEntry{desc->op_name, desc->dtype_mask, false});
  } catch (...) {
    return KF_OUT_OF_MEMORY;
  }
  return KF_OK;
}

// A plugin-defined op is not listed (the schema has no such op here to show it against).
kf_status_t skip_definition(void*, const kf_op_definition_t*) noexcept { return KF_OK; }

kf_status_t record_fallback(void* ctx, kf_kernel_fn, uint32_t dtype_mask) noexcept {
  try {
    static_cast<Entries*>(ctx)->push_back(CatalogueEntry{"*", dtype_mask, true});
  } catch (...) {
    return KF_OUT_OF_MEMORY;
  }
  return KF_OK;
}

}  // namespace

std::vector<CatalogueEntry> list_catalogue(const kf_plugin_t& plugin) {
  Entries entries;
  if (plugin.abi_minor < 2 || plugin.register_kernels == nullptr) return entries;
  kf_registrar_t reg{};
  reg.struct_size = sizeof reg;
  reg.ctx = &entries;
  reg.register_kernel = record_kernel;
  reg.define_op = skip_definition;
  reg.register_fallback = record_fallback;
  try {
    if (plugin.register_kernels(nullptr, &reg) != KF_OK) entries.clear();
  } catch (...) {  // thrown by the plugin across the ABI: no list
    entries.clear();
  }
  return entries;
}

}  // namespace kf
