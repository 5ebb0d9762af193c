#include "doctor_hints.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "abi_names.hpp"

namespace kf::cli {
namespace {

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

std::string upper(std::string s) {
  for (char& c : s) {
    c = std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_';
  }
  return s;
}

// The libraries the report lists as missing that the reason names (an optional one that is
// missing, e.g. the CUDA driver on a machine without a GPU, did not stop the plugin: its reason
// is its own); else the one a "required library X ..." reason names; else nothing.
std::vector<std::string> missing_libraries(const ReportBackend& b) {
  std::vector<std::string> missing;
  for (const ReportLibrary& l : b.libraries) {
    if (l.how == "missing" && has(b.reason, ("library " + l.soname + " ").c_str())) {
      missing.push_back(l.soname);
    }
  }
  const std::string marker = "required library ";
  const size_t at = b.reason.find(marker);
  if (missing.empty() && at != std::string::npos) {
    const size_t start = at + marker.size();
    missing.push_back(b.reason.substr(start, b.reason.find(' ', start) - start));
  }
  return missing;
}

// The path an insecurity reason names ("... <path> is world-writable ..."), else `fallback`.
std::string insecure_path(const ReportBackend& b, const std::string& fallback) {
  for (const char* marker : {" is world-writable", " is owned by"}) {
    const size_t at = b.reason.find(marker);
    if (at == std::string::npos || at == 0) continue;
    const size_t space = b.reason.rfind(' ', at - 1);
    const size_t start = space == std::string::npos ? 0 : space + 1;
    return b.reason.substr(start, at - start);
  }
  return fallback;
}

std::string or_text(const std::string& s, const char* fallback) { return s.empty() ? fallback : s; }

std::string missing_dependency_hint(const ReportBackend& b, const std::vector<std::string>& libs) {
  return "install " + join(libs, ", ") + " or point KERNFORGE_" + upper(b.name) +
         "_HOME (or the \"search\" list of the manifest " + or_text(b.manifest, "of the plugin") +
         ") at the folder that holds it";
}

std::string rejected_hint(const ReportBackend& b) {
  if (has(b.reason, "not a regular file")) {
    return "a FIFO, a device or a folder stands where a plugin file should be: remove it, or put "
           "the plugin's own file in its place";
  }
  if (has(b.reason, "kf_plugin_t.device_type")) {
    return "the manifest " + or_text(b.manifest, "of the plugin") + " declares another device "
           "type than the plugin serves: fix its \"device_type\", or reinstall the plugin";
  }
  if (has(b.reason, "manifest ") && (has(b.reason, "field") || has(b.reason, "JSON") ||
                                     has(b.reason, "limit"))) {
    return "fix the manifest " + or_text(b.manifest, "named above") +
           " as the reason says, or remove it from the search roots";
  }
  if (has(b.reason, "does not export")) {
    return "it is not a kernforge plugin: remove its manifest " +
           or_text(b.manifest, "from the search roots");
  }
  if (has(b.reason, "cannot load") || has(b.reason, "dlopen")) {
    return "the file " + or_text(b.library, "named above") + " is not a loadable library for "
           "this machine (empty, truncated or built for another architecture): reinstall the "
           "plugin, or remove its manifest " + or_text(b.manifest, "from the search roots");
  }
  if (has(b.reason, "init failed")) {
    return "the plugin failed to start for a reason other than missing hardware: report it to "
           "its authors with the reason above";
  }
  return "report it to the plugin's authors with the reason above; remove its manifest " +
         or_text(b.manifest, "from the search roots") + " to silence this";
}

std::string unavailable_hint(const ReportBackend& b) {
  if (has(b.reason, "requires ")) {
    return "this machine lacks what the manifest requires; nothing to do unless you expected "
           "this backend to run here";
  }
  if (b.status == "KF_NOT_FOUND" || has(b.reason, "does not exist") ||
      has(b.reason, "cannot be opened")) {
    return "a file of the plugin is missing: reinstall the plugin, or fix the \"library\" field "
           "of its manifest " + or_text(b.manifest, "");
  }
  if (has(b.reason, "score 0")) {
    return "the plugin says it cannot run on this machine; nothing to do unless you expected "
           "it to";
  }
  return "its driver or device is missing: install the driver if this machine has the device; "
         "otherwise nothing to do";
}

}  // namespace

std::string doctor_hint(const ReportBackend& b, const LoadReport& report) {
  if (b.state == "loaded") return "";
  if (b.state == "shadowed" && has(b.reason, "is shipped with kernforge")) {
    return "the plugin shipped with kernforge serves device type " + b.device_type +
           "; set KERNFORGE_PREFER_PLUGINS=" + b.device_type + "=" + b.name +
           " to use this one instead";
  }
  if (b.state == "shadowed") {
    return "it is a lower-priority build of a loaded backend; nothing to do";
  }
  if (has(b.reason, "KERNFORGE_DISABLE_PLUGINS")) {
    return "unset KERNFORGE_DISABLE_PLUGINS (or remove '" + b.name + "' from it) to load it";
  }
  if (b.status == "KF_ABI_MISMATCH" || has(b.reason, "does not match the host")) {
    return "rebuild the plugin against kernforge " + or_text(report.kernforge_version, "") +
           (report.plugin_abi.empty() ? "" : " (plugin ABI " + report.plugin_abi + ")");
  }
  if (b.status == "KF_PERMISSION_DENIED" || has(b.reason, "world-writable") ||
      has(b.reason, "owned by") ||
      has(b.reason, "KERNFORGE_ALLOW_INSECURE_PLUGINS") || has(b.reason, "insecure")) {
    return "fix the permissions (chmod o-w " + insecure_path(b, or_text(b.library, "<path>")) +
           ", or chown it to root or to yourself) or set KERNFORGE_ALLOW_INSECURE_PLUGINS=1";
  }
  const std::vector<std::string> missing = missing_libraries(b);
  if (!missing.empty()) return missing_dependency_hint(b, missing);
  if (b.state == "rejected") return rejected_hint(b);
  return unavailable_hint(b);
}

std::string global_deps_hint(const ReportStep& step) {
  return "the core's global dependencies (" + or_text(step.path, "libkernforge_global_deps") +
         ") did not load: reinstall kernforge, or install the library the reason names";
}

}  // namespace kf::cli
