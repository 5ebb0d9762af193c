// Where a plugin's dependencies are looked up (step 4 of the load order, docs/loader.md): the
// manifest's "search" entries in order, with $ORIGIN (the manifest's folder), $VARIABLE /
// ${VARIABLE} (read with secure_getenv) and {folder} (each of the entry's "folders", in order)
// expanded, then the Python wheel layout <root>/nvidia/<folder>/lib under every library root the
// frontend passed (kf_init_options_t.library_roots). Entries that are not absolute after expansion,
// or that name an unset variable, are dropped and said so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loader/manifest.hpp"

namespace kf {

struct SearchRoots {
  std::vector<std::string> folders;  // absolute, without duplicates, in search order
  std::vector<std::string> dropped;  // "entry: why" for each entry left out
};

SearchRoots dependency_roots(const Manifest& m, const std::vector<std::string>& folders);

/// `entry` with $ORIGIN (the manifest's folder), $VARIABLE and ${VARIABLE} expanded, as for a
/// "search" entry; nullopt with `why` when a variable is unset or empty (the driver gate's paths).
std::optional<std::string> expand_manifest_path(const std::string& entry, const Manifest& m,
                                                std::string& why);

/// The library roots from kf_init (Python site-packages folders); set before start-up.
void set_library_roots(std::vector<std::string> roots);
const std::vector<std::string>& library_roots();

/// The file for `soname` in `folder`: the exact name, else the highest version among
/// "<soname>.<digits...>" (sorted by version, so the choice does not depend on the directory's
/// order); "" when there is none.
std::string find_in_folder(const std::string& folder, const std::string& soname);

}  // namespace kf
