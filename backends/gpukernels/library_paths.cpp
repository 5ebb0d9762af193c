// library_paths.cpp — where loaded libraries came from (library_paths.hpp).
#include "library_paths.hpp"

#include <dlfcn.h>
#include <link.h>

namespace kf::cuda {

std::string path_of_handle(void* handle) {
  struct link_map* map = nullptr;
  if (handle == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return {};
  return map->l_name != nullptr ? map->l_name : "";
}

std::string path_of_symbol(const void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return {};
  return info.dli_fname;
}

std::string loaded_library(const char* soname) {
  void* handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return {};
  std::string path = path_of_handle(handle);
  dlclose(handle);  // drops the reference the check added
  return path.empty() ? std::string(soname) : path;
}

}  // namespace kf::cuda
