#include "loader/report.hpp"

#include <optional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "loader/os.hpp"
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

// The variables as the loader reads them (secure_getenv: null in a setuid process).
nlohmann::ordered_json environment() {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  for (const char* name : env::runtime_variables()) {
    const std::optional<std::string> v = env::read(name);
    env[name] = v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  }
  return env;
}

nlohmann::ordered_json dependencies_json(const PluginRecord& b) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const DependencyRecord& d : b.dependencies) {
    list.push_back({{"soname", d.soname}, {"path", d.path}, {"how", d.how},
                    {"global", d.global}});
  }
  return list;
}

nlohmann::ordered_json backends_json() {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (int32_t i = 0; i < record_count(); ++i) {
    const PluginRecord* b = record_at(i);
    const kf_status_t status = b->state == KF_BACKEND_LOADED ? KF_OK : b->failure;
    list.push_back({{"name", b->name}, {"state", backend_state_name(b->state)},
                    {"status", status_name(status)}, {"reason", b->reason},
                    {"version", b->version}, {"device_type", b->device_type_name},
                    {"device_count", b->backend != nullptr ? b->backend->device_count : 0},
                    {"library", b->library_path},
                    {"manifest", b->manifest_path}, {"score", b->score},
                    {"priority", b->priority}, {"source", b->source}, {"details", b->details},
                    {"shipped", b->shipped}, {"preferred", b->preferred},
                    {"libraries", dependencies_json(*b)}});
  }
  return list;
}

// Which plugin serves each device type (selection.hpp), and the shipped plugin it replaces.
nlohmann::ordered_json device_types_json() {
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  for (int32_t i = 0; i < record_count(); ++i) {
    const PluginRecord* b = record_at(i);
    if (b->state != KF_BACKEND_LOADED) continue;
    std::string replaces;
    for (int32_t k = 0; k < record_count() && !b->shipped; ++k) {
      const PluginRecord* o = record_at(k);
      if (o->shipped && o->device_type_name == b->device_type_name) replaces = o->name;
    }
    types[b->device_type_name] = {{"plugin", b->name}, {"library", b->library_path},
                                  {"shipped", b->shipped}, {"preferred", b->preferred},
                                  {"replaces_shipped", replaces}};
  }
  return types;
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
  r.roots.emplace_back(path, source);
}

std::string report_json() {
  nlohmann::ordered_json j;
  j["schema_version"] = 1;
  j["kernforge_version"] = KF_VERSION_STRING;
  j["abi"] = {KF_ABI_VERSION_MAJOR, KF_ABI_VERSION_MINOR};
  j["plugin_abi"] = {KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR};
  j["core_library"] = os::core_library_path();
  Report& r = report();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    j["startup_micros"] = r.startup_micros;
  }
  j["environment"] = environment();
  j["backends"] = backends_json();
  j["device_types"] = device_types_json();
  j["unlisted_failures"] = unlisted_failures();  // Note [A bounded plugin table]
  std::lock_guard<std::mutex> lock(r.mutex);
  j["search_roots"] = nlohmann::ordered_json::array();
  for (const auto& [path, source] : r.roots) {
    j["search_roots"].push_back({{"path", path}, {"source", source}});
  }
  j["steps"] = nlohmann::ordered_json::array();
  for (const ReportStep& s : r.steps) {
    j["steps"].push_back({{"what", s.what}, {"plugin", s.plugin}, {"path", s.path},
                          {"result", s.result}, {"reason", s.reason}, {"micros", s.micros}});
  }
  j["steps_dropped"] = r.steps_dropped;
  // Outside strings (paths, manifest fields, dlerror texts, what plugins say, variables) may be
  // any bytes: invalid UTF-8 becomes U+FFFD here, the one place the report becomes text.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace kf
