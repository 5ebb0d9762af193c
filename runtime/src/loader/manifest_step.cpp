#include "loader/manifest_step.hpp"

#include <fmt/format.h>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "kernforge/plugin.h"
#include "loader/dependencies.hpp"
#include "loader/manifest.hpp"
#include "loader/step_record.hpp"
#include "loader/requirements.hpp"
#include "loader/security.hpp"

namespace kf {
namespace {

// Everything that needs no file but the manifest: disabled, requires, the declared ABI.
bool check_declared(PluginRecord& b, const Manifest& m) {
  StepTimer t;
  if (env::plugin_disabled(m.name)) {
    return fail_step(b, "requires", m.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                     "disabled by KERNFORGE_DISABLE_PLUGINS; remove '" + m.name +
                         "' from it to load this plugin", t);
  }
  if (const std::string unmet = unmet_requirements(m); !unmet.empty()) {
    return fail_step(b, "requires", m.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                     unmet + " (nothing was opened)", t);
  }
  if (m.abi_major != KF_PLUGIN_ABI_MAJOR) {
    return fail_step(b, "abi", m.path, KF_BACKEND_REJECTED, KF_ABI_MISMATCH,
                     fmt::format("manifest {} declares plugin ABI {}.{}; this kernforge speaks "
                                 "{}.{}. Install a build of the plugin for this kernforge",
                                 m.path, m.abi_major, m.abi_minor, KF_PLUGIN_ABI_MAJOR,
                                 KF_PLUGIN_ABI_MINOR), t);
  }
  return true;
}

}  // namespace

bool apply_manifest(PluginRecord& b, const std::string& manifest_path) {
  StepTimer t;
  Manifest m;
  try {
    m = parse_manifest_file(manifest_path);
  } catch (const Error& e) {
    return fail_step(b, "manifest", manifest_path,
                     e.status() == KF_NOT_FOUND ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED,
                     e.status(), e.what(), t);
  }
  b.name = m.name;
  b.device_type_name = m.device_type;
  b.priority = m.priority;
  b.library_path = m.library_path();
  step(b, "manifest", manifest_path, "ok", "", t);
  if (!check_declared(b, m)) return false;
  StepTimer st;
  if (std::string why = untrusted_files({manifest_path}); !why.empty()) {
    return fail_step(b, "security", manifest_path, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED,
                     std::move(why), st);
  }
  LoadFailure failure;
  if (!load_dependencies(b, m, failure)) {
    set_state(b, failure.state, "plugin " + b.library_path + ": " + failure.reason,
              failure.status);
    return false;
  }
  return true;
}

}  // namespace kf
