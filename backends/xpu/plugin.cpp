// plugin.cpp — the xpu backend's only exported symbol, kf_plugin_get: the slots of slots.cpp
// over the real Level Zero loader and the SPIR-V modules embedded at build time.
#include <cstdlib>

#include "clkernels/spirv_modules.hpp"
#include "kernforge/plugin_table.hpp"
#include "slots.hpp"

namespace kf::xpu {
namespace {

/// KERNFORGE_XPU_DEVICE, ignored in setuid and setgid processes as the core's variables are.
const char* device_filter() noexcept {
#if defined(__GLIBC__)
  return secure_getenv("KERNFORGE_XPU_DEVICE");
#else
  return std::getenv("KERNFORGE_XPU_DEVICE");
#endif
}

kf_status_t xpu_init(const kf_host_api_t* host, void** out_state) {
  ModuleLibrary library;
  library.find = &kf::clk::spirv_module;  // (key, fp64, size)
  library.count = kf::clk::spirv_module_count();
  return init_runtime(loader_api(), library, device_filter(), host, out_state);
}

/// The table: slots.cpp's over the real loader.
kf_plugin_t real_plugin() noexcept { return make_plugin(xpu_init); }

}  // namespace
}  // namespace kf::xpu

KF_PLUGIN_DEFINE(kf::xpu::real_plugin)
