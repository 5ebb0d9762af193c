#include "loader/search_roots.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <system_error>

#include "core/environment.hpp"
#include "loader/os.hpp"

namespace kf {
namespace {

namespace fs = std::filesystem;

std::vector<std::string>& roots_storage() {
  static auto* r = new std::vector<std::string>();
  return *r;
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces $ORIGIN, $NAME and ${NAME}; nullopt (with `why`) when a variable is unset or empty.
std::optional<std::string> expand_variables(const std::string& entry, const std::string& origin,
                                            std::string& why) {
  std::string out;
  for (size_t i = 0; i < entry.size(); ++i) {
    if (entry[i] != '$') {
      out += entry[i];
      continue;
    }
    const bool braced = i + 1 < entry.size() && entry[i + 1] == '{';
    size_t start = i + (braced ? 2 : 1), end = start;
    while (end < entry.size() && name_char(entry[end])) ++end;
    const std::string name = entry.substr(start, end - start);
    if (name.empty() || (braced && (end >= entry.size() || entry[end] != '}'))) {
      why = "malformed variable reference";
      return std::nullopt;
    }
    i = braced ? end : end - 1;
    if (name == "ORIGIN") {
      out += origin;
      continue;
    }
    const std::optional<std::string> value = env::read(name.c_str());
    if (!value || value->empty()) {
      why = "$" + name + " is not set";
      return std::nullopt;
    }
    out += *value;
  }
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& folder) {
  if (std::find(list.begin(), list.end(), folder) == list.end()) list.push_back(folder);
}

void add_entry(const std::string& entry, const Manifest& m,
               const std::vector<std::string>& folders, SearchRoots& out) {
  std::string why;
  const std::optional<std::string> expanded = expand_variables(entry, m.dir, why);
  if (!expanded) {
    out.dropped.push_back(entry + ": " + why);
    return;
  }
  std::vector<std::string> paths;
  const size_t at = expanded->find("{folder}");
  if (at == std::string::npos) {
    paths.push_back(*expanded);
  } else {
    if (folders.empty()) out.dropped.push_back(entry + ": the library lists no \"folders\"");
    for (const std::string& f : folders) {
      paths.push_back(std::string(*expanded).replace(at, 8, f));
    }
  }
  for (const std::string& p : paths) {
    if (!os::is_absolute(p)) {
      out.dropped.push_back(entry + ": " + p + " is not absolute");
      continue;
    }
    add_unique(out.folders, fs::path(p).lexically_normal().string());
  }
}

// Splits "libfoo.so.12.4.1" after the soname prefix into numbers for a version sort.
std::vector<long> version_of(const std::string& suffix) {
  std::vector<long> v;
  size_t i = 0;
  while (i < suffix.size()) {
    size_t j = i;
    while (j < suffix.size() && std::isdigit(static_cast<unsigned char>(suffix[j]))) ++j;
    v.push_back(j > i ? std::stol(suffix.substr(i, std::min<size_t>(j - i, 9))) : -1);
    i = j + 1;
  }
  return v;
}

}  // namespace

std::optional<std::string> expand_manifest_path(const std::string& entry, const Manifest& m,
                                                std::string& why) {
  return expand_variables(entry, m.dir, why);
}

SearchRoots dependency_roots(const Manifest& m, const std::vector<std::string>& folders) {
  SearchRoots out;
  for (const std::string& entry : m.search) add_entry(entry, m, folders, out);
  for (const std::string& root : library_roots()) {
    for (const std::string& f : folders) {
      add_unique(out.folders, (fs::path(root) / "nvidia" / f / "lib").lexically_normal().string());
    }
  }
  return out;
}

void set_library_roots(std::vector<std::string> roots) { roots_storage() = std::move(roots); }

const std::vector<std::string>& library_roots() { return roots_storage(); }

std::string find_in_folder(const std::string& folder, const std::string& soname) {
  std::error_code ec;
  const fs::path exact = fs::path(folder) / soname;
  if (fs::exists(exact, ec)) return exact.string();
  std::string best;
  std::vector<long> best_version;
  for (const std::string& path : os::folder_entries(folder)) {
    const std::string name = fs::path(path).filename().string();
    if (name.size() <= soname.size() + 1 || name.compare(0, soname.size(), soname) != 0 ||
        name[soname.size()] != '.') {
      continue;
    }
    const std::vector<long> v = version_of(name.substr(soname.size() + 1));
    if (best.empty() || v > best_version || (v == best_version && path < best)) {
      best = path;
      best_version = v;
    }
  }
  return best;
}

}  // namespace kf
