// A plugin manifest (docs/loader.md), parsed strictly with nlohmann-json: an unknown
// manifest_version, a missing field, a wrong type, a key given twice in any object, an unknown key
// in "requires", a malformed driver gate or a dependency named by anything but a bare soname is
// rejected naming the file and the field. Thread safety: no state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kf {

struct PreloadEntry {
  std::string soname;
  std::vector<std::string> folders;
  bool required = true;
};

/// One thing whose presence tells that a plugin's device can be there (the availability gate,
/// "requires": {"driver": ...}, docs/loader.md): a library by soname, a file or device node by
/// path, or a folder holding an entry whose name ends with `suffix` (an OpenCL ICD file).
struct DriverProbe {
  enum class Kind { library, path, folder };
  Kind kind = Kind::library;
  std::string value;   // a bare soname, or a path that may hold $ORIGIN, $VAR and ${VAR}
  std::string suffix;  // folder only: "" means any entry
};

/// "requires": {"driver": {"any_of": [...], "install": "..."}}: at least one probe must hold,
/// else the plugin is unavailable and nothing of it is loaded (loader/driver_gate.hpp).
struct DriverGate {
  std::vector<DriverProbe> any_of;  // empty: no gate
  std::string install;              // what to install when none holds
};

struct Manifest {
  std::string path;        // absolute path of the .json
  // "device" (a backend: kernforge/plugin.h) or "collective" (kernforge/collective.h), which
  // needs "manifest_version": 2, so that a loader that knows only devices refuses it.
  std::string kind = "device";
  std::string dir;         // its folder
  std::string name;
  std::string library;     // file name or absolute path of the plugin library
  int32_t abi_major = 0;
  int32_t abi_minor = 0;
  std::string device_type;
  int32_t priority = 0;
  bool first_use = false;  // "activation": "first_use" (core/first_use.hpp)
  std::string requires_os;
  std::string requires_arch;
  std::string requires_kernforge;  // the exact core version it was built with ("": any)
  std::vector<std::string> cpu_features;
  DriverGate driver;
  std::vector<std::string> global_deps;
  std::vector<PreloadEntry> preload;
  std::vector<std::string> search;

  /// Absolute path of the plugin library.
  std::string library_path() const;
};

constexpr size_t kMaxManifestBytes = 64 * 1024;
/// Deepest nesting of arrays and objects accepted (a manifest needs 3).
constexpr int kMaxManifestDepth = 16;

/// Reads (a regular file only, without blocking or following a final symbolic link:
/// os::read_regular_file) and validates a manifest; throws kf::Error naming file and field,
/// KF_NOT_FOUND when there is no such file, else KF_INVALID_ARGUMENT. The loader itself reads
/// manifests in manifest_step.cpp, after security.hpp's check.
Manifest parse_manifest_file(const std::string& path);
/// Parses manifest text (for tests and fuzzing); `path` is used in messages.
Manifest parse_manifest_text(const std::string& text, const std::string& path);

}  // namespace kf
