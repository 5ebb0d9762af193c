// The one check every file the loader opens goes through (docs/loader.md, "Security"): plugin
// manifests, plugin libraries, their global_deps and preload libraries, and the core's own
// libkernforge_global_deps. A file is trusted when
//   - it exists and is a regular file: never a FIFO, a device or a folder (this is never waived,
//     and it is decided before anything is opened, so nothing can block start-up);
//   - its path, resolved one component at a time, passes only through folders that no one but
//     root and this process's user may change: no folder on the way (those of symbolic links and
//     of their targets, up to /) is writable by others without the sticky bit, the file itself is
//     not writable by others, and none of them, links included, is owned by a user who is neither
//     root nor this process's effective user (os::inspect_file; Windows: ACLs are not read).
// KERNFORGE_ALLOW_INSECURE_PLUGINS=1 waives the second rule only (with a warning in the log).
// What is then opened is the real path the check ended at. Thread safety: no state.
#pragma once

#include <string>

#include "kernforge/kernforge.h"
#include "loader/os.hpp"

namespace kf {

/// A file the loader may open, or why it may not.
struct TrustedFile {
  std::string real;            // the real path: what is opened and reported ("" when missing)
  os::FileIdentity identity;   // the file that was checked (os::read_regular_file compares it)
  kf_status_t status = KF_OK;  // KF_NOT_FOUND, KF_INVALID_ARGUMENT (not a regular file) or
                               // KF_PERMISSION_DENIED (another user could replace it)
  std::string why;             // when status != KF_OK: what is wrong and what to do
  bool ok() const { return status == KF_OK; }
};

/// Checks `path` (absolute) before it is opened; `what` names the file in messages ("manifest",
/// "plugin library", "dependency libfoo.so.1").
TrustedFile trust_file(const std::string& path, const std::string& what);

/// The same rules for the files kernforge keeps itself (the plugins' file stores,
/// loader/plugin_store.hpp), without the waiver: no variable makes such a file trusted.
TrustedFile trust_own_file(const std::string& path, const std::string& what);
/// The same rules for a folder (os::inspect_folder): the folder itself, too, must be one that
/// no one but root and this user may change. KF_INVALID_ARGUMENT when it is not a folder.
TrustedFile trust_own_folder(const std::string& path, const std::string& what);

}  // namespace kf
