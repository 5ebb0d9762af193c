#include "loader/startup.hpp"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/logging.hpp"
#include "loader/core_global_deps.hpp"
#include "loader/discovery.hpp"
#include "loader/os.hpp"
#include "loader/plugin_loader.hpp"
#include "loader/report.hpp"
#include "loader/search_roots.hpp"

namespace kf {
namespace {

struct InitState {
  std::once_flag once;
  std::mutex options_mutex;
  std::vector<std::string> paths;
  bool autoload = true;
  int32_t log_level = KF_LOG_DEFAULT;
};

InitState& state() {
  static InitState* s = new InitState();  // lives for the process
  return *s;
}

void initialize() noexcept {
  InitState& s = state();
  try {
    set_log_level(s.log_level);
    StepTimer t;
    load_core_global_deps();
    load_plugins(discover_plugins(s.paths, s.autoload));
    set_startup_micros(t.micros());
    report_step(ReportStep{"startup", "", "", "ok", "", t.micros()});
  } catch (const std::exception& e) {
    log().error("plugin loading failed: {}", e.what());
    report_step(ReportStep{"startup", "", "", "failed", e.what(), 0});
  }
  g_runtime_ready.store(true, std::memory_order_release);
}

}  // namespace

std::atomic<bool> g_runtime_ready{false};

void initialize_slow() {
  InitState& s = state();
  std::lock_guard<std::mutex> lock(loader_mutex());
  std::call_once(s.once, initialize);
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
