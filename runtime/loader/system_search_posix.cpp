// The system's own library search, done by the loader on POSIX systems (os.hpp:
// find_system_library). Thread safety: no state; safe from any thread.
//
// Note [The system search]
// A dependency that no search root holds used to be handed to dlopen by its bare name. The dynamic
// loader then searches LD_LIBRARY_PATH, in which an empty entry or "." means the current
// directory (so does a relative RUNPATH entry), and it runs the library's constructors before
// anyone could look at the file it picked. So the loader looks the name up itself, opening
// nothing, in the places the dynamic loader would use, and then checks and opens the file it
// found by its real path, like a file found in a search root:
//   1. the absolute entries of LD_LIBRARY_PATH (read with secure_getenv: none in a setuid
//      process, where glibc ignores the variable too);
//   2. ld.so.cache, ldconfig's index of the folders /etc/ld.so.conf lists (ld_so_cache.hpp);
//   3. the folders the dynamic loader itself reports for the core library (dlinfo
//      RTLD_DI_SERINFO: LD_LIBRARY_PATH as read at start-up, the core's RUNPATH, and the
//      system's default folders such as /lib/x86_64-linux-gnu and /usr/lib).
// Relative entries are left out and said so: nothing is ever found through the current
// directory. In a folder only the exact file name counts, and a file built for another machine or
// word size (a 32-bit copy in a multilib folder) is passed over, as the dynamic loader passes it:
// the first 20 bytes of a regular file are read for that (os::diagnose_library_file, without
// blocking); nothing of it is mapped or run before trust_file has passed it.
#if !defined(_WIN32)

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>

#include "core/environment.hpp"
#include "loader/ld_so_cache.hpp"
#include "loader/os.hpp"

namespace kf::os {
namespace {

struct Search {
  const std::string& soname;
  SystemLibrary out;
};

// True (with out.path set) when `path` is a regular file that is a library for this process.
bool accept(Search& s, const std::string& path, const char* found_by) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  if (!diagnose_library_file(path).empty()) return false;
  s.out.path = path;
  s.out.found_by = found_by;
  return true;
}

// Looks in `folder` (a relative one is dropped); true when found.
bool try_folder(Search& s, const std::string& folder, const char* origin) {
  if (!is_absolute(folder)) {
    const std::string why = std::string(origin) + " entry '" + folder + "': " +
                            (folder.empty() || folder == "." || folder == "./"
                                 ? "the current directory"
                                 : "relative, so inside the current directory") +
                            ", which is never searched";
    if (std::find(s.out.dropped.begin(), s.out.dropped.end(), why) == s.out.dropped.end()) {
      s.out.dropped.push_back(why);
    }
    return false;
  }
  if (std::find(s.out.searched.begin(), s.out.searched.end(), folder) != s.out.searched.end()) {
    return false;
  }
  s.out.searched.push_back(folder);
  const std::string path = folder.back() == '/' ? folder + s.soname : folder + "/" + s.soname;
  return accept(s, path, origin);
}

bool try_library_path(Search& s) {
  const std::optional<std::string> v = env::read("LD_LIBRARY_PATH");
  if (!v) return false;
  std::stringstream ss(*v);
  std::string entry;
  while (std::getline(ss, entry, ':')) {
    if (try_folder(s, entry, "LD_LIBRARY_PATH")) return true;
  }
  if (!v->empty() && v->back() == ':') try_folder(s, "", "LD_LIBRARY_PATH");  // trailing empty
  return false;
}

bool try_cache(Search& s) {
  s.out.searched.push_back("ld.so.cache");
  for (const std::string& path : system_ld_so_cache_paths(s.soname)) {
    if (accept(s, path, "ld.so.cache")) return true;
  }
  return false;
}

// The dynamic loader's own list for the core (or, in a program linking the loader statically, for
// the program): dlinfo RTLD_DI_SERINFO.
std::vector<std::string> dynamic_loader_folders() {
  std::vector<std::string> out;
#if defined(__GLIBC__)
  void* h = dlopen(core_library_path().c_str(), RTLD_NOLOAD | RTLD_LAZY);
  if (h == nullptr) h = dlopen(nullptr, RTLD_LAZY);
  if (h == nullptr) {
    dlerror();
    return out;
  }
  Dl_serinfo size{};
  if (dlinfo(h, RTLD_DI_SERINFOSIZE, &size) == 0 && size.dls_size >= sizeof(Dl_serinfo)) {
    std::unique_ptr<char[]> buf(new char[size.dls_size]);
    auto* info = reinterpret_cast<Dl_serinfo*>(buf.get());
    info->dls_size = size.dls_size;
    info->dls_cnt = size.dls_cnt;
    if (dlinfo(h, RTLD_DI_SERINFO, info) == 0) {
      for (unsigned i = 0; i < info->dls_cnt; ++i) out.emplace_back(info->dls_serpath[i].dls_name);
    }
  }
  dlclose(h);
#else
  out = {"/lib", "/usr/lib", "/usr/local/lib"};
#endif
  return out;
}

}  // namespace

SystemLibrary find_system_library(const std::string& soname) {
  Search s{soname, {}};
  if (soname.empty() || soname.find('/') != std::string::npos) return s.out;
  if (try_library_path(s) || try_cache(s)) return s.out;
  for (const std::string& folder : dynamic_loader_folders()) {
    if (try_folder(s, folder, "the dynamic loader's search path")) break;
  }
  return s.out;
}

}  // namespace kf::os

#endif  // !_WIN32
