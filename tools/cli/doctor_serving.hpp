// doctor_serving.hpp — which plugin serves each device type, as `kernforge doctor` tells it, and
// whether it replaces the plugin shipped with kernforge for that type (docs/loader.md: a plugin
// from elsewhere replaces a shipped one only when KERNFORGE_PREFER_PLUGINS names it).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "load_report.hpp"

namespace kf::cli {

struct Serving {
  const ReportBackend* plugin = nullptr;  // the loaded plugin serving `device_type`
  std::string device_type;
  std::string replaces;  // the shipped plugin of that device type it replaces, "" when none
};

/// One entry per device type a loaded plugin serves, in the report's order.
std::vector<Serving> serving(const LoadReport& report);
/// "device type cpu is served by ..." for each replacement of a shipped plugin that
/// KERNFORGE_PREFER_PLUGINS did not ask for (they make the verdict "degraded").
std::vector<std::string> unchosen_replacements(const LoadReport& report);
/// The "device types:" section and a warning line under it for every replacement.
void print_serving(const LoadReport& report, std::ostream& out);

}  // namespace kf::cli
