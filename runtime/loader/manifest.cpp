#include "loader/manifest.hpp"

#include <climits>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "loader/json_document.hpp"

namespace kf {
namespace {

using json = nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& field, const std::string& why) {
  fail(KF_INVALID_ARGUMENT, "manifest {}: field '{}' {}", path, field, why);
}

const json& field(const json& j, const std::string& path, const char* name, json::value_t type,
                  bool required) {
  static const json null_value;
  auto it = j.find(name);
  if (it == j.end()) {
    if (required) bad(path, name, "is missing");
    return null_value;
  }
  if (type == json::value_t::number_integer) {
    if (!it->is_number_integer()) {
      bad(path, name, std::string("must be an integer, got ") + it->type_name() + " " + it->dump());
    }
    return *it;
  }
  if (it->type() != type) {
    bad(path, name, std::string("must be ") + json(type).type_name() + ", got " + it->type_name());
  }
  return *it;
}

// An integer field in [lo, hi]; fractions, strings and out-of-range values are rejected.
int64_t integer(const json& v, const std::string& path, const char* name, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) {
    bad(path, name, std::string("must be an integer, got ") + v.type_name() + " " + v.dump());
  }
  if (v.is_number_unsigned() ? v.get<uint64_t>() > static_cast<uint64_t>(hi)
                             : (v.get<int64_t>() < lo || v.get<int64_t>() > hi)) {
    bad(path, name, fmt::format("is {}, outside {}..{}", v.dump(), lo, hi));
  }
  return v.get<int64_t>();
}

std::vector<std::string> strings(const json& j, const std::string& path, const char* name) {
  std::vector<std::string> out;
  const json& a = field(j, path, name, json::value_t::array, false);
  if (a.is_null()) return out;
  for (const json& s : a) {
    if (!s.is_string()) bad(path, name, "must be an array of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

// A dependency is named by its soname alone: where it comes from is decided by the search roots
// and the system search, which check every file (a path would skip them).
void check_soname(const std::string& path, const char* name, const std::string& soname) {
  bool control = false;
  for (const char c : soname) control = control || static_cast<unsigned char>(c) < 0x20;
  if (soname.empty() || soname == "." || control ||
      soname.find_first_of("/\\:") != std::string::npos || soname.find("..") != std::string::npos) {
    bad(path, name, "has '" + soname + "', which is not a library name: a soname such as "
                    "libfoo.so.1 or foo.dll, without '/', '\\', ':' or '..'. Put the folder "
                    "that holds it in the manifest's \"search\" list instead");
  }
}

// The keys of `obj` must be among `known` (a misspelt key must not be ignored).
void only_keys(const json& obj, const std::string& path, const char* name,
               const std::set<std::string>& known, const char* listed) {
  for (const auto& item : obj.items()) {
    if (known.count(item.key()) == 0) {
      bad(path, name, "has the unknown key '" + item.key() + "'; the keys are " + listed +
                          " (a misspelt requirement must not be ignored)");
    }
  }
}

// A gate's path or folder: absolute, or starting with a variable ($ORIGIN, $VAR, ${VAR}) that
// makes it absolute; no '..' component, no control character.
void check_gate_path(const std::string& path, const char* key, const std::string& value) {
  const std::string name = std::string("requires.driver.any_of ") + key;
  bool control = false;
  for (const char c : value) control = control || static_cast<unsigned char>(c) < 0x20;
  const bool rooted = !value.empty() && (value[0] == '/' || value[0] == '$');
  if (!rooted || control) {
    bad(path, name.c_str(), "is '" + value + "', which is not an absolute path (or one starting "
        "with $ORIGIN or $VARIABLE). A library is named by its soname: write {\"library\": \"" +
        value + "\"} instead");
  }
  const std::filesystem::path p = std::filesystem::u8path(value);
  for (const auto& part : p) {
    if (part == "..") {
      bad(path, name.c_str(), "is '" + value + "', which holds '..'; name the folder itself");
    }
  }
}

DriverProbe parse_probe(const json& e, const std::string& path) {
  const char* const name = "requires.driver.any_of";
  if (!e.is_object()) bad(path, name, std::string("must be an array of objects, got ") + e.type_name());
  only_keys(e, path, name, {"library", "path", "folder", "suffix"}, "library, path, folder and suffix");
  DriverProbe p;
  int kinds = 0;
  for (const auto& [key, kind] : {std::pair{"library", DriverProbe::Kind::library},
                                  std::pair{"path", DriverProbe::Kind::path},
                                  std::pair{"folder", DriverProbe::Kind::folder}}) {
    const json& v = field(e, path, key, json::value_t::string, false);
    if (v.is_null()) continue;
    ++kinds;
    p.kind = kind;
    p.value = v.get<std::string>();
  }
  if (kinds != 1) {
    bad(path, name, "has an entry " + e.dump() + " with " + std::to_string(kinds) + " of "
        "library, path and folder; each entry names exactly one");
  }
  if (p.kind == DriverProbe::Kind::library) check_soname(path, name, p.value);
  if (p.kind != DriverProbe::Kind::library) {
    check_gate_path(path, p.kind == DriverProbe::Kind::path ? "path" : "folder", p.value);
  }
  const json& suffix = field(e, path, "suffix", json::value_t::string, false);
  if (!suffix.is_null()) {
    p.suffix = suffix.get<std::string>();
    if (p.kind != DriverProbe::Kind::folder) bad(path, name, "has a suffix without a folder");
    if (p.suffix.empty() || p.suffix.find_first_of("/\\") != std::string::npos) {
      bad(path, name, "has the suffix '" + p.suffix + "'; a suffix is the end of a file name, "
          "such as .icd, without '/'");
    }
  }
  return p;
}

// "driver": {"any_of": [{"library": ...} | {"path": ...} | {"folder": ..., "suffix": ...}],
// "install": "what to install"}.
void parse_driver(const json& r, const std::string& path, Manifest& m) {
  const json& d = field(r, path, "driver", json::value_t::object, false);
  if (d.is_null()) return;
  only_keys(d, path, "requires.driver", {"any_of", "install"}, "any_of and install");
  const json& any_of = field(d, path, "any_of", json::value_t::array, true);
  if (any_of.empty()) bad(path, "requires.driver.any_of", "is empty; list what the driver is");
  for (const json& e : any_of) m.driver.any_of.push_back(parse_probe(e, path));
  m.driver.install = field(d, path, "install", json::value_t::string, true).get<std::string>();
  if (m.driver.install.empty()) {
    bad(path, "requires.driver.install", "is empty; say what to install to get the driver");
  }
}

void parse_requires(const json& j, const std::string& path, Manifest& m) {
  const json& r = field(j, path, "requires", json::value_t::object, false);
  if (r.is_null()) return;
  only_keys(r, path, "requires", {"os", "arch", "cpu_features", "driver", "kernforge"},
            "os, arch, cpu_features, driver and kernforge");
  parse_driver(r, path, m);
  const json& os = field(r, path, "os", json::value_t::string, false);
  const json& arch = field(r, path, "arch", json::value_t::string, false);
  if (!os.is_null()) m.requires_os = os.get<std::string>();
  if (!arch.is_null()) m.requires_arch = arch.get<std::string>();
  const json& core = field(r, path, "kernforge", json::value_t::string, false);
  if (!core.is_null()) {
    m.requires_kernforge = core.get<std::string>();
    if (m.requires_kernforge.empty()) {
      bad(path, "requires.kernforge", "is empty; it is the exact kernforge version the plugin "
          "was built with, such as \"0.2.0\" (leave the key out to accept any)");
    }
  }
  m.cpu_features = strings(r, path, "cpu_features");
}

void parse_preload(const json& j, const std::string& path, Manifest& m) {
  const json& p = field(j, path, "preload", json::value_t::array, false);
  if (p.is_null()) return;
  for (const json& e : p) {
    if (!e.is_object()) bad(path, "preload", "must be an array of objects");
    PreloadEntry entry;
    entry.soname = field(e, path, "soname", json::value_t::string, true).get<std::string>();
    check_soname(path, "preload", entry.soname);
    entry.folders = strings(e, path, "folders");
    const json& req = field(e, path, "required", json::value_t::boolean, false);
    entry.required = req.is_null() ? true : req.get<bool>();
    m.preload.push_back(std::move(entry));
  }
}

// "activation": "startup" (the default) or "first_use" (Note [Backends started on first use],
// core/first_use.hpp).
void parse_activation(const json& j, const std::string& path, Manifest& m) {
  const json& activation = field(j, path, "activation", json::value_t::string, false);
  if (activation.is_null()) return;
  const std::string value = activation.get<std::string>();
  if (value != "startup" && value != "first_use") {
    bad(path, "activation", "is '" + value + "'; it must be \"startup\" (the default: the "
        "plugin starts with the runtime) or \"first_use\" (it starts when the process first "
        "needs it)");
  }
  m.first_use = value == "first_use";
}

// "manifest_version": 1 (a device plugin) or 2, which adds "kind": "device" or "collective"
// (a new kind of plugin raises the version, so an older loader refuses what it cannot load).
void parse_kind(const json& j, const std::string& path, Manifest& m) {
  const int64_t version = integer(
      field(j, path, "manifest_version", json::value_t::number_integer, true), path,
      "manifest_version", 0, INT32_MAX);
  if (version != 1 && version != 2) {
    bad(path, "manifest_version", "is " + std::to_string(version) + "; this kernforge reads "
        "versions 1 and 2 (2 adds \"kind\"): install a newer kernforge for this plugin");
  }
  const json& kind = field(j, path, "kind", json::value_t::string, version == 2);
  if (kind.is_null()) return;
  if (version == 1) {
    bad(path, "kind", "needs \"manifest_version\": 2 (version 1 manifests are device plugins)");
  }
  m.kind = kind.get<std::string>();
  if (m.kind != "device" && m.kind != "collective") {
    bad(path, "kind", "is '" + m.kind + "'; it must be \"device\" (a backend) or "
        "\"collective\" (a collective engine: docs/distributed.md)");
  }
}

}  // namespace

std::string Manifest::library_path() const {
  const std::filesystem::path lib = std::filesystem::u8path(library);
  if (lib.is_absolute()) return library;
  return (std::filesystem::u8path(dir) / lib).u8string();
}

Manifest parse_manifest_text(const std::string& text, const std::string& path) {
  if (text.size() > kMaxManifestBytes) {
    fail(KF_INVALID_ARGUMENT, "manifest {}: {} bytes is over the limit of {}", path, text.size(),
         kMaxManifestBytes);
  }
  json j;
  const ReleaseJsonOnExit<json> release(j);  // Note [nlohmann::json and out of memory]
  const TooDeep too_deep = [&](const std::string& top_key) {
    bad(path, top_key.empty() ? "(top level)" : top_key,
        fmt::format("nests deeper than {} levels", kMaxManifestDepth));
  };
  const KeyTwice key_twice = [&](const std::string& top_key, const std::string& key,
                                 bool top_level) {
    bad(path, top_key, top_level ? "appears twice" : "has the key '" + key + "' twice");
  };
  try {
    j = parse_json_document(text, kMaxManifestDepth, too_deep, key_twice);
  } catch (const json::exception& e) {
    fail(KF_INVALID_ARGUMENT, "manifest {}: not valid JSON: {}", path, e.what());
  }
  if (!j.is_object()) fail(KF_INVALID_ARGUMENT, "manifest {}: must be a JSON object", path);
  Manifest m;
  m.path = path;
  m.dir = std::filesystem::u8path(path).parent_path().u8string();
  parse_kind(j, path, m);
  m.name = field(j, path, "name", json::value_t::string, true).get<std::string>();
  m.library = field(j, path, "library", json::value_t::string, true).get<std::string>();
  m.device_type = field(j, path, "device_type", json::value_t::string, true).get<std::string>();
  const json& abi = field(j, path, "abi", json::value_t::array, true);
  if (abi.size() != 2) bad(path, "abi", "must be [major, minor]");
  m.abi_major = static_cast<int32_t>(integer(abi[0], path, "abi", 0, INT32_MAX));
  m.abi_minor = static_cast<int32_t>(integer(abi[1], path, "abi", 0, INT32_MAX));
  const json& prio = field(j, path, "priority", json::value_t::number_integer, false);
  m.priority = prio.is_null() ? 0 : static_cast<int32_t>(integer(prio, path, "priority",
                                                                 INT32_MIN, INT32_MAX));
  parse_activation(j, path, m);
  parse_requires(j, path, m);
  m.global_deps = strings(j, path, "global_deps");
  for (const std::string& soname : m.global_deps) check_soname(path, "global_deps", soname);
  parse_preload(j, path, m);
  m.search = strings(j, path, "search");
  if (m.name.empty() || m.library.empty() || m.device_type.empty()) {
    fail(KF_INVALID_ARGUMENT, "manifest {}: name, library and device_type must not be empty", path);
  }
  return m;
}

}  // namespace kf
