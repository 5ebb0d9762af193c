// What the loader needs from the operating system, in one place: opening libraries with the
// flags of the load order (docs/loader.md), finding the entry symbol, the core's own location,
// libraries already loaded and file ownership checks (environment variables are read in
// core/environment.hpp). Two implementations: os_posix.cpp (dlopen through Boost.DLL, dlopen
// RTLD_NOLOAD + dlinfo, stat) and os_windows.cpp (LoadLibraryExW with the search flags,
// AddDllDirectory, SetErrorMode, GetModuleHandleW, GetModuleFileNameW). Everything above this file is the same on both systems.
#pragma once

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
/// Why a plugin file or folder must not be trusted ("" when it may): world-writable, or owned
/// by another user who is not root. Windows: "" (its ACLs are not checked; see docs/loader.md).
std::string insecure_reason(const std::string& path);

}  // namespace kf::os
