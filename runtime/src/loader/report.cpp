#include "loader/report.hpp"

#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/device_types.hpp"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "runtime_state.hpp"

namespace kf {
namespace {

struct Report {
  std::mutex mutex;
  std::vector<ReportStep> steps;
  std::vector<std::pair<std::string, std::string>> roots;
};

Report& report() {
  static Report* r = new Report();  // lives for the process
  return *r;
}

const char* state_name(kf_backend_state_t s) {
  switch (s) {
    case KF_BACKEND_LOADED: return "loaded";
    case KF_BACKEND_UNAVAILABLE: return "unavailable";
    case KF_BACKEND_REJECTED: return "rejected";
    case KF_BACKEND_SHADOWED: return "shadowed";
    case KF_BACKEND_STATE_MAX_ENUM: break;
  }
  return "unknown";
}

nlohmann::ordered_json environment() {
  nlohmann::ordered_json env = nlohmann::ordered_json::object();
  for (const char* name : {"KERNFORGE_PLUGIN_PATH", "KERNFORGE_AUTOLOAD",
                           "KERNFORGE_DISABLE_PLUGINS", "KERNFORGE_LOG_LEVEL",
                           "KERNFORGE_CPU_FALLBACK", "LD_LIBRARY_PATH"}) {
    const char* v = std::getenv(name);
    env[name] = v != nullptr ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
  }
  return env;
}

nlohmann::ordered_json backends_json() {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (int32_t i = 0; i < backend_count(); ++i) {
    const Backend* b = backend_by_index(i);
    list.push_back({{"name", b->name}, {"state", state_name(b->state)}, {"reason", b->reason},
                    {"version", b->version}, {"device_type", b->device_type_name},
                    {"device_count", b->device_count}, {"library", b->library_path},
                    {"manifest", b->manifest_path}, {"score", b->score},
                    {"priority", b->priority}});
  }
  return list;
}

}  // namespace

void report_step(ReportStep step) {
  Report& r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.steps.push_back(std::move(step));
}

void report_search_root(const std::string& path, const std::string& source) {
  Report& r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.roots.emplace_back(path, source);
}

std::string report_json() {
  nlohmann::ordered_json j;
  j["schema_version"] = 1;
  j["kernforge_version"] = kf_version();
  j["abi"] = {KF_ABI_VERSION_MAJOR, KF_ABI_VERSION_MINOR};
  j["plugin_abi"] = {KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR};
  j["environment"] = environment();
  j["backends"] = backends_json();
  Report& r = report();
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
  return j.dump(2);
}

}  // namespace kf
