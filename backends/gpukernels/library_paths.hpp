// library_paths.hpp — where a library loaded in the process came from, for the GPU backends'
// discovery and describe ("CUDA runtime 13.0 (/usr/local/cuda/lib64/libcudart.so.13)").
#pragma once

#include <string>

namespace kf::cuda {

/// The file of a dlopen handle, or "" (dlinfo).
std::string path_of_handle(void* handle);

/// The file of the library defining `symbol`, or "" (dladdr).
std::string path_of_symbol(const void* symbol);

/// The path of `soname` when a library of that name is loaded in the process, else "" (dlopen
/// RTLD_NOLOAD: nothing is loaded by asking).
std::string loaded_library(const char* soname);

}  // namespace kf::cuda
