// test_manifests.hpp — plugin folders for the loader tests: a valid manifest for a fault
// plugin variant, writing manifests, and staging a variant (library + manifest) or a fake library
// under a plugin's name into a folder.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "kernforge/plugin.h"
#include "test_files.hpp"

namespace loader_test {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ------------------------------------------------------------------ manifests

/// A valid manifest for fault plugin `variant` (name "fault_<variant>", its library in $ORIGIN).
inline json manifest_for(const std::string& variant) {
  return json{{"manifest_version", 1},
              {"name", "fault_" + variant},
              {"library", plugin_file_name(variant)},
              {"version", "0.0.1"},
              {"abi", {KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR}},
              {"device_type", variant == "cpu_conflict"      ? "cpu"
                              : variant == "define_conflict" ? "faultdev2"
                                                             : "faultdev"},
              {"priority", 10},
              {"global_deps", json::array()},
              {"preload", json::array()},
              {"search", {"$ORIGIN"}}};
}

/// Writes `manifest` to folder/<name>.json and returns its path.
inline fs::path write_manifest(const fs::path& folder, const json& manifest) {
  const fs::path path = folder / (manifest.at("name").get<std::string>() + ".json");
  write_file(path, manifest.dump(2));
  return path;
}

struct Staged {
  fs::path folder;
  fs::path library;
  fs::path manifest;
};

/// Copies fault plugin `variant` into `folder` (created if needed) under the manifest's library
/// name and writes the manifest next to it.
inline Staged stage(const fs::path& folder, const std::string& variant,
                    const json& manifest) {
  fs::create_directories(folder);
  Staged s;
  s.folder = fs::canonical(folder);
  s.library = s.folder / manifest.at("library").get<std::string>();
  fs::copy_file(built_plugin(variant), s.library, fs::copy_options::overwrite_existing);
  s.manifest = write_manifest(s.folder, manifest);
  return s;
}

inline Staged stage(const fs::path& folder, const std::string& variant) {
  return stage(folder, variant, manifest_for(variant));
}

/// A manifest for `variant` and, under its library name, a file with `content` (not a plugin).
inline Staged stage_fake_library(const fs::path& folder, const std::string& variant,
                                 const std::string& content) {
  fs::create_directories(folder);
  Staged s;
  s.folder = fs::canonical(folder);
  s.library = s.folder / plugin_file_name(variant);
  write_file(s.library, content);
  s.manifest = write_manifest(s.folder, manifest_for(variant));
  return s;
}

}  // namespace loader_test
