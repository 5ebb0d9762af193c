#include "loader/report.hpp"

#include <optional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "loader/collective_records.hpp"
#include "loader/json_document.hpp"
#include "loader/os.hpp"
#include "loader/plugin_loader.hpp"
#include "loader/plugin_records.hpp"

namespace kf {
namespace {

// Steps kept at most: a process that retries a failing kf_load_plugin forever must not grow
// without bound. Later steps are counted ("steps_dropped").
constexpr size_t kMaxSteps = 4096;

struct Report {
  std::mutex mutex;
  std::vector<ReportStep> steps;
  int64_t steps_dropped = 0;
  std::vector<std::pair<std::string, std::string>> roots;
  int64_t startup_micros = -1;
};

Report& report() {
  static Report* r = new Report();  // lives for the process
  return *r;
}

// Note [Building the report without aborting]
// nlohmann::json is unsafe when memory runs out in four ways: its destructor allocates
// (json_document.hpp, Note [nlohmann::json and out of memory]); indexing or appending to a null
// value leaves a broken value behind when the allocation fails (a later destructor crashes); an
// initializer list leaks what it built when it throws; and ordered_json's objects are vectors of
// pairs with const keys, which a reallocation copies (and destroys again, allocating, when a copy
// fails). So the report is built from containers made with Json::object() and Json::array(),
// each object with room for all its members first (objects(n)), members set one by one in place,
// and the document is emptied before it is destroyed (ReleaseJsonOnExit).
using Json = nlohmann::ordered_json;

// An empty object with room for `n` members (Note [Building the report without aborting]).
Json objects(size_t n) {
  Json o = Json::object();
  o.get_ref<Json::object_t&>().reserve(n);
  return o;
}

// out[key] = [a, b]
void put_pair(Json& out, const char* key, int64_t a, int64_t b) {
  Json& pair = out[key] = Json::array();
  pair.push_back(a);
  pair.push_back(b);
}

// The variables as the loader reads them (secure_getenv: null in a setuid process).
void put_environment(Json& out) {
  for (const char* name : env::runtime_variables()) {
    const std::optional<std::string> v = env::read(name);
    out[name] = v ? Json(*v) : Json(nullptr);
  }
}

void put_dependencies(const PluginRecord& b, Json& list) {
  for (const DependencyRecord& d : b.dependencies) {
    list.push_back(objects(4));
    Json& o = list.back();
    o["soname"] = d.soname;
    o["path"] = d.path;
    o["how"] = d.how;
    o["global"] = d.global;
  }
}

// What an unavailable plugin would run (kernel_catalogue.hpp): [{"op", "dtype_mask"}, ...], the
// plugin's own boxed fallback as op "*".
void put_catalogue(const PluginRecord& b, Json& list) {
  for (const CatalogueEntry& e : b.catalogue) {
    list.push_back(objects(2));
    Json& o = list.back();
    o["op"] = e.op;
    o["dtype_mask"] = e.dtype_mask;
  }
}

void put_backend(const PluginRecord& b, Json& o) {
  const kf_status_t status = b.state == KF_BACKEND_LOADED ? KF_OK : b.failure;
  o["name"] = b.name;
  o["state"] = backend_state_name(b.state);
  o["status"] = status_name(status);
  o["reason"] = b.reason;
  o["version"] = b.version;
  o["device_type"] = b.device_type_name;
  o["device_count"] = b.backend != nullptr ? b.backend->device_count : 0;
  o["library"] = b.library_path;
  o["manifest"] = b.manifest_path;
  o["score"] = b.score;
  o["priority"] = b.priority;
  o["source"] = b.source;
  o["details"] = plugin_details(b);
  o["shipped"] = b.shipped;
  o["preferred"] = b.preferred;
  put_dependencies(b, o["libraries"] = Json::array());
  put_catalogue(b, o["catalogue"] = Json::array());
}

void put_backends(Json& list) {
  for (int32_t i = 0; i < record_count(); ++i) {
    list.push_back(objects(17));
    put_backend(*record_at(i), list.back());
  }
}

// A collective plugin's describe() line ("" without one, or when it throws).
std::string collective_details(const PluginRecord& b) {
  const kf_collective_plugin_t* p = b.collective_plugin;
  if (p == nullptr || b.plugin_struct_size < KF_COLLECTIVE_SLOT_END(describe) ||
      p->describe == nullptr) {
    return "";
  }
  try {
    const char* text = p->describe();
    return text != nullptr ? text : "";
  } catch (...) {
    return "";
  }
}

// The collective plugins (collective_records.hpp), each as a backend is, less devices and
// selection.
void put_collectives(Json& list) {
  for (int32_t i = 0; i < collective_count(); ++i) {
    const PluginRecord& b = *collective_at(i);
    list.push_back(objects(10));
    Json& o = list.back();
    o["name"] = b.name;
    o["state"] = backend_state_name(b.state);
    o["status"] = status_name(b.state == KF_BACKEND_LOADED ? KF_OK : b.failure);
    o["reason"] = b.reason;
    o["version"] = b.version;
    o["device_type"] = b.device_type_name;
    o["library"] = b.library_path;
    o["manifest"] = b.manifest_path;
    o["source"] = b.source;
    o["details"] = collective_details(b);
  }
}

// The plugins waiting for their first use (core/first_use.hpp): not yet in "backends".
void put_deferred(Json& list) {
  for (const DeferredPlugin& p : deferred_plugins()) {
    list.push_back(objects(5));
    Json& o = list.back();
    o["name"] = p.name;
    o["device_type"] = p.device_type;
    o["library"] = p.library_path;
    o["manifest"] = p.manifest_path;
    o["source"] = p.source;
  }
}

void put_step(const ReportStep& s, Json& o) {
  o["what"] = s.what;
  o["plugin"] = s.plugin;
  o["path"] = s.path;
  o["result"] = s.result;
  o["reason"] = s.reason;
  o["micros"] = s.micros;
}

// Which plugin serves each device type (selection.hpp), and the shipped plugin it replaces.
void put_device_types(Json& types) {
  for (int32_t i = 0; i < record_count(); ++i) {
    const PluginRecord* b = record_at(i);
    if (b->state != KF_BACKEND_LOADED) continue;
    std::string replaces;
    for (int32_t k = 0; k < record_count() && !b->shipped; ++k) {
      const PluginRecord* o = record_at(k);
      if (o->shipped && o->device_type_name == b->device_type_name) replaces = o->name;
    }
    Json& t = types[b->device_type_name] = objects(5);
    t["plugin"] = b->name;
    t["library"] = b->library_path;
    t["shipped"] = b->shipped;
    t["preferred"] = b->preferred;
    t["replaces_shipped"] = replaces;
  }
}

}  // namespace

void report_step(ReportStep step) {
  Report& r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.steps.size() >= kMaxSteps) {
    ++r.steps_dropped;
    return;
  }
  r.steps.push_back(std::move(step));
}

void set_startup_micros(int64_t micros) {
  Report& r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.startup_micros = micros;
}

void report_search_root(const std::string& path, const std::string& source) {
  Report& r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& root : r.roots) {
    if (root.first == path && root.second == source) return;  // a start-up run again
  }
  r.roots.emplace_back(path, source);
}

std::string report_json() {
  Json j = objects(15);
  const ReleaseJsonOnExit<Json> release(j);  // Note [Building the report without aborting]
  j["schema_version"] = 1;
  j["kernforge_version"] = KF_VERSION_STRING;
  put_pair(j, "abi", KF_ABI_VERSION_MAJOR, KF_ABI_VERSION_MINOR);
  put_pair(j, "plugin_abi", KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR);
  j["core_library"] = os::core_library_path();
  Report& r = report();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    j["startup_micros"] = r.startup_micros;
  }
  put_environment(j["environment"] = objects(env::runtime_variables().size()));
  put_backends(j["backends"] = Json::array());
  put_deferred(j["deferred"] = Json::array());
  put_collectives(j["collectives"] = Json::array());
  put_device_types(j["device_types"] = objects(static_cast<size_t>(record_count())));
  j["unlisted_failures"] = unlisted_failures();  // Note [A bounded plugin table]
  std::lock_guard<std::mutex> lock(r.mutex);
  Json& roots = j["search_roots"] = Json::array();
  for (const auto& [path, source] : r.roots) {
    roots.push_back(objects(2));
    roots.back()["path"] = path;
    roots.back()["source"] = source;
  }
  Json& steps = j["steps"] = Json::array();
  for (const ReportStep& s : r.steps) {
    steps.push_back(objects(6));
    put_step(s, steps.back());
  }
  j["steps_dropped"] = r.steps_dropped;
  // Outside strings (paths, manifest fields, dlerror texts, what plugins say, variables) may be
  // any bytes: invalid UTF-8 becomes U+FFFD here, the one place the report becomes text.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace kf
