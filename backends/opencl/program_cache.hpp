// program_cache.hpp — builds OpenCL programs, from an on-disk cache of program binaries when it
// holds one for the same platform, device, driver, options and source.
//
// Note [Program cache]: the cache lives in $KERNFORGE_CACHE_DIR/opencl, else
// $XDG_CACHE_HOME/kernforge/opencl, else ~/.cache/kernforge/opencl (folders made 0700);
// KERNFORGE_OPENCL_CACHE=0 turns it off. A file is named by a 64-bit FNV-1a hash of everything
// the binary depends on and holds that key's text too, so a hash collision or a file from
// elsewhere is caught and rebuilt. Files are written to a temporary name and renamed, so two
// processes building at once never read half a file. A binary the driver refuses is rebuilt
// from source and replaced. Fetching a binary makes some drivers compile every kernel of the
// program at once (PoCL: ~35 ms per kernel), which is why programs are small (one family, one
// dtype) and built on first use.
#pragma once

#include <string>

#include <CL/cl.h>

#include "discovery.hpp"

namespace kf::opencl {

struct BuildResult {
  cl_program program = nullptr;  // owned by the caller; nullptr on failure
  cl_int error = CL_SUCCESS;
  std::string log;               // the compiler's log on failure
  bool from_cache = false;
};

/// Builds `source` with `options` for the device in `context`.
BuildResult build_program(cl_context context, const DeviceInfo& device, const std::string& source,
                          const std::string& options);

/// The cache folder, "" when the cache is off or no folder can be found.
std::string cache_folder();

}  // namespace kf::opencl
