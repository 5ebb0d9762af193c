#include "loader/library.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

namespace kf {

OpenResult open_library(const std::string& path, bool global) {
  OpenResult r;
  dlerror();
  r.handle = dlopen(path.c_str(), RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (r.handle == nullptr) {
    const char* e = dlerror();
    r.error = e != nullptr ? e : "unknown dlopen error";
  }
  return r;
}

void* find_symbol(void* handle, const char* name) {
  dlerror();
  return dlsym(handle, name);
}

std::string core_library_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&core_library_path), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  const std::string resolved = real_path(info.dli_fname);
  return resolved.empty() ? info.dli_fname : resolved;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) == nullptr) return "";
  return buf;
}

}  // namespace kf
