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

void parse_requires(const json& j, const std::string& path, Manifest& m) {
  const json& r = field(j, path, "requires", json::value_t::object, false);
  if (r.is_null()) return;
  for (const auto& item : r.items()) {
    if (item.key() != "os" && item.key() != "arch" && item.key() != "cpu_features") {
      bad(path, "requires", "has the unknown key '" + item.key() + "'; the keys are os, arch and "
                            "cpu_features (a misspelt requirement must not be ignored)");
    }
  }
  const json& os = field(r, path, "os", json::value_t::string, false);
  const json& arch = field(r, path, "arch", json::value_t::string, false);
  if (!os.is_null()) m.requires_os = os.get<std::string>();
  if (!arch.is_null()) m.requires_arch = arch.get<std::string>();
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
  const int64_t version = integer(
      field(j, path, "manifest_version", json::value_t::number_integer, true), path,
      "manifest_version", 0, INT32_MAX);
  if (version != 1) bad(path, "manifest_version", "is " + std::to_string(version) + "; this kernforge reads version 1");
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
