#include "doctor_verdict.hpp"

#include <string>
#include <vector>

#include "abi_names.hpp"
#include "doctor_serving.hpp"

namespace kf::cli {
namespace {

std::vector<std::string> names_in_state(const std::vector<ReportBackend>& plugins,
                                        const std::string& state) {
  std::vector<std::string> names;
  for (const ReportBackend& b : plugins) {
    if (b.state == state) names.push_back(b.name);
  }
  return names;
}

// "; collective engines: gloo, mpi" when some are loaded.
std::string engines_loaded(const LoadReport& r) {
  const std::vector<std::string> engines = names_in_state(r.collectives, "loaded");
  return engines.empty() ? "" : "; collective engine(s): " + join(engines, ", ");
}

bool global_deps_failed(const LoadReport& r) {
  for (const ReportStep& s : r.steps) {
    if (s.what == "global_deps" && s.result == "failed") return true;
  }
  return false;
}

std::string env_value(const LoadReport& r, const std::string& name) {
  for (const auto& [key, value] : r.environment) {
    if (key == name) return value;
  }
  return "";
}

// Why nothing loaded, in a few words, with what to do.
std::string why_nothing_loaded(const LoadReport& r) {
  if (env_value(r, "KERNFORGE_AUTOLOAD") == "0") {
    return "KERNFORGE_AUTOLOAD=0 turned plugin discovery off (unset it, or load plugins with "
           "kf_init's plugin_paths or kf_load_plugin)";
  }
  if (r.backends.empty()) {
    return "no plugin manifest was found in the search roots (reinstall the cpu backend, or set "
           "KERNFORGE_PLUGIN_PATH to a folder holding plugin manifests)";
  }
  return std::to_string(r.backends.size()) + " plugin(s) found, none loaded (see the reasons "
         "and what to do above)";
}

}  // namespace

DoctorVerdict doctor_verdict(const LoadReport& report) {
  const std::vector<std::string> loaded = names_in_state(report.backends, "loaded");
  if (loaded.empty()) {
    return {kDoctorNoBackend, "kernforge doctor: no usable backend: " + why_nothing_loaded(report)};
  }
  std::vector<std::string> rejected = names_in_state(report.backends, "rejected");
  for (const std::string& name : names_in_state(report.collectives, "rejected")) {
    rejected.push_back(name);  // a collective plugin refused is as much a fault as a backend
  }
  const bool deps_failed = global_deps_failed(report);
  const std::vector<std::string> replaced = unchosen_replacements(report);
  if (!rejected.empty() || deps_failed || !replaced.empty()) {
    std::vector<std::string> parts;
    if (!rejected.empty()) {
      parts.push_back(std::to_string(rejected.size()) + " plugin(s) rejected (" +
                      join(rejected, ", ") + ")");
    }
    if (deps_failed) parts.push_back("the global dependencies failed to load");
    parts.insert(parts.end(), replaced.begin(), replaced.end());
    return {kDoctorDegraded, "kernforge doctor: degraded: " + join(parts, "; ")};
  }
  return {kDoctorAllWell, "kernforge doctor: all well (" + std::to_string(loaded.size()) +
                              " backend(s) loaded: " + join(loaded, ", ") +
                              engines_loaded(report) + ")"};
}

}  // namespace kf::cli
