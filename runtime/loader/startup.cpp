#include "loader/startup.hpp"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/first_use.hpp"
#include "core/logging.hpp"
#include "loader/core_global_deps.hpp"
#include "loader/discovery.hpp"
#include "loader/os.hpp"
#include "loader/plugin_loader.hpp"
#include "loader/plugin_records.hpp"
#include "loader/report.hpp"
#include "loader/search_roots.hpp"

namespace kf {
namespace {

struct InitState {
  std::mutex options_mutex;
  std::vector<std::string> paths;
  bool autoload = true;
  int32_t log_level = KF_LOG_DEFAULT;
};

InitState& state() {
  static InitState* s = new InitState();  // lives for the process
  return *s;
}

// Whether a record already stands for the plugin of `path` (a manifest, or a library given
// directly): a start-up that runs again does not load it twice.
bool recorded(const std::string& path) {
  const int32_t n = record_count();
  if (n == 0) return false;
  const std::string real = os::real_path(path);
  for (int32_t i = 0; i < n; ++i) {
    const PluginRecord* r = record_at(i);
    if (r->manifest_path == path || (!real.empty() && r->library_path == real)) return true;
  }
  return false;
}

std::vector<LoadRequest> not_yet_recorded(std::vector<LoadRequest> requests) {
  std::vector<LoadRequest> out;
  out.reserve(requests.size());
  for (LoadRequest& r : requests) {
    if (!recorded(r.path)) out.push_back(std::move(r));
  }
  return out;
}

void run_startup(const InitState& s) {
  set_log_level(s.log_level);
  StepTimer t;
  load_core_global_deps();
  load_plugins(not_yet_recorded(discover_plugins(s.paths, s.autoload)), /*may_defer=*/true);
  set_startup_micros(t.micros());
  report_step(ReportStep{"startup", "", "", "ok", "", t.micros()});
}

// Best effort: there may be no memory to say it.
void report_out_of_memory() noexcept {
  try {
    report_step(ReportStep{"startup", "", "", "failed",
                           "out of host memory; start-up runs again on the next call", 0});
  } catch (...) {
  }
}

}  // namespace

std::atomic<bool> g_runtime_ready{false};

// Note [A start-up that runs out of memory]
// Running out of host memory says nothing about any plugin, so it never marks one as failed:
// the plugin whose load ran out is rolled back (plugin_loader.cpp, Note [Out of memory while
// loading]), start-up stops, the call that started it returns KF_OUT_OF_MEMORY and the runtime
// stays unstarted. The next call starts it again. A plugin that a failed attempt had already
// loaded (one of another device type) stays loaded, as plugins always do, and is not loaded
// twice. Any other failure of start-up as a whole is logged and reported, and the runtime runs
// with the plugins that did load.
void initialize_slow(const RegistryPort& port) {
  InitState& s = state();
  std::lock_guard<std::mutex> lock(loader_mutex());
  LoadingScope loading;
  if (g_runtime_ready.load(std::memory_order_acquire)) return;
  keep_registry_port(port);
  try {
    run_startup(s);
  } catch (const std::bad_alloc&) {
    report_out_of_memory();
    throw;
  } catch (const Error& e) {
    if (e.status() == KF_OUT_OF_MEMORY) {
      report_out_of_memory();
      throw;
    }
    log().error("plugin loading failed: {}", e.what());
    report_step(ReportStep{"startup", "", "", "failed", e.what(), 0});
  } catch (const std::exception& e) {
    log().error("plugin loading failed: {}", e.what());
    report_step(ReportStep{"startup", "", "", "failed", e.what(), 0});
  }
  g_runtime_ready.store(true, std::memory_order_release);
}

bool try_initialize(const RegistryPort& port) noexcept {
  return guard([&port] { ensure_initialized(port); }) == KF_OK;
}

std::mutex& loader_mutex() {
  static std::mutex* m = new std::mutex();
  return *m;
}

void set_init_options(const kf_init_options_t& o) {
  InitState& s = state();
  std::lock_guard<std::mutex> lock(loader_mutex());
  if (g_runtime_ready.load(std::memory_order_acquire)) {
    fail(KF_FAILED_PRECONDITION,
         "kf_init: the runtime is already initialised; call kf_init before any other function");
  }
  if (o.plugin_path_count < 0 || (o.plugin_path_count > 0 && o.plugin_paths == nullptr)) {
    fail(KF_INVALID_ARGUMENT, "kf_init: plugin_paths is NULL but plugin_path_count is {}",
         o.plugin_path_count);
  }
  s.paths.clear();
  for (int32_t i = 0; i < o.plugin_path_count; ++i) {
    if (o.plugin_paths[i] != nullptr) s.paths.emplace_back(o.plugin_paths[i]);
  }
  std::vector<std::string> roots;
  if (o.struct_size >= offsetof(kf_init_options_t, library_root_count) + sizeof(int32_t)) {
    if (o.library_root_count < 0 || (o.library_root_count > 0 && o.library_roots == nullptr)) {
      fail(KF_INVALID_ARGUMENT, "kf_init: library_roots is NULL but library_root_count is {}",
           o.library_root_count);
    }
    for (int32_t i = 0; i < o.library_root_count; ++i) {
      const char* root = o.library_roots[i];
      if (root == nullptr || !os::is_absolute(root)) {
        fail(KF_INVALID_ARGUMENT, "kf_init: library_roots[{}] '{}' is not an absolute path", i,
             root != nullptr ? root : "(null)");
      }
      roots.emplace_back(root);
    }
  }
  set_library_roots(std::move(roots));
  s.autoload = o.autoload != 0;
  s.log_level = o.log_level;
}

}  // namespace kf
