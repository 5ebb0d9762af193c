// What the loader needs from the operating system, in one place: opening libraries with the
// flags of the load order (docs/loader.md), finding the entry symbol, the core's own location,
// libraries already loaded, the system's own library search and what a file is before it is
// opened (environment variables are read in core/environment.hpp). Two implementations:
// os_posix.cpp with file_facts_posix.cpp and ld_so_cache.cpp (dlopen through Boost.DLL, dlopen
// RTLD_NOLOAD + dlinfo, lstat) and os_windows.cpp (LoadLibraryExW with the search flags,
// AddDllDirectory, SetErrorMode, GetModuleHandleW, GetModuleFileNameW). Everything above this file is the same on both systems.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kf::os {

/// An opened library. Never closed: plugins and their dependencies live for the process.
struct Library;

struct OpenResult {
  Library* library = nullptr;  // null on failure
  std::string error;           // the system's text (dlerror(), FormatMessageW) naming the file
};

/// Opens `path` resolving every symbol now. `path` is absolute, or a bare file name for the
/// system's own search (ld.so.cache and LD_LIBRARY_PATH; Windows: the default DLL directories). `global`: RTLD_GLOBAL (POSIX; Windows
/// has no such notion). On Windows the library's own folder and the folders given to
/// add_library_directory() are searched for its dependencies, and no error dialog is shown.
OpenResult open_library(const std::string& path, bool global);
/// When `path` cannot be a library for this process, why, read from its header: empty, not an
/// ELF/PE file, or built for another machine or word size. "" when the header looks right. The
/// dynamic loader's own text for such files is often misleading ("No such file" for an ELF of
/// another architecture), so the loader adds this to it.
std::string diagnose_library_file(const std::string& path);
/// The address of exported symbol `name`, or null.
void* find_symbol(Library* library, const char* name);

/// Absolute, symlink-free path of the core library (libkernforge.so / kernforge.dll).
std::string core_library_path();
/// Canonical path (symlinks resolved), or "" when the file does not exist.
std::string real_path(const std::string& path);
/// When a library answering to `soname` is already loaded in this process, the canonical path
/// of the live copy; otherwise "". The system's dynamic loader decides, so the name matches the
/// way a DT_NEEDED entry or a dlopen of that name would: on POSIX a library's DT_SONAME, whatever
/// its file is called (`libgomp.so.1` finds `.../libgomp.so.1.0.0`), or a name it was opened by;
/// on Windows the DLL's module name (GetModuleHandleW). Loads, maps and runs nothing, and leaves
/// the library's reference count as it was. "" for an empty name or, on POSIX, one holding a
/// '/' (a path, not an soname: the current directory is never consulted).
std::string loaded_library_path(const std::string& soname);
/// Windows: AddDllDirectory(dir) once per folder, so a plugin's dependencies resolve from its
/// search roots. POSIX: nothing (dependencies are preloaded by absolute path instead).
void add_library_directory(const std::string& dir);

/// The paths (folder/name) of the entries of `folder`, "." and ".." left out, in the order the
/// system gives; empty when it cannot be read. Out of memory throws std::bad_alloc (POSIX reads
/// the folder with opendir: GCC 12's std::filesystem::directory_iterator calls std::terminate
/// when an allocation fails inside it).
std::vector<std::string> folder_entries(const std::string& folder);

/// Whether `path` is absolute on this system ("/x"; "C:\x", "C:/x" or "\\server\x").
bool is_absolute(const std::string& path);
/// The separator of path lists in variables: ':' (POSIX) or ';' (Windows).
char path_list_separator();

/// Which file a path names, so that the file opened can be compared with the file checked.
struct FileIdentity {
  unsigned long long device = 0;  // st_dev (0 on Windows: not compared there)
  unsigned long long inode = 0;   // st_ino
};

/// What the loader knows of a file before it opens it (security.hpp decides what to do).
struct FileFacts {
  std::string real;         // canonical path, symlinks resolved; "" when it does not exist
  std::string missing;      // why it does not exist (names the path), "" when it does
  std::string not_regular;  // "a FIFO", "a folder", ... when it is not a regular file, else ""
  std::string insecure;     // the first reason another user could replace it, "" when none
  FileIdentity identity;
};

/// Resolves `path` (absolute) component by component with lstat/readlink, opening nothing, and
/// looks at every folder the resolution passes through (the folders of symbolic links and of
/// their targets alike), every symbolic link and the file it ends at. `insecure` says why the
/// first of them is unsafe: a folder writable by others without the sticky bit, a file writable
/// by others, or any of them owned by a user who is neither root nor this process's effective
/// user (the rule sshd applies to authorized_keys). Windows: `insecure` is always "" (ACLs are
/// not checked; see docs/loader.md) and device paths (\\.\...) are not regular files.
FileFacts inspect_file(const std::string& path);
/// The same walk for a folder (the plugin file stores, loader/plugin_store.hpp): `not_regular`
/// says what it is when it is not a folder ("a file", "a FIFO", ...), and `insecure` also
/// covers the folder itself (writable by others without the sticky bit, or a foreign owner).
FileFacts inspect_folder(const std::string& path);
/// A file's text, or why it could not be read.
struct FileText {
  std::string text;
  std::string error;     // "" when read; else names the path and the reason
  bool missing = false;  // the file does not exist
};
/// Reads regular file `path` without blocking and without following a final symbolic link
/// (POSIX: open O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, then fstat of the descriptor),
/// at most `limit` bytes. When `expected` is given, the file opened must be that one.
FileText read_regular_file(const std::string& path, size_t limit,
                           const FileIdentity* expected = nullptr);

/// Where the system's own library search finds `soname`, looked up without loading anything
/// and never in the current directory (Note [The system search] in os_posix.cpp; Windows: the
/// application's folder and System32, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS without the folders the
/// loader adds itself).
struct SystemLibrary {
  std::string path;                   // absolute, "" when not found
  std::string found_by;               // where: "LD_LIBRARY_PATH", "ld.so.cache", ...
  std::vector<std::string> searched;  // every place looked in, in order
  std::vector<std::string> dropped;   // "entry: why" for each place left out
};
SystemLibrary find_system_library(const std::string& soname);

}  // namespace kf::os
