// kf_plugin_manifest_check: the loader's manifest rules for whoever writes a manifest (the SDK's
// kernforge_add_plugin, through `kernforge check-manifest`), so that a manifest the loader
// would refuse fails its build, not its first load. Nothing is started or loaded.
#include <string>

#include "core/error.hpp"
#include "kernforge/kernforge.h"
#include "loader/manifest.hpp"
#include "loader/os.hpp"

extern "C" {

KF_API kf_status_t kf_plugin_manifest_check(const char* path) {
  return kf::guard([&] {
    if (path == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_plugin_manifest_check: path is NULL");
    if (!kf::os::is_absolute(path)) {
      kf::fail(KF_INVALID_ARGUMENT,
               "kf_plugin_manifest_check: '{}' is not an absolute path; give the manifest's "
               "absolute path", path);
    }
    (void)kf::parse_manifest_file(path);
  });
}

}  // extern "C"
