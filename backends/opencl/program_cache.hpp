// program_cache.hpp — builds OpenCL programs, from an on-disk cache of program binaries when it
// holds one for the same platform, device, driver, options and source.
//
// Note [Program cache]
// On PoCL's CPU device a program binary is native code, so a cached binary is code this
// process will run: no file another user could have written may ever reach the driver, and no
// binary may be taken for one it is not. Until plugin ABI 1.3 the plugin chose the folder
// itself from the environment, took it as it was, and trusted a file whose header matched a
// key anyone could compute: a binary planted by another user in a world-writable cache folder
// was run (3*[1,2,3] gave [0, 2.125, 0] with KF_OK). Now:
//   - Where, and which files: the host's file store "opencl" (kf_host_api_t.store_*, Note [The
//     plugins' file stores] in the core's loader/plugin_store.hpp), the folder
//     $KERNFORGE_CACHE_DIR/opencl, else $XDG_CACHE_HOME/kernforge/opencl, else
//     ~/.cache/kernforge/opencl. The host applies the loader's own trust rules to the folder
//     and to every file, makes missing folders 0700, refuses a relative folder, turns the store
//     off with one warning when the folder is not safe, never opens a FIFO, and writes through
//     new files of unpredictable names (O_EXCL) renamed into place. The rules are not copied
//     here: the plugin does not link the core, and one checked place is what keeps them right.
//     A host without the store (ABI 1.2) means no cache; KERNFORGE_OPENCL_CACHE=0 turns it off.
//   - What a file holds: an entry `<sha256 of the key>.entry` (cache_entry.hpp: the key's whole
//     text, the binary's size and SHA-256 digest) and the binary itself, alone, in
//     `<its sha256>.bin`. The digest is kept apart from the binary, in the entry, and the
//     binary is given to the driver only when its size and digest are the entry's and the
//     entry's key is this program's; anything else (a missing or foreign entry, a truncated,
//     swapped or tampered binary) is built from source and replaced, with a warning when a
//     binary does not match its digest. A binary the driver refuses is rebuilt and replaced.
//   - Two processes building at once: each writes its binary (under its own digest) and then
//     its entry. A binary file never changes content, so whichever entry is written last names
//     a binary that is there: the cache always ends valid. Old files (binaries nothing names
//     any more, the `<fnv>.bin` files of the first format) are never read and never removed.
// Fetching a binary makes some drivers compile every kernel of the program at once (PoCL: ~35
// ms per kernel), which is why programs are small (one family, one dtype) and built on first
// use. Logged: debug for a program read from the cache, warn for a binary that fails its digest.
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
