// ze_api_loader.cpp — the ZeApi table of the real Level Zero loader. The plugin links
// libze_loader.so.1, which its manifest preloads: on a machine without it the loader reports
// the plugin unavailable, naming the library, before the plugin is opened.
#include "ze_api.hpp"

namespace kf::xpu {

namespace {
ZeApi make_loader_api() noexcept {
  ZeApi api;
#define KF_XPU_ZE_REAL(name) api.name = &::name;
  KF_XPU_ZE_FUNCTIONS(KF_XPU_ZE_REAL)
#undef KF_XPU_ZE_REAL
  return api;
}
}  // namespace

const ZeApi& loader_api() noexcept {
  static const ZeApi api = make_loader_api();
  return api;
}

}  // namespace kf::xpu
