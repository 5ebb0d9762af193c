// private_files.hpp — the file operations of the plugins' file stores (plugin_store.hpp) on
// the operating system: folders made for this user alone, a trusted file read whole without
// blocking, and a file replaced whole through a new file of an unpredictable name. The trust
// checks themselves are security.hpp's (trust_own_file, trust_own_folder); these functions do
// what is done once a path has passed them. POSIX: private_files_posix.cpp; Windows:
// private_files_windows.cpp (not supported there yet: every call fails, saying so).
// Thread safety: no state.
#pragma once

#include <cstddef>
#include <string>

#include "kernforge/kernforge.h"
#include "loader/os.hpp"

namespace kf::os {

/// Makes every missing folder of `path` (absolute), each with mode 0700; folders that exist
/// are left as they are (trust_own_folder judges them). "" when done, else why not.
std::string make_private_folders(const std::string& path);

/// What read_file_into did.
struct FileRead {
  kf_status_t status = KF_OK;  // KF_OK; KF_BUFFER_TOO_SMALL (the file has `size` bytes);
                               // KF_NOT_FOUND; KF_INVALID_ARGUMENT (not the file checked)
  size_t size = 0;             // bytes read, or the file's size when the buffer is too small
  std::string error;           // when status != KF_OK: the path and the reason
};
/// Reads regular file `path`, which must be the one `expected` names, whole into `buf` (`cap`
/// bytes): opened O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, then fstat of the descriptor.
FileRead read_file_into(const std::string& path, const FileIdentity& expected, void* buf,
                        size_t cap);

/// Writes `size` bytes of `data` to a new file in `folder` (a real path, trusted), then renames
/// it to `name` there, so that a reader sees the old file or the new one, never a part. The new
/// file is created O_CREAT | O_EXCL | O_NOFOLLOW with mode 0600 under the name
/// ".<name>.<16 random hex digits>" (getrandom), so no one can guess it in advance or have made
/// it; on any failure it is removed. "" when done, else why not.
std::string replace_file(const std::string& folder, const std::string& name, const void* data,
                         size_t size);

}  // namespace kf::os
