// plugin_store.hpp — the file stores the host keeps for plugins (plugin ABI 1.3:
// kf_host_api_t.store_read, store_write, store_folder), e.g. the opencl backend's program cache.
//
// Note [The plugins' file stores]
// A plugin that keeps files between processes (compiled programs) must not trust a file that
// another user could have put in their place: on PoCL's CPU device an OpenCL program binary is
// native code. The loader already has the rules for that (security.hpp: the path walked one
// component at a time, no folder on the way writable by others without the sticky bit, no file
// writable by others, nothing owned by a user other than root or this one, only regular files,
// opened by the real path that was checked). Plugins do not link the core, so rather than a
// second copy of those rules in each plugin, the host offers the files themselves: a store is
// the folder <cache root>/<store> (env::cache_root: $KERNFORGE_CACHE_DIR, else
// $XDG_CACHE_HOME/kernforge, else $HOME/.cache/kernforge; absolute paths only), and a plugin
// reads and writes whole files in it by name. Every rule is applied here, in one place:
//   - the folder is made on first use, each missing folder with mode 0700, and must then pass
//     trust_own_folder (the rules above, for the folder too). When it does not, or there is no
//     cache root (a relative KERNFORGE_CACHE_DIR, no HOME), the store is off for the process,
//     with one warning naming the folder, the reason and what to do; the plugin then makes what
//     it would have read (a compiler builds from source), so results never depend on it;
//   - a file is read only after trust_own_file (never a FIFO or a device: decided before it is
//     opened, so nothing blocks), by the real path, and must be the file checked (fstat's device
//     and inode). A file that fails is ignored, with a warning, and the plugin replaces it;
//   - a file is written whole to a new file of an unpredictable name (O_EXCL, mode 0600) in the
//     checked folder and renamed over the old one, so no reader sees half a file, two writers
//     never share a temporary, and no one can prepare the name in advance;
//   - names are plain: a store is [a-z0-9_-] (up to 32), a file [A-Za-z0-9_.-] (up to 128),
//     not starting with '.' (the temporary files start with one), so no name leaves the folder.
// KERNFORGE_ALLOW_INSECURE_PLUGINS does not apply: it lets a user load a plugin they placed
// themselves, and says nothing about files that the process wrote. What a file holds is the
// plugin's business; the opencl cache binds each binary to its entry by a SHA-256 digest
// (backends/opencl/program_cache.hpp). Windows: not supported yet (the calls say so).
// Thread safety: any thread; each store's folder is decided once, under a lock.
#pragma once

#include <cstddef>

#include "kernforge/plugin.h"

namespace kf {

/// kf_host_api_t.store_read: file `name` of store `store`, whole, into `buf` (`cap` bytes).
kf_status_t store_read(const char* store, const char* name, void* buf, size_t cap,
                       size_t* out_size) noexcept;
/// kf_host_api_t.store_write: replaces file `name` of store `store` with `size` bytes.
kf_status_t store_write(const char* store, const char* name, const void* data,
                        size_t size) noexcept;
/// kf_host_api_t.store_folder: the store's folder, or why it is off, into `buf`.
kf_status_t store_folder(const char* store, char* buf, size_t cap) noexcept;

}  // namespace kf
