// Reading a manifest file (manifest.hpp) through the loader's operating-system layer: without
// blocking and only when it is a regular file. Kept apart from manifest.cpp, which the manifest
// fuzz target compiles on its own.
#include "loader/manifest.hpp"

#include "core/error.hpp"
#include "loader/os.hpp"

namespace kf {

Manifest parse_manifest_file(const std::string& path) {
  const os::FileText f = os::read_regular_file(path, kMaxManifestBytes + 1);
  if (!f.error.empty()) {
    fail(f.missing ? KF_NOT_FOUND : KF_INVALID_ARGUMENT, "manifest {}: {}", path, f.error);
  }
  return parse_manifest_text(f.text, path);
}

}  // namespace kf
