#include "loader/driver_gate.hpp"

#include <filesystem>
#include <optional>
#include <system_error>

#include "loader/os.hpp"
#include "loader/search_roots.hpp"

namespace kf {
namespace {

struct Probe {
  bool found = false;
  std::string where;   // found: the path
  std::string looked;  // not found: what was looked for and where
};

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "(nothing)" : out;
}

// Exists, whatever it is (a device node, a folder, a file), following symbolic links.
bool exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::u8path(path), ec);
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Probe probe_library(const Manifest& m, const std::string& soname) {
  const SearchRoots roots = dependency_roots(m, {});
  for (const std::string& root : roots.folders) {
    const std::string path = find_in_folder(root, soname);
    if (!path.empty()) return Probe{true, path, ""};
  }
  const os::SystemLibrary sys = os::find_system_library(soname);
  if (!sys.path.empty()) return Probe{true, sys.path, ""};
  std::vector<std::string> places = roots.folders;
  places.insert(places.end(), sys.searched.begin(), sys.searched.end());
  return Probe{false, "", "library " + soname + " (searched " + joined(places) + ")"};
}

Probe probe_path(const Manifest& m, const DriverProbe& p) {
  std::string why;
  const std::optional<std::string> path = expand_manifest_path(p.value, m, why);
  const bool folder = p.kind == DriverProbe::Kind::folder;
  const std::string what = folder ? "folder " : "path ";
  const std::string entries = folder && !p.suffix.empty() ? " with a *" + p.suffix + " file" : "";
  if (!path) return Probe{false, "", what + p.value + entries + " (left out: " + why + ")"};
  if (!os::is_absolute(*path)) {
    return Probe{false, "", what + *path + entries + " (left out: not absolute)"};
  }
  if (!folder) return exists(*path) ? Probe{true, *path, ""} : Probe{false, "", what + *path};
  for (const std::string& entry : os::folder_entries(*path)) {
    if (ends_with(entry, p.suffix)) return Probe{true, entry, ""};
  }
  return Probe{false, "", what + *path + entries};
}

Probe probe(const Manifest& m, const DriverProbe& p) {
  return p.kind == DriverProbe::Kind::library ? probe_library(m, p.value) : probe_path(m, p);
}

}  // namespace

GateResult check_driver_gate(const Manifest& m) {
  GateResult out;
  std::vector<std::string> looked;
  for (const DriverProbe& p : m.driver.any_of) {
    const Probe r = probe(m, p);
    if (r.found) {
      out.found = "driver found: " + r.where;
      return out;
    }
    looked.push_back(r.looked);
  }
  if (looked.empty()) return out;
  out.met = false;
  std::string list;
  for (const std::string& s : looked) list += (list.empty() ? "" : "; or ") + s;
  out.reason = "no driver for it on this machine: none of " + list + " was found. Install " +
               m.driver.install + " (nothing of the plugin was loaded)";
  return out;
}

}  // namespace kf
