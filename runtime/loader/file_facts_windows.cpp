// What a file is before the loader opens it, and the system's own DLL search, on Windows
// (os.hpp: inspect_file, read_regular_file, find_system_library). File permissions (ACLs) are not
// checked here (docs/loader.md); what is checked is that the file is a plain file on a disk: not a
// folder, not a device path (\\.\pipe\x, \\.\COM1), nothing a read could block on. A DLL that no
// search root holds is looked for where LOAD_LIBRARY_SEARCH_DEFAULT_DIRS would look, minus the
// folders the loader adds itself (its roots, searched before): the application's folder, then
// System32; never the current directory or PATH. Thread safety: no state.
#if defined(_WIN32)

#include "loader/os.hpp"

#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

namespace kf::os {
namespace {

namespace fs = std::filesystem;

std::string utf8(const fs::path& p) {
  const auto s = p.u8string();  // std::string in C++17
  return std::string(s.begin(), s.end());
}

bool is_device_path(const std::string& path) {
  return path.size() >= 4 && (path[0] == '\\' || path[0] == '/') &&
         (path[1] == '\\' || path[1] == '/') && path[2] == '.' &&
         (path[3] == '\\' || path[3] == '/');
}

// The folder of the running program (GetModuleFileNameW of the process), "" when unknown.
std::string program_folder() {
  std::wstring buf(32768, L'\0');
  const DWORD n = GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
  if (n == 0 || n >= buf.size()) return "";
  buf.resize(n);
  return utf8(fs::path(buf).parent_path());
}

std::string system_folder() {
  std::wstring buf(MAX_PATH, L'\0');
  const UINT n = GetSystemDirectoryW(buf.data(), static_cast<UINT>(buf.size()));
  if (n == 0 || n >= buf.size()) return "";
  buf.resize(n);
  return utf8(fs::path(buf));
}

}  // namespace

FileFacts inspect_file(const std::string& path) {
  FileFacts f;
  if (!is_absolute(path)) {
    f.missing = "'" + path + "' is not an absolute path";
    return f;
  }
  if (is_device_path(path)) {
    f.real = path;
    f.not_regular = "a device path";
    return f;
  }
  const DWORD attrs = GetFileAttributesW(fs::u8path(path).wstring().c_str());
  if (attrs == INVALID_FILE_ATTRIBUTES) {
    f.missing = path + " does not exist";
    return f;
  }
  const std::string real = real_path(path);
  f.real = real.empty() ? path : real;
  if ((attrs & FILE_ATTRIBUTE_DIRECTORY) != 0) f.not_regular = "a folder";
  if ((attrs & FILE_ATTRIBUTE_DEVICE) != 0) f.not_regular = "a device";
  return f;
}

FileFacts inspect_folder(const std::string& path) {
  FileFacts f;
  if (!is_absolute(path) || is_device_path(path)) {
    f.missing = "'" + path + "' is not an absolute path to a folder";
    return f;
  }
  const DWORD attrs = GetFileAttributesW(fs::u8path(path).wstring().c_str());
  if (attrs == INVALID_FILE_ATTRIBUTES) {
    f.missing = path + " does not exist";
    return f;
  }
  const std::string real = real_path(path);
  f.real = real.empty() ? path : real;
  if ((attrs & FILE_ATTRIBUTE_DIRECTORY) == 0) f.not_regular = "not a folder";
  return f;
}

FileText read_regular_file(const std::string& path, size_t limit, const FileIdentity*) {
  FileText r;
  if (is_device_path(path)) {
    r.error = path + " is a device path, not a file kernforge reads";
    return r;
  }
  const HANDLE h = CreateFileW(fs::u8path(path).wstring().c_str(), GENERIC_READ,
                               FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                               OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    const DWORD e = GetLastError();
    r.missing = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND;
    r.error = path + " cannot be opened (error " + std::to_string(e) + ")";
    return r;
  }
  if (GetFileType(h) != FILE_TYPE_DISK) {
    r.error = path + " is not a file on a disk, not a file kernforge reads";
  } else {
    // Note [Reading a file grows the buffer] (file_facts_posix.cpp): never sized by the limit.
    char piece[16 * 1024];
    while (r.text.size() < limit) {
      DWORD got = 0;
      const DWORD want = static_cast<DWORD>(std::min<size_t>(limit - r.text.size(), sizeof piece));
      if (!ReadFile(h, piece, want, &got, nullptr) || got == 0) break;
      r.text.append(piece, got);
    }
  }
  CloseHandle(h);
  return r;
}

SystemLibrary find_system_library(const std::string& soname) {
  SystemLibrary out;
  if (soname.empty() || soname.find_first_of("\\/:") != std::string::npos) return out;
  const std::pair<std::string, const char*> places[] = {
      {program_folder(), "the application's folder"}, {system_folder(), "System32"}};
  for (const auto& [folder, name] : places) {
    if (folder.empty()) continue;
    out.searched.push_back(folder);
    const fs::path candidate = fs::u8path(folder) / fs::u8path(soname);
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) {
      out.path = utf8(candidate);
      out.found_by = name;
      return out;
    }
  }
  return out;
}

}  // namespace kf::os

#endif  // _WIN32
