// The dynamic loader's cache on glibc systems (/etc/ld.so.cache, written by ldconfig from the
// folders /etc/ld.so.conf lists): which file a bare soname resolves to there, read without
// loading anything, so that the loader's own system search (os_posix.cpp) finds what dlopen would
// find through the cache. Only the current format ("glibc-ld.so.cache1.1", alone or after the old
// "ld.so-1.7.0" table) is read; entries for glibc-hwcaps or legacy hwcap subfolders are left out,
// so the baseline build of a library is chosen. Thread safety: no state.
#pragma once

#include <string>
#include <vector>

namespace kf::os {

/// The paths `cache` (the bytes of an ld.so.cache file) gives for `soname`, in the cache's order;
/// empty when the bytes are not a cache this code reads or name no such library. Every offset is
/// bounds-checked: any bytes are safe to pass.
std::vector<std::string> ld_so_cache_lookup(const std::string& cache, const std::string& soname);

/// ld_so_cache_lookup on the system's cache file ("" paths when there is none).
std::vector<std::string> system_ld_so_cache_paths(const std::string& soname);

}  // namespace kf::os
