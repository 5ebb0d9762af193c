#include "loader/plugin_loader.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "dispatch/registrar.hpp"
#include "loader/backend_registry.hpp"
#include "loader/host_api.hpp"
#include "loader/library.hpp"
#include "loader/manifest.hpp"
#include "loader/report.hpp"
#include "loader/requirements.hpp"
#include "runtime_state.hpp"

namespace kf {
namespace {

bool check_plugin(Backend& b, const kf_plugin_t* p);
bool register_backend(Backend& b);

// The fields every plugin ABI 1.x has (the start of kf_plugin_t up to register_kernels).
constexpr size_t kMinPluginStruct = offsetof(kf_plugin_t, register_kernels) + sizeof(void*);

std::set<std::string>& loaded_real_paths() {
  static std::set<std::string>* s = new std::set<std::string>();
  return *s;
}

bool disabled_by_env(const std::string& name) {
  const char* v = std::getenv("KERNFORGE_DISABLE_PLUGINS");
  if (v == nullptr) return false;
  std::stringstream ss(v);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == name) return true;
  }
  return false;
}

void step(const Backend& b, const char* what, const std::string& path, const char* result,
          const std::string& reason, const StepTimer& t) {
  report_step(ReportStep{what, b.name, path, result, reason, t.micros()});
}

void set_state(Backend& b, kf_backend_state_t state, std::string reason,
               kf_status_t status = KF_OK) {
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

bool apply_manifest(Backend& b, const std::string& path) {
  StepTimer t;
  try {
    const Manifest m = parse_manifest_file(path);
    b.name = m.name;
    b.device_type_name = m.device_type;
    b.priority = m.priority;
    b.library_path = m.library_path();
    if (const std::string unmet = unmet_requirements(m); !unmet.empty()) {
      set_state(b, KF_BACKEND_UNAVAILABLE, unmet);
    } else if (disabled_by_env(m.name)) {
      set_state(b, KF_BACKEND_UNAVAILABLE, "disabled by KERNFORGE_DISABLE_PLUGINS");
    } else {
      for (const PreloadEntry& p : m.preload) {
        StepTimer pt;
        const OpenResult r = open_library(p.soname, true);
        step(b, "preload", p.soname, r.handle ? "ok" : (p.required ? "failed" : "skipped"),
             r.error, pt);
        if (r.handle == nullptr && p.required) {
          set_state(b, KF_BACKEND_UNAVAILABLE,
                    "required library " + p.soname + " could not be loaded: " + r.error);
          break;
        }
      }
    }
    step(b, "manifest", path, "ok", b.reason, t);
    return b.reason.empty();
  } catch (const Error& e) {
    set_state(b, e.status() == KF_NOT_FOUND ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED,
              e.what(), e.status());
    step(b, "manifest", path, "failed", e.what(), t);
    return false;
  }
}

// dlopen, kf_plugin_get, ABI check, names, score. Returns false with the state set.
bool open_plugin(Backend& b) {
  StepTimer t;
  const std::string real = real_path(b.library_path);
  if (real.empty()) {
    set_state(b, KF_BACKEND_UNAVAILABLE, "plugin library " + b.library_path + " does not exist",
              KF_NOT_FOUND);
    step(b, "dlopen", b.library_path, "failed", b.reason, t);
    return false;
  }
  if (!loaded_real_paths().insert(real).second) {
    set_state(b, KF_BACKEND_SHADOWED, "the same library (" + real + ") is already loaded");
    step(b, "dlopen", real, "skipped", b.reason, t);
    return false;
  }
  b.library_path = real;
  const OpenResult r = open_library(real, false);
  if (r.handle == nullptr) {
    set_state(b, KF_BACKEND_REJECTED, "cannot load " + real + ": " + r.error);
    step(b, "dlopen", real, "failed", b.reason, t);
    return false;
  }
  b.library = r.handle;
  step(b, "dlopen", real, "ok", "", t);
  auto get = reinterpret_cast<kf_plugin_get_fn>(find_symbol(r.handle, KF_PLUGIN_ENTRY_SYMBOL));
  if (get == nullptr) {
    set_state(b, KF_BACKEND_REJECTED, real + " does not export " KF_PLUGIN_ENTRY_SYMBOL
                                      "; is it a kernforge plugin?");
    step(b, "abi", real, "failed", b.reason, t);
    return false;
  }
  return check_plugin(b, get(KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR));
}

bool check_plugin(Backend& b, const kf_plugin_t* p) {
  StepTimer t;
  std::string why;
  if (p == nullptr) {
    why = b.library_path + ": kf_plugin_get returned NULL for host plugin ABI " +
          std::to_string(KF_PLUGIN_ABI_MAJOR) + "." + std::to_string(KF_PLUGIN_ABI_MINOR);
  } else if (p->abi_major != KF_PLUGIN_ABI_MAJOR) {
    why = fmt::format("{}: plugin ABI {}.{} does not match the host's {}.{}; rebuild the plugin "
                      "against this kernforge", b.library_path, p->abi_major, p->abi_minor,
                      KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR);
  } else if (p->struct_size < kMinPluginStruct || p->name == nullptr ||
             p->device_type == nullptr || p->init == nullptr || p->allocate == nullptr ||
             p->deallocate == nullptr || p->copy == nullptr || p->device_count == nullptr ||
             p->register_kernels == nullptr) {
    why = b.library_path + ": kf_plugin_t is too small or lacks a required slot";
  }
  if (!why.empty()) {
    set_state(b, KF_BACKEND_REJECTED, why,
              p != nullptr && p->abi_major != KF_PLUGIN_ABI_MAJOR ? KF_ABI_MISMATCH
                                                                  : KF_INVALID_ARGUMENT);
    step(b, "abi", b.library_path, "failed", why, t);
    return false;
  }
  b.plugin = p;
  b.plugin_struct_size = std::min<size_t>(p->struct_size, sizeof(kf_plugin_t));
  if (b.name.empty()) b.name = p->name;
  b.version = p->version != nullptr ? p->version : "";
  if (b.device_type_name.empty()) b.device_type_name = p->device_type;
  b.score = KF_PLUGIN_HAS(b, score) ? p->score() : 1;
  step(b, "abi", b.library_path, "ok", fmt::format("plugin ABI {}.{}, score {}", p->abi_major,
                                                   p->abi_minor, b.score), t);
  if (b.score <= 0) {
    set_state(b, KF_BACKEND_UNAVAILABLE, "score 0: the plugin says it cannot run on this machine");
    return false;
  }
  return true;
}

// init, device count, register_kernels (one transaction), publish.
bool activate(Backend& b) {
  StepTimer t;
  void* state = nullptr;
  set_last_error("");
  kf_status_t s = KF_INTERNAL;
  try {
    s = b.plugin->init(host_api(), &state);
  } catch (...) {
    set_last_error("init threw a C++ exception across the plugin ABI");
  }
  if (s != KF_OK) {
    set_state(b, s == KF_UNAVAILABLE ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED,
              fmt::format("init failed ({}): {}", kf_status_name(s), last_error()), s);
    step(b, "init", b.library_path, "failed", b.reason, t);
    return false;
  }
  b.plugin_state = state;
  b.device_count = b.plugin->device_count(state);
  step(b, "init", b.library_path, "ok", fmt::format("{} device(s)", b.device_count), t);
  return register_backend(b);
}

bool register_backend(Backend& b) {
  StepTimer t;
  try {
    b.device_type = register_device_type(b.device_type_name);
    Registrar reg(b);
    const kf_status_t s = b.plugin->register_kernels(b.plugin_state, reg.c_api());
    if (s != KF_OK) fail(s, "register_kernels failed ({}): {}", kf_status_name(s), last_error());
    b.slot = reserve_slot();
    reg.commit(b.slot);
    publish_backend(b);
    set_state(b, KF_BACKEND_LOADED, "");
    std::string warnings;
    for (const std::string& w : reg.warnings()) warnings += (warnings.empty() ? "" : "; ") + w;
    step(b, "register", b.library_path, warnings.empty() ? "ok" : "warning",
         fmt::format("{} kernels{}{}", reg.kernel_count(), warnings.empty() ? "" : "; ", warnings), t);
    return true;
  } catch (const Error& e) {
    set_state(b, KF_BACKEND_REJECTED, e.what(), e.status());
    step(b, "register", b.library_path, "failed", b.reason, t);
    if (KF_PLUGIN_HAS(b, shutdown)) b.plugin->shutdown(b.plugin_state);
    return false;
  }
}

std::string base_name(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  name = name.substr(0, name.find('.'));
  if (name.rfind("libkernforge_", 0) == 0) name = name.substr(13);
  return name;
}

bool is_manifest(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

// Creates the backend record and runs every step up to the score. Returns it when it may be
// activated.
Backend* prepare(const LoadRequest& r) {
  auto owned = std::make_unique<Backend>();
  owned->name = base_name(r.path);
  Backend& b = add_backend(std::move(owned));
  if (r.path.empty() || r.path[0] != '/') {
    set_state(b, KF_BACKEND_REJECTED,
              "plugin path '" + r.path + "' is not absolute; only absolute paths are loaded");
    report_step(ReportStep{"discover", b.name, r.path, "failed", b.reason, 0});
    return nullptr;
  }
  if (is_manifest(r.path)) {
    b.manifest_path = r.path;
    if (!apply_manifest(b, r.path)) return nullptr;
  } else {
    b.library_path = r.path;
    if (disabled_by_env(b.name)) {
      set_state(b, KF_BACKEND_UNAVAILABLE, "disabled by KERNFORGE_DISABLE_PLUGINS");
      return nullptr;
    }
  }
  return open_plugin(b) ? &b : nullptr;
}

bool better(const Backend* a, const Backend* b) {
  if (a->score != b->score) return a->score > b->score;
  return a->priority > b->priority;
}

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
    set_state(*b, KF_BACKEND_SHADOWED,
              fmt::format("shadowed by plugin '{}' for device type {} (score {} vs {}, priority "
                          "{} vs {})", winner->name, b->device_type_name, winner->score, b->score,
                          winner->priority, b->priority));
    report_step(ReportStep{"select", b->name, b->library_path, "skipped", b->reason, 0});
  }
}

}  // namespace

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
  if (b.state != KF_BACKEND_LOADED) fail(b.failure, "kf_load_plugin({}): {}", request.path, b.reason);
}

}  // namespace kf
