#include "load_report.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_error.hpp"
#include "kernforge/kernforge.h"
#include "terminal_text.hpp"

namespace kf::cli {
namespace {

using Json = nlohmann::json;

// Every string of the report comes from outside: made safe here, where it enters.
std::string text_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return terminal_safe(it->is_string() ? it->get<std::string>() : it->dump());
}

int64_t int_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<int64_t>() : 0;
}

bool bool_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// The array under `key`, or an empty one: a missing or mistyped key reads as "nothing".
const Json& array_at(const Json& j, const char* key) {
  static const Json kEmpty = Json::array();
  const auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : kEmpty;
}

// [major, minor] -> "major.minor"; "" when absent or malformed.
std::string version_pair(const Json& j, const char* key) {
  const Json& v = array_at(j, key);
  if (v.size() != 2 || !v[0].is_number() || !v[1].is_number()) return "";
  return std::to_string(v[0].get<int64_t>()) + "." + std::to_string(v[1].get<int64_t>());
}

ReportBackend parse_backend(const Json& b) {
  ReportBackend out;
  out.name = text_at(b, "name");
  out.state = text_at(b, "state");
  out.status = text_at(b, "status");
  out.reason = text_at(b, "reason");
  out.version = text_at(b, "version");
  out.device_type = text_at(b, "device_type");
  out.device_count = int_at(b, "device_count");
  out.library = text_at(b, "library");
  out.manifest = text_at(b, "manifest");
  out.source = text_at(b, "source");
  out.details = text_at(b, "details");
  out.shipped = bool_at(b, "shipped");
  out.preferred = bool_at(b, "preferred");
  for (const Json& l : array_at(b, "libraries")) {
    if (!l.is_object()) continue;
    out.libraries.push_back(ReportLibrary{text_at(l, "soname"), text_at(l, "path"),
                                          text_at(l, "how"), bool_at(l, "global")});
  }
  for (const Json& c : array_at(b, "catalogue")) {
    if (!c.is_object()) continue;
    out.catalogue.emplace_back(text_at(c, "op"), static_cast<uint32_t>(int_at(c, "dtype_mask")));
  }
  return out;
}

ReportStep parse_step(const Json& s) {
  return ReportStep{text_at(s, "what"),   text_at(s, "plugin"), text_at(s, "path"),
                    text_at(s, "result"), text_at(s, "reason"), int_at(s, "micros")};
}

void parse_environment(const Json& j, LoadReport& r) {
  const auto env = j.find("environment");
  if (env == j.end() || !env->is_object()) return;
  for (const auto& [name, value] : env->items()) {
    if (value.is_string()) {
      r.environment.emplace_back(terminal_safe(name), terminal_safe(value.get<std::string>()));
    }
  }
}

void parse_startup(const Json& j, LoadReport& r) {
  const auto it = j.find("startup_micros");
  if (it != j.end() && it->is_number()) {
    r.startup_micros = it->get<int64_t>();
    return;
  }
  for (const ReportStep& s : r.steps) {
    if (s.what == "startup") r.startup_micros = s.micros;
  }
}

}  // namespace

std::string fetch_report_json() {
  // The commands explain every plugin, so the ones waiting for their first use start first
  // (kf_backend_count starts them; the report alone lists them as "deferred").
  (void)kf_backend_count();
  size_t needed = 0;
  kf_status_t s = kf_runtime_report_json(nullptr, 0, &needed);
  std::vector<char> buf;
  // The report may grow between the two calls (another thread loading a plugin): retry.
  for (int attempt = 0; s == KF_BUFFER_TOO_SMALL && attempt < 4; ++attempt) {
    buf.assign(needed + 1024, '\0');
    s = kf_runtime_report_json(buf.data(), buf.size(), &needed);
  }
  check(s, "kf_runtime_report_json");
  return buf.empty() ? std::string() : std::string(buf.data());
}

LoadReport parse_load_report(const std::string& text) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    throw CliError("kf_runtime_report_json returned text that is not a JSON object; this is a "
                   "bug in libkernforge, please report it", kExitFailure);
  }
  LoadReport r;
  r.kernforge_version = text_at(j, "kernforge_version");
  r.abi = version_pair(j, "abi");
  r.plugin_abi = version_pair(j, "plugin_abi");
  r.core_library = text_at(j, "core_library");
  parse_environment(j, r);
  for (const Json& root : array_at(j, "search_roots")) {
    if (root.is_object()) r.search_roots.emplace_back(text_at(root, "path"), text_at(root, "source"));
  }
  for (const Json& b : array_at(j, "backends")) {
    if (b.is_object()) r.backends.push_back(parse_backend(b));
  }
  for (const Json& c : array_at(j, "collectives")) {
    if (c.is_object()) r.collectives.push_back(parse_backend(c));
  }
  for (const Json& s : array_at(j, "steps")) {
    if (s.is_object()) r.steps.push_back(parse_step(s));
  }
  parse_startup(j, r);
  return r;
}

}  // namespace kf::cli
