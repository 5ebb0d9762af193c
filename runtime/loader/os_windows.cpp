// The loader's operating-system layer on Windows (see os.hpp). Libraries are opened with Boost.DLL,
// whose Windows load modes are LoadLibraryExW's own flags, so the search flags of the load order
// (docs/loader.md) pass straight through it. While a library loads, the thread's error mode is
// SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX (SetThreadErrorMode: SetErrorMode's per-thread
// form, which leaves other threads alone), so a missing DLL is an error text, never a dialog. Error
// texts name the file and carry FormatMessageW's words for GetLastError() in UTF-8; for a missing
// import they also name the DLL that Windows could not find (its import table is read).
// Already-loaded libraries are found with GetModuleHandleW; paths are UTF-8 outside this file and
// UTF-16 inside it (variables are read in core/environment.cpp).
//
// Note [Windows DLL search]
// A plugin is opened by absolute path with
//   LoadLibraryExW(path, NULL, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)
// so its imports are looked up in the plugin's own folder, the application's folder, System32
// and the folders given to AddDllDirectory (add_library_directory: a plugin's search roots),
// and never in the current directory or PATH. A DLL whose name is already loaded in the process
// (the application's own copy, or one preloaded from the manifest) is reused by name, which is
// what the "already mapped" check (loaded_library_path) reports. A bare file name (the system's own
// search) is opened with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS alone: DLL_LOAD_DIR needs a path.
// Libraries are never freed: the Library objects, and the handles they hold, live for the
// process (docs/loader.md).
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
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>
#include <vector>

#define BOOST_DLL_USE_STD_FS
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

namespace kf::os {

struct Library {
  boost::dll::shared_library lib;
};

namespace {

namespace fs = std::filesystem;

std::wstring widen(const std::string& utf8) {
  if (utf8.empty()) return std::wstring();
  const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()),
                                    nullptr, 0);
  std::wstring out(static_cast<size_t>(n > 0 ? n : 0), L'\0');
  if (n > 0) {
    MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
  }
  return out;
}

std::string narrow(const std::wstring& wide) {
  if (wide.empty()) return std::string();
  const int n = WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()),
                                    nullptr, 0, nullptr, nullptr);
  std::string out(static_cast<size_t>(n > 0 ? n : 0), '\0');
  if (n > 0) {
    WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()), out.data(), n,
                        nullptr, nullptr);
  }
  return out;
}

std::string utf8_path(const fs::path& p) {
  const auto s = p.u8string();  // std::string in C++17
  return std::string(s.begin(), s.end());
}

/// FormatMessageW's text for a Win32 error code, in UTF-8, without the trailing newline.
std::string system_message(DWORD code) {
  wchar_t* text = nullptr;
  const DWORD n = FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::wstring w = n > 0 && text != nullptr ? std::wstring(text, n) : std::wstring();
  if (text != nullptr) LocalFree(text);
  while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L' ' ||
                        w.back() == L'.')) {
    w.pop_back();
  }
  std::string out = narrow(w);
  if (out.empty()) out = "unknown error";
  return out + " (error " + std::to_string(code) + ")";
}

/// The full path of a loaded module (GetModuleFileNameW, growing the buffer for long paths).
std::string module_path(HMODULE module) {
  std::wstring buf(MAX_PATH, L'\0');
  for (;;) {
    const DWORD n = GetModuleFileNameW(module, buf.data(), static_cast<DWORD>(buf.size()));
    if (n == 0) return "";
    if (n < buf.size()) {
      buf.resize(n);
      return narrow(buf);
    }
    if (buf.size() >= 32768) return "";
    buf.resize(buf.size() * 2);
  }
}

bool is_separator(char c) { return c == '\\' || c == '/'; }

bool is_bare_name(const std::string& path) {
  return path.find_first_of("\\/:") == std::string::npos;
}

/// Sets the calling thread's error mode so that a missing or broken DLL fails with an error
/// code instead of a dialog box, and restores the previous mode when it goes.
class QuietErrors {
 public:
  QuietErrors() {
    ok_ = SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &previous_) != 0;
  }
  ~QuietErrors() {
    if (ok_) SetThreadErrorMode(previous_, nullptr);
  }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  DWORD previous_ = 0;
  bool ok_ = false;
};

/// A PE file read into memory, with just enough parsing to name the DLLs it imports
/// (os_windows_diagnose.cpp reads the headers of files that are not DLLs at all).
class PeFile {
 public:
  explicit PeFile(const std::string& path) {
    std::ifstream f(fs::u8path(path), std::ios::binary);
    if (!f) return;
    bytes_.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }

  /// The offset of the "PE\0\0" signature, or 0 when there is none.
  uint32_t pe_offset() const {
    if (bytes_.size() < 0x40 || bytes_[0] != 'M' || bytes_[1] != 'Z') return 0;
    const uint32_t off = u32(0x3c);
    if (off == 0 || off + 24 > bytes_.size()) return 0;
    return std::memcmp(bytes_.data() + off, "PE\0\0", 4) == 0 ? off : 0;
  }
  /// The DLL names in the import table (not the delay-load one), in file order.
  std::vector<std::string> imports() const {
    std::vector<std::string> out;
    const uint32_t pe = pe_offset();
    if (pe == 0) return out;
    const uint32_t opt = pe + 24;
    const uint16_t opt_size = u16(pe + 20);
    const uint16_t magic = u16(opt);
    const uint32_t dirs = opt + (magic == 0x20b ? 112 : 96);  // PE32+ or PE32
    const uint32_t count = u32(opt + (magic == 0x20b ? 108 : 92));
    if (count < 2) return out;
    uint32_t desc = rva_to_offset(u32(dirs + 8), pe, opt + opt_size);
    for (int guard = 0; desc != 0 && desc + 20 <= bytes_.size() && guard < 4096; ++guard) {
      const uint32_t name_rva = u32(desc + 12);
      if (name_rva == 0) break;
      const uint32_t name = rva_to_offset(name_rva, pe, opt + opt_size);
      if (name == 0) break;
      std::string dll;
      for (uint32_t i = name; i < bytes_.size() && bytes_[i] != '\0' && dll.size() < 260; ++i) {
        dll += bytes_[i];
      }
      if (!dll.empty()) out.push_back(dll);
      desc += 20;
    }
    return out;
  }

 private:
  uint16_t u16(size_t at) const {
    if (at + 2 > bytes_.size()) return 0;
    return static_cast<uint16_t>(static_cast<unsigned char>(bytes_[at]) |
                                 (static_cast<unsigned char>(bytes_[at + 1]) << 8));
  }
  uint32_t u32(size_t at) const {
    return static_cast<uint32_t>(u16(at)) | (static_cast<uint32_t>(u16(at + 2)) << 16);
  }
  uint32_t rva_to_offset(uint32_t rva, uint32_t pe, uint32_t sections) const {
    const uint16_t n = u16(pe + 6);
    for (uint16_t i = 0; i < n; ++i) {
      const uint32_t sh = sections + 40u * i;
      const uint32_t va = u32(sh + 12), vsize = u32(sh + 8), raw_size = u32(sh + 16);
      const uint32_t raw = u32(sh + 20);
      if (rva >= va && rva < va + std::max(vsize, raw_size)) return rva - va + raw;
    }
    return 0;
  }

  std::vector<char> bytes_;
};

std::mutex& directories_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

std::set<std::wstring>& added_directories() {
  static auto* s = new std::set<std::wstring>();
  return *s;
}

/// The folders LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS searches for
/// the imports of the DLL at `path`, in order.
std::vector<fs::path> import_search_folders(const std::string& path) {
  std::vector<fs::path> out{fs::u8path(path).parent_path()};
  const std::string exe = module_path(nullptr);
  if (!exe.empty()) out.push_back(fs::u8path(exe).parent_path());
  std::wstring system(MAX_PATH, L'\0');
  const UINT n = GetSystemDirectoryW(system.data(), static_cast<UINT>(system.size()));
  if (n > 0 && n < system.size()) out.emplace_back(system.substr(0, n));
  std::lock_guard<std::mutex> lock(directories_mutex());
  for (const std::wstring& d : added_directories()) out.emplace_back(d);
  return out;
}

/// For a DLL that failed with ERROR_MOD_NOT_FOUND although it exists: the DLLs it imports that
/// are neither loaded nor in any folder searched, e.g. "; it imports libfoo.dll, which is
/// neither loaded nor in C:\a, C:\b". Windows itself never names the missing DLL.
std::string missing_imports(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::u8path(path), ec)) return "";
  const std::vector<fs::path> folders = import_search_folders(path);
  std::string missing;
  for (const std::string& dll : PeFile(path).imports()) {
    std::string lower = dll;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lower.rfind("api-ms-", 0) == 0 || lower.rfind("ext-ms-", 0) == 0) continue;  // API sets
    if (GetModuleHandleW(widen(dll).c_str()) != nullptr) continue;
    bool found = false;
    for (const fs::path& f : folders) found = found || fs::exists(f / fs::u8path(dll), ec);
    if (!found) missing += (missing.empty() ? "" : ", ") + dll;
  }
  if (missing.empty()) return "; a DLL that one of the DLLs it imports needs is missing";
  std::string searched;
  for (const fs::path& f : folders) searched += (searched.empty() ? "" : ", ") + utf8_path(f);
  return "; it imports " + missing + ", which is neither loaded nor in " + searched;
}

}  // namespace

OpenResult open_library(const std::string& path, bool /*global: no such notion on Windows*/) {
  namespace mode = boost::dll::load_mode;
  OpenResult r;
  auto lib = std::make_unique<Library>();
  // Boost.DLL passes a Windows load mode to LoadLibraryExW as its flags (search_system_folders
  // is its own bit, removed before the call: it keeps a bare name from being made relative to
  // the current directory).
  const bool bare = is_bare_name(path);
  const DWORD flags = bare ? LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
                           : LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS;
  const auto load_mode = static_cast<mode::type>(
      flags | (bare ? static_cast<DWORD>(mode::search_system_folders) : 0));
  std::error_code ec;
  DWORD code = ERROR_SUCCESS;
  {
    QuietErrors quiet;
    SetLastError(ERROR_SUCCESS);
    lib->lib.load(fs::u8path(path), load_mode, ec);
    code = GetLastError();
  }
  if (ec || !lib->lib.is_loaded()) {
    if (ec && ec.value() != 0) code = static_cast<DWORD>(ec.value());
    r.error = path + ": LoadLibraryExW failed: " + system_message(code);
    if (code == ERROR_MOD_NOT_FOUND && !bare) r.error += missing_imports(path);
    return r;
  }
  r.library = lib.release();  // never freed: the library stays loaded for the process
  return r;
}

void* find_symbol(Library* library, const char* name) {
  if (library == nullptr || name == nullptr || !library->lib.has(name)) return nullptr;
  return reinterpret_cast<void*>(library->lib.get<void()>(name));
}

std::string core_library_path() {
  std::error_code ec;
  const fs::path p =
      boost::dll::symbol_location_ptr(reinterpret_cast<void*>(&core_library_path), ec);
  if (ec || p.empty()) return "";
  const std::string raw = utf8_path(p);
  const std::string resolved = real_path(raw);
  return resolved.empty() ? raw : resolved;
}

// The path the file system itself gives for an open file (GetFinalPathNameByHandleW): absolute,
// symbolic links and junctions resolved, each name in the case it has on disk, so two spellings
// of one file ("C:\X\a.dll" and "c:/x/A.DLL") give one string. std::filesystem::canonical is
// the fallback; it keeps the case it is given.
std::string real_path(const std::string& path) {
  if (path.empty()) return "";
  const std::wstring wide = fs::u8path(path).wstring();
  const DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
  // BACKUP_SEMANTICS: folders open too. Access 0: only the name is wanted.
  const HANDLE h = CreateFileW(wide.c_str(), 0, share, nullptr, OPEN_EXISTING,
                               FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return "";
  std::wstring buf(MAX_PATH, L'\0');
  DWORD n = GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()),
                                      FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  if (n >= buf.size()) {
    buf.resize(n + 1);
    n = GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()),
                                  FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  }
  CloseHandle(h);
  if (n > 0 && n < buf.size()) {
    buf.resize(n);
    if (buf.rfind(L"\\\\?\\UNC\\", 0) == 0) {
      buf = L"\\\\" + buf.substr(8);  // \\?\UNC\server\share -> \\server\share
    } else if (buf.rfind(L"\\\\?\\", 0) == 0) {
      buf = buf.substr(4);  // \\?\C:\x -> C:\x
    }
    return narrow(buf);
  }
  std::error_code ec;
  const fs::path p = fs::canonical(fs::u8path(path), ec);
  return ec ? "" : utf8_path(p.lexically_normal());
}

std::string loaded_library_path(const std::string& soname) {
  if (soname.empty()) return "";
  // Windows matches a bare name against the module names of loaded DLLs, as it does for an
  // import of that name. Does not add a reference: the module stays exactly as loaded as it was.
  const HMODULE module = GetModuleHandleW(widen(soname).c_str());
  if (module == nullptr) return "";
  const std::string live = module_path(module);
  const std::string canonical = live.empty() ? "" : real_path(live);
  return canonical.empty() ? live : canonical;
}

void add_library_directory(const std::string& dir) {
  if (!is_absolute(dir)) return;  // AddDllDirectory takes absolute folders only
  std::wstring wide = fs::u8path(dir).lexically_normal().make_preferred().wstring();
  while (wide.size() > 3 && (wide.back() == L'\\')) wide.pop_back();
  std::lock_guard<std::mutex> lock(directories_mutex());
  if (added_directories().count(wide) != 0) return;
  // The cookie is never passed to RemoveDllDirectory: the folder serves every later load.
  if (AddDllDirectory(wide.c_str()) != nullptr) added_directories().insert(wide);
}

std::vector<std::string> folder_entries(const std::string& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::u8path(folder), ec)) {
    out.push_back(utf8_path(e.path()));
  }
  return out;
}

bool is_absolute(const std::string& path) {
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  if (path.size() >= 3 && letter(path[0]) && path[1] == ':' && is_separator(path[2])) {
    return true;  // C:\x or C:/x
  }
  return path.size() >= 3 && is_separator(path[0]) && is_separator(path[1]) &&
         !is_separator(path[2]);  // \\server\share\x, \\?\C:\x
}

char path_list_separator() { return ';'; }

// Files are inspected in file_facts_windows.cpp. Their ACLs, which decide who may replace them
// (owner, inheritable write grants to Everyone or Users), are not read (docs/loader.md).
}  // namespace kf::os

#endif  // _WIN32
