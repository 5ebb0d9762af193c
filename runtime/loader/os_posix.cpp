// The loader's operating-system layer on POSIX systems (see os.hpp): libraries are opened with
// Boost.DLL (RTLD_NOW | RTLD_GLOBAL or RTLD_LOCAL), libraries already loaded are asked of the
// dynamic loader (dlopen RTLD_NOLOAD, dlinfo), and ownership is read with stat().
#if !defined(_WIN32)

#include "loader/os.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#define BOOST_DLL_USE_STD_FS
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>

namespace kf::os {

struct Library {
  boost::dll::shared_library lib;
};

namespace {

// Every library ever opened; never freed, so nothing is dlclose'd (docs/loader.md).
std::vector<Library*>& opened() {
  static auto* v = new std::vector<Library*>();
  return *v;
}

std::mutex& opened_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

// Boost.DLL turns a failed dlopen into a generic error code and drops dlerror()'s text, which
// names the library that was missing or broken. The failure is repeated with dlopen itself to
// read that text (a failed dlopen maps nothing).
std::string dlerror_text(const std::string& path, int flags) {
  dlerror();
  void* h = dlopen(path.c_str(), flags);
  if (h != nullptr) return "the library loaded on a second attempt";  // kept open: never closed
  const char* e = dlerror();
  return e != nullptr ? e : "dlopen failed without a message";
}

#if defined(__x86_64__)
constexpr unsigned kThisMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kThisMachine = EM_AARCH64;
#elif defined(__i386__)
constexpr unsigned kThisMachine = EM_386;
#else
constexpr unsigned kThisMachine = EM_NONE;
#endif

const char* machine_name(unsigned machine) {
  switch (machine) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "aarch64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_PPC64: return "ppc64";
    case EM_RISCV: return "riscv";
    default: return "unknown";
  }
}

}  // namespace

OpenResult open_library(const std::string& path, bool global) {
  namespace mode = boost::dll::load_mode;
  OpenResult r;
  auto lib = std::make_unique<Library>();
  {
    // Room first: once loaded, a library must never be closed (its constructors ran), so
    // recording it below must not be able to fail and destroy `lib` (which would dlclose it).
    std::lock_guard<std::mutex> lock(opened_mutex());
    opened().reserve(opened().size() + 1);
  }
  std::error_code ec;
  // An absolute path or, for the system's own search (ld.so.cache, LD_LIBRARY_PATH), a bare
  // file name.
  const auto flags = static_cast<mode::type>(
      mode::rtld_now | (global ? mode::rtld_global : mode::rtld_local) |
      (path.find('/') == std::string::npos ? mode::search_system_folders : 0));
  lib->lib.load(path, flags, ec);
  if (ec || !lib->lib.is_loaded()) {
    r.error = dlerror_text(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
    return r;
  }
  std::lock_guard<std::mutex> lock(opened_mutex());
  opened().push_back(lib.get());
  r.library = lib.release();
  return r;
}

std::string diagnose_library_file(const std::string& path) {
  // Read without blocking: a FIFO under a library's name must not hang the loader.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st {};
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  unsigned char h[20] = {};
  const ssize_t got = regular ? read(fd, h, sizeof(h)) : 0;
  close(fd);
  if (!regular) return "the file is not a regular file";
  const long n = got < 0 ? 0 : static_cast<long>(got);
  if (n == 0) return "the file is empty (0 bytes)";
  if (n < 4 || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') {
    return "the file is not an ELF shared library (no ELF magic number)";
  }
  if (n < 20) return "the file is a truncated ELF header";
  if (h[EI_CLASS] != (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32)) {
    return fmt::format("the file is a {}-bit ELF; this process is {}-bit",
                       h[EI_CLASS] == ELFCLASS64 ? 64 : 32, sizeof(void*) * 8);
  }
  const unsigned machine = h[EI_DATA] == ELFDATA2MSB ? (h[18] << 8u) | h[19]
                                                     : (h[19] << 8u) | h[18];
  if (machine != kThisMachine) {
    return fmt::format("the file is built for another architecture (ELF machine {}, {}); this "
                       "process is {}", machine, machine_name(machine),
                       machine_name(kThisMachine));
  }
  return "";
}

void* find_symbol(Library* library, const char* name) {
  if (library == nullptr || !library->lib.has(name)) return nullptr;
  return reinterpret_cast<void*>(library->lib.get<void()>(name));
}

std::string core_library_path() {
  std::error_code ec;
  const auto p = boost::dll::symbol_location_ptr(reinterpret_cast<void*>(&core_library_path), ec);
  if (ec) return "";
  const std::string resolved = real_path(p.string());
  return resolved.empty() ? p.string() : resolved;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) == nullptr) return "";
  return buf;
}

std::string loaded_library_path(const std::string& soname) {
  if (soname.empty() || soname.find('/') != std::string::npos) return "";
  // RTLD_NOLOAD returns a library that is already loaded and never maps one. glibc matches the
  // name against each loaded library's DT_SONAME and the names it was opened by, so the
  // application's libfoo.so.1.2.3 answers to "libfoo.so.1". It adds a reference, dropped below.
  void* h = dlopen(soname.c_str(), RTLD_NOLOAD | RTLD_LAZY);
  if (h == nullptr) {
    dlerror();  // not loaded: clear the error so that no later dlerror() reads it
    return "";
  }
  std::string live;
#if !defined(__APPLE__)  // macOS has no dlinfo: there nothing counts as already loaded
  struct link_map* map = nullptr;
  if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr) {
    live = map->l_name;  // the path it was loaded from, as given or as found by the search
  }
#endif
  dlclose(h);  // only the reference RTLD_NOLOAD added: the library stays as loaded as it was
  if (live.empty()) return "";
  const std::string canonical = real_path(live);
  return canonical.empty() ? live : canonical;
}

void add_library_directory(const std::string&) {}

std::vector<std::string> folder_entries(const std::string& folder) {
  std::vector<std::string> out;
  const std::unique_ptr<DIR, int (*)(DIR*)> dir(opendir(folder.c_str()), &closedir);
  if (dir == nullptr) return out;
  const std::string prefix = folder.empty() || folder.back() == '/' ? folder : folder + "/";
  while (const dirent* e = readdir(dir.get())) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(prefix + name);
  }
  return out;
}

bool is_absolute(const std::string& path) { return !path.empty() && path[0] == '/'; }

char path_list_separator() { return ':'; }

}  // namespace kf::os

#endif  // !_WIN32
