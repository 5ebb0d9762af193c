#include "doctor_serving.hpp"

#include "text_table.hpp"

namespace kf::cli {
namespace {

std::string origin(const ReportBackend& b) {
  if (b.shipped) return "shipped with kernforge";
  return b.source.empty() ? "not shipped with kernforge" : b.source;
}

std::string replacement_text(const Serving& s) {
  const ReportBackend& b = *s.plugin;
  return "device type " + s.device_type + " is served by plugin '" + b.name + "' (" + b.library +
         (b.source.empty() ? "" : ", from " + b.source) + "), not by '" + s.replaces +
         "' shipped with kernforge";
}

}  // namespace

std::vector<Serving> serving(const LoadReport& report) {
  std::vector<Serving> out;
  for (const ReportBackend& b : report.backends) {
    if (b.state != "loaded") continue;
    Serving s{&b, b.device_type, ""};
    for (const ReportBackend& o : report.backends) {
      if (!b.shipped && o.shipped && o.device_type == b.device_type) s.replaces = o.name;
    }
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> unchosen_replacements(const LoadReport& report) {
  std::vector<std::string> out;
  for (const Serving& s : serving(report)) {
    if (!s.replaces.empty() && !s.plugin->preferred) out.push_back(replacement_text(s));
  }
  return out;
}

void print_serving(const LoadReport& report, std::ostream& out) {
  const std::vector<Serving> all = serving(report);
  if (all.empty()) return;
  out << "device types:\n";
  TextTable table({"type", "plugin", "from"});
  for (const Serving& s : all) {
    table.add_row({s.device_type, s.plugin->name,
                   origin(*s.plugin) + (s.plugin->preferred ? ", KERNFORGE_PREFER_PLUGINS" : "")});
  }
  table.print(out, "  ");
  for (const Serving& s : all) {
    if (s.replaces.empty()) continue;
    out << "  warning: " << replacement_text(s)
        << (s.plugin->preferred
                ? "; KERNFORGE_PREFER_PLUGINS chose it"
                : "; nothing asked for that: remove the plugin, or set KERNFORGE_PREFER_PLUGINS=" +
                      s.device_type + "=" + s.plugin->name + " if it is meant to")
        << "\n";
  }
}

}  // namespace kf::cli
