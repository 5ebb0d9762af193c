// Opening shared libraries and finding the core's own location (POSIX dlopen/dladdr).
#pragma once

#include <string>

namespace kf {

struct OpenResult {
  void* handle = nullptr;
  std::string error;  // dlerror() text when handle is null
};

/// dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL)).
OpenResult open_library(const std::string& path, bool global);
/// dlsym; nullptr when missing.
void* find_symbol(void* handle, const char* name);
/// Absolute path of libkernforge itself.
std::string core_library_path();
/// realpath(), or "" when the file does not exist.
std::string real_path(const std::string& path);

}  // namespace kf
