#include "loader/plugin_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "loader/backend_registry.hpp"
#include "loader/loader_env.hpp"
#include "loader/os.hpp"
#include "loader/plugin_steps.hpp"
#include "runtime_state.hpp"

namespace kf {
namespace {

// "libkernforge_cpu.so" and "cpu.json" both name the plugin "cpu" until its manifest says more.
std::string base_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  name = name.substr(0, name.find('.'));
  if (name.rfind("libkernforge_", 0) == 0) name = name.substr(13);
  return name;
}

bool is_manifest(const std::string& path) {
  return std::filesystem::path(path).extension() == ".json";
}

// Creates the backend record and runs every step up to the score. Returns it when it may be
// activated.
Backend* prepare(const LoadRequest& r) {
  auto owned = std::make_unique<Backend>();
  owned->name = base_name(r.path);
  owned->source = r.source;
  Backend& b = add_backend(std::move(owned));
  StepTimer t;
  if (!os::is_absolute(r.path)) {
    fail_step(b, "discover", r.path, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT,
              "plugin path '" + r.path + "' is not absolute; only absolute paths are loaded", t);
    return nullptr;
  }
  if (is_manifest(r.path)) {
    b.manifest_path = r.path;
    if (!apply_manifest(b, r.path)) return nullptr;
  } else {
    b.library_path = r.path;
    if (disabled_by_env(b.name)) {
      fail_step(b, "requires", r.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                "disabled by KERNFORGE_DISABLE_PLUGINS", t);
      return nullptr;
    }
  }
  return open_plugin(b) ? &b : nullptr;
}

bool better(const Backend* a, const Backend* b) {
  if (a->score != b->score) return a->score > b->score;
  return a->priority > b->priority;
}

void shadow(Backend& b, const Backend& winner) {
  set_state(b, KF_BACKEND_SHADOWED,
            fmt::format("{} is shadowed by plugin '{}' ({}) for device type {} (score {} vs {}, "
                        "priority {} vs {})", b.library_path, winner.name, winner.library_path,
                        b.device_type_name, winner.score, b.score, winner.priority, b.priority));
  report_step(ReportStep{"select", b.name, b.library_path, "skipped", b.reason, 0});
}

// Among the plugins of one device type the best score, then priority, is activated; when it
// fails the next one is tried; the rest are shadowed.
void activate_group(std::vector<Backend*>& group) {
  std::stable_sort(group.begin(), group.end(), better);
  const Backend* winner = nullptr;
  const int32_t type = device_type_from_name(group.front()->device_type_name);
  if (type != KF_DEVICE_NONE) winner = backend_for_device_type(type);
  for (Backend* b : group) {
    if (winner == nullptr) {
      if (activate(*b)) winner = b;
      continue;
    }
    shadow(*b, *winner);
  }
}

}  // namespace

void set_state(Backend& b, kf_backend_state_t state, std::string reason, kf_status_t status) {
  b.state = state;
  if (status == KF_OK) {
    status = state == KF_BACKEND_UNAVAILABLE ? KF_UNAVAILABLE
             : state == KF_BACKEND_SHADOWED  ? KF_ALREADY_EXISTS
             : state == KF_BACKEND_REJECTED  ? KF_INVALID_ARGUMENT : KF_OK;
  }
  b.failure = status;
  b.reason = std::move(reason);
  if (state != KF_BACKEND_LOADED) log().info("plugin '{}': {}", b.name, b.reason);
}

void step(const Backend& b, const char* what, const std::string& path, const char* result,
          const std::string& reason, const StepTimer& t) {
  report_step(ReportStep{what, b.name, path, result, reason, t.micros()});
}

bool fail_step(Backend& b, const char* what, const std::string& path, kf_backend_state_t state,
               kf_status_t status, std::string reason, const StepTimer& t) {
  set_state(b, state, std::move(reason), status);
  step(b, what, path, state == KF_BACKEND_UNAVAILABLE ? "skipped" : "failed", b.reason, t);
  return false;
}

void load_plugins(const std::vector<LoadRequest>& requests) {
  std::map<std::string, std::vector<Backend*>> groups;
  std::vector<std::string> order;
  for (const LoadRequest& r : requests) {
    Backend* b = prepare(r);
    if (b == nullptr) continue;
    if (groups.find(b->device_type_name) == groups.end()) order.push_back(b->device_type_name);
    groups[b->device_type_name].push_back(b);
  }
  for (const std::string& type : order) activate_group(groups[type]);
}

void load_one_plugin(const LoadRequest& request) {
  const int32_t before = backend_count();
  load_plugins({request});
  if (backend_count() == before) fail(KF_INTERNAL, "kf_load_plugin: nothing was recorded");
  const Backend& b = *backend_by_index(before);
  if (b.state != KF_BACKEND_LOADED) {
    fail(b.failure, "kf_load_plugin({}): {}", request.path, b.reason);
  }
}

}  // namespace kf
