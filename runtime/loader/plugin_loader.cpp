#include "loader/plugin_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "core/device_types.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/first_use.hpp"
#include "device/backend_registry.hpp"
#include "loader/activate_step.hpp"
#include "loader/collective_records.hpp"
#include "loader/manifest_step.hpp"
#include "loader/open_step.hpp"
#include "loader/os.hpp"
#include "loader/plugin_records.hpp"
#include "loader/selection.hpp"
#include "loader/startup.hpp"
#include "loader/step_record.hpp"

namespace kf {
namespace {

using Owned = std::unique_ptr<PluginRecord>;

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

// Runs every step up to the score; true when the plugin may be activated.
bool prepare(const LoadRequest& req, PluginRecord& r, bool may_defer) {
  r.name = base_name(req.path);
  r.source = req.source;
  StepTimer t;
  if (!os::is_absolute(req.path)) {
    return fail_step(r, "discover", req.path, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT,
                     "plugin path '" + req.path + "' is not absolute; only absolute paths are "
                     "loaded", t);
  }
  if (is_manifest(req.path)) {
    r.manifest_path = req.path;
    if (!apply_manifest(r, req.path, may_defer)) return false;
  } else {
    r.library_path = req.path;
    if (env::plugin_disabled(r.name)) {
      return fail_step(r, "requires", req.path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                       "disabled by KERNFORGE_DISABLE_PLUGINS", t);
    }
  }
  return open_plugin(r);
}

// The published record of a loaded backend, or nullptr.
const PluginRecord* record_of(const Backend* backend) {
  for (int32_t i = 0; backend != nullptr && i < record_count(); ++i) {
    if (record_at(i)->backend == backend) return record_at(i);
  }
  return nullptr;
}

void shadow(PluginRecord& r, const PluginRecord& winner) {
  set_state(r, KF_BACKEND_SHADOWED, shadow_reason(r, winner));
  report_step(ReportStep{"select", r.name, r.library_path, "skipped", r.reason, 0});
}

// Among the plugins of one device type the first in selection.hpp's order is activated; when it
// fails the next one is tried; the rest are shadowed (also by a backend loaded before).
void activate_group(std::vector<PluginRecord*>& group) {
  std::stable_sort(group.begin(), group.end(), serves_before);
  const PluginRecord* loaded = record_of(backend_for_device_type(device_type_from_name(
      group.front()->device_type_name)));
  const PluginRecord* winner = nullptr;
  for (PluginRecord* r : group) {
    if (loaded != nullptr) {
      shadow(*r, *loaded);
    } else if (winner != nullptr) {
      shadow(*r, *winner);
    } else if (activate(*r)) {
      winner = r;
    }
  }
}

// Note [Out of memory while loading]
// A load that runs out of host memory (std::bad_alloc anywhere, or KF_OUT_OF_MEMORY from the
// registrar's transaction: activate_step.cpp) stops and throws that error; memory running out
// says nothing about the plugins, so none of the batch is recorded as failed. What can be taken
// back is: a plugin whose init ran is shut down (activate_step.cpp), the registrar published
// nothing, and the libraries opened are forgotten as loaded (they stay mapped: plugins are never
// unloaded), so the next load opens and initialises them again and records them then. What
// cannot be taken back stays: a backend of the batch that was published before memory ran out
// (another device type) keeps serving and its record is published.
void roll_back(std::vector<Owned>& records) noexcept {
  for (Owned& r : records) {
    if (r == nullptr) continue;
    if (r->backend == nullptr) {
      forget_opened_library(*r);
      continue;
    }
    try {
      publish_record(std::move(r));
    } catch (...) {
      // No memory for the record: the backend serves without one, as it would have.
    }
  }
}

// The plugins that wait for their first use (Note [Backends started on first use],
// core/first_use.hpp): what is needed to load them then, and what the report says of them.
// The loader's lock serialises the loads that add and start them; `mutex` guards the list
// itself, which the load report reads.
struct Waiting {
  LoadRequest request;
  DeferredPlugin info;
};

struct DeferredStore {
  std::mutex mutex;
  std::vector<Waiting> plugins;
};

DeferredStore& deferred_store() {
  static auto* store = new DeferredStore();  // lives for the process
  return *store;
}

void add_deferred(std::vector<Waiting>& plugins) {
  DeferredStore& d = deferred_store();
  std::lock_guard<std::mutex> lock(d.mutex);
  for (Waiting& w : plugins) d.plugins.push_back(std::move(w));
}

std::vector<Waiting> take_deferred() {
  DeferredStore& d = deferred_store();
  std::lock_guard<std::mutex> lock(d.mutex);
  return std::move(d.plugins);
}

struct Batch {
  std::vector<Owned> done;         // one per request, in order; null where deferred
  std::vector<Waiting> deferred;   // the plugins set aside until their first use
};

// Takes the deferred plugins' records out of the batch (they are not published now).
void set_aside(Batch& b, const std::vector<LoadRequest>& requests) {
  for (size_t i = 0; i < b.done.size(); ++i) {
    const PluginRecord* r = b.done[i].get();
    if (r == nullptr || !r->deferred) continue;
    report_step(ReportStep{"defer", r->name, r->manifest_path, "deferred",
                           "starts on first use (its manifest: \"activation\": \"first_use\")",
                           0});
    b.deferred.push_back(Waiting{requests[i], DeferredPlugin{r->name, r->device_type_name,
                                                             r->library_path, r->manifest_path,
                                                             r->source, r->collective}});
    b.done[i].reset();
  }
}

// A finished record goes to its table: a collective plugin's is no backend's.
void publish(Owned r) {
  if (r->collective) {
    publish_collective(std::move(r));
  } else {
    publish_record(std::move(r));
  }
}

// Loads a batch: one record per request, in order, not yet published. With `may_defer` (start-up)
// the plugins whose manifests ask to start on first use are only checked and set aside. Out of
// memory rolls the batch back and goes on as an exception (Note [Out of memory while loading]).
Batch load_batch(const std::vector<LoadRequest>& requests, bool may_defer) {
  Batch b;
  b.done.reserve(requests.size());
  try {
    std::map<std::string, std::vector<PluginRecord*>> groups;
    std::vector<std::string> order;
    std::vector<const PluginRecord*> collectives;  // loaded beside the device groups
    for (const LoadRequest& req : requests) {
      b.done.push_back(std::make_unique<PluginRecord>());
      PluginRecord& r = *b.done.back();
      const bool ready = prepare(req, r, may_defer);
      classify_for_selection(r);
      if (!ready) continue;
      if (r.collective) {
        activate_collective(r, collectives.data(), collectives.size());
        collectives.push_back(&r);
        continue;
      }
      if (groups.find(r.device_type_name) == groups.end()) order.push_back(r.device_type_name);
      groups[r.device_type_name].push_back(&r);
    }
    for (const std::string& type : order) activate_group(groups[type]);
    set_aside(b, requests);
  } catch (...) {
    roll_back(b.done);
    throw;
  }
  return b;
}

// Loads `waiting` as a batch would have at start-up; out of memory puts them back.
void start_waiting(std::vector<Waiting>& waiting) {
  if (waiting.empty()) return;
  std::vector<LoadRequest> requests;
  requests.reserve(waiting.size());
  for (const Waiting& w : waiting) requests.push_back(w.request);
  try {
    load_plugins(requests, /*may_defer=*/false);
  } catch (...) {
    add_deferred(waiting);
    throw;
  }
}

// Starts the deferred plugins (the starter core/first_use.hpp calls): they load as a batch
// would have at start-up, and a device type another plugin already serves shadows them. Out of
// memory: the batch rolls back and they wait for the next call.
void start_deferred_plugins() {
  std::lock_guard<std::mutex> lock(loader_mutex());
  LoadingScope loading;
  std::vector<Waiting> waiting = take_deferred();
  start_waiting(waiting);
  set_deferred_starter(nullptr);
}

}  // namespace

void load_plugins(const std::vector<LoadRequest>& requests, bool may_defer) {
  Batch b = load_batch(requests, may_defer);
  for (Owned& r : b.done) {
    if (r != nullptr) publish(std::move(r));
  }
  if (b.deferred.empty()) return;
  add_deferred(b.deferred);
  set_deferred_starter(&start_deferred_plugins);
}

void start_deferred_collectives() {
  std::lock_guard<std::mutex> lock(loader_mutex());
  LoadingScope loading;
  std::vector<Waiting> all = take_deferred();
  std::vector<Waiting> collectives, others;
  for (Waiting& w : all) (w.info.collective ? collectives : others).push_back(std::move(w));
  const bool drivers_wait = !others.empty();
  add_deferred(others);
  start_waiting(collectives);
  if (!drivers_wait) set_deferred_starter(nullptr);
}

std::vector<DeferredPlugin> deferred_plugins() {
  DeferredStore& d = deferred_store();
  std::lock_guard<std::mutex> lock(d.mutex);
  std::vector<DeferredPlugin> out;
  for (const Waiting& w : d.plugins) out.push_back(w.info);
  return out;
}

void load_one_plugin(const LoadRequest& request) {
  std::vector<Owned> done = load_batch({request}, false).done;
  const PluginRecord& r = *done.front();
  const bool loaded = r.state == KF_BACKEND_LOADED;
  const kf_status_t failure = r.failure;
  const std::string reason = loaded ? std::string() : r.reason;
  publish(std::move(done.front()));  // a failure may be left out of the table
  if (!loaded) fail(failure, "kf_load_plugin({}): {}", request.path, reason);
}

}  // namespace kf
