// Every environment variable the runtime reads, in one place. Variables are read so that they
// are ignored in setuid/setgid processes (secure_getenv; Windows: GetEnvironmentVariableW), each
// time they are asked for (nothing is cached here; callers that must read once cache).
//
//   KERNFORGE_PLUGIN_PATH             extra plugin folders or manifests (absolute, ':'-separated)
//   KERNFORGE_AUTOLOAD=0              load only the plugins kf_init names
//   KERNFORGE_DISABLE_PLUGINS=a,b     skip plugins by name
//   KERNFORGE_ALLOW_INSECURE_PLUGINS=1  load plugin files another user could replace
//   KERNFORGE_PREFER_PLUGINS=cpu=mine  the plugin that serves a device type, over the shipped one
//   KERNFORGE_LOG_LEVEL               trace, debug, info, warn (default), error, off
//   KERNFORGE_CPU_FALLBACK=0          no CPU fallback: ops a backend lacks fail instead
//   KERNFORGE_NUM_THREADS=n           intra-op threads of every backend (kf_set_num_threads(n))
//   KERNFORGE_CACHE_DIR               the folder of caches plugins keep (else XDG_CACHE_HOME, HOME)
//   RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT  an env:// rendezvous's (as torchrun and
//                                     `kernforge run` set them; docs/distributed.md)
// plus any variable a plugin manifest's "search" list names ($NAME or ${NAME}).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kf::env {

/// The value of `name`, nullopt when unset (or in a setuid/setgid process).
std::optional<std::string> read(const char* name);

/// The variables of the runtime itself, in the order the load report lists them (with
/// LD_LIBRARY_PATH, which decides the system's own library search).
const std::vector<const char*>& runtime_variables();

std::optional<std::string> plugin_path();
/// KERNFORGE_NUM_THREADS as a count in [1, max_thread_count()] (core/thread_count.hpp); nullopt when unset, or when it is not such a
/// count (then *bad_value, when given, gets the text).
std::optional<int32_t> num_threads(std::string* bad_value = nullptr);
bool autoload_disabled();
/// `plugin` is listed in KERNFORGE_DISABLE_PLUGINS.
bool plugin_disabled(const std::string& plugin);
bool insecure_plugins_allowed();
/// The plugin KERNFORGE_PREFER_PLUGINS names for `device_type` ("cpu=mycpu,cuda=mycuda": a
/// comma-separated list of device_type=plugin), nullopt when it names none.
std::optional<std::string> preferred_plugin(const std::string& device_type);
std::optional<std::string> log_level();
/// One of an env:// rendezvous's variables (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT),
/// nullopt when unset or empty.
std::optional<std::string> job_variable(const char* name);
/// KERNFORGE_CPU_FALLBACK is not "0". Read once per process.
bool cpu_fallback_enabled();

/// Where kernforge keeps caches between processes (plugins' file stores, loader/plugin_store.hpp).
struct CacheRoot {
  std::string path;     // absolute; "" when there is no cache folder (see `problem`)
  std::string from;     // what chose it: "KERNFORGE_CACHE_DIR", "XDG_CACHE_HOME" or "HOME"
  std::string problem;  // when path is "": why ("KERNFORGE_CACHE_DIR='x' is not absolute; ...")
  std::string ignored;  // a variable passed over, and why (a relative XDG_CACHE_HOME), or ""
};
/// $KERNFORGE_CACHE_DIR, else $XDG_CACHE_HOME/kernforge, else $HOME/.cache/kernforge; only
/// absolute paths, never one relative to the current directory: a relative KERNFORGE_CACHE_DIR
/// means no cache (the user named a folder; another one is not taken in its place), a relative
/// XDG_CACHE_HOME is passed over (as the XDG base directory specification says) and a relative
/// HOME means no cache. Empty values count as unset.
CacheRoot cache_root();

}  // namespace kf::env
