// test_report.hpp — what the loader says, through the public C ABI only: the load report
// (kf_runtime_report_json) and its steps and libraries, the backends (kf_backend_info) as
// BackendView, and the expectations on a backend's state, failure status and messages.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernforge/kernforge.h"
#include "test_files.hpp"

namespace loader_test {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ------------------------------------------------------------------ the load report

/// kf_runtime_report_json, parsed (a discarded value when it is not JSON).
inline json report() {
  size_t needed = 0;
  kf_runtime_report_json(nullptr, 0, &needed);
  std::string buf(needed + 1, '\0');
  const kf_status_t s = kf_runtime_report_json(buf.data(), buf.size(), &needed);
  EXPECT_EQ(s, KF_OK) << last_error();
  buf.resize(std::strlen(buf.c_str()));
  json j = json::parse(buf, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "kf_runtime_report_json is not JSON: " << buf;
  return j;
}

inline std::string str_of(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The report's steps (in order) for `plugin` and, when given, of kind `what`.
inline std::vector<json> steps(const json& r, const std::string& plugin,
                               const std::string& what = "") {
  std::vector<json> out;
  if (!r.contains("steps") || !r["steps"].is_array()) return out;
  for (const json& s : r["steps"]) {
    if (!plugin.empty() && str_of(s, "plugin") != plugin) continue;
    if (!what.empty() && str_of(s, "what") != what) continue;
    out.push_back(s);
  }
  return out;
}

/// The report's entries of backends named `name`.
inline std::vector<json> report_backends(const json& r, const std::string& name) {
  std::vector<json> out;
  if (!r.contains("backends") || !r["backends"].is_array()) return out;
  for (const json& b : r["backends"]) {
    if (str_of(b, "name") == name) out.push_back(b);
  }
  return out;
}

/// The `libraries` list of backend `name` in the report (empty when absent).
inline std::vector<json> report_libraries(const json& r, const std::string& name) {
  std::vector<json> out;
  for (const json& b : report_backends(r, name)) {
    if (b.contains("libraries") && b["libraries"].is_array()) {
      for (const json& l : b["libraries"]) out.push_back(l);
    }
  }
  return out;
}

// ------------------------------------------------------------------ backends

/// One backend as kf_backend_info tells it.
struct BackendView {
  int32_t index = -1;
  std::string name;
  int32_t state = -1;
  std::string reason;
  std::string library;
  std::string manifest;
  std::string failure;  // kf_status_name of kf_backend_info_t.failure
  bool found() const { return index >= 0; }
};

inline const char* state_name(int32_t s) {
  switch (s) {
    case KF_BACKEND_LOADED: return "LOADED";
    case KF_BACKEND_UNAVAILABLE: return "UNAVAILABLE";
    case KF_BACKEND_REJECTED: return "REJECTED";
    case KF_BACKEND_SHADOWED: return "SHADOWED";
    default: return "?";
  }
}

inline std::ostream& operator<<(std::ostream& os, const BackendView& b) {
  return os << "backend '" << b.name << "' #" << b.index << " " << state_name(b.state)
            << " failure=" << b.failure << " reason=\""
            << b.reason << "\" library=" << b.library << " manifest=" << b.manifest;
}

inline std::vector<BackendView> all_backends() {
  std::vector<BackendView> out;
  const int32_t n = kf_backend_count();
  for (int32_t i = 0; i < n; ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) != KF_OK) {
      ADD_FAILURE() << "kf_backend_info(" << i << ") failed: " << last_error();
      continue;
    }
    BackendView b;
    b.index = i;
    b.name = info.name != nullptr ? info.name : "";
    b.state = info.state;
    b.reason = info.reason != nullptr ? info.reason : "";
    b.library = info.library_path != nullptr ? info.library_path : "";
    b.manifest = info.manifest_path != nullptr ? info.manifest_path : "";
    b.failure = kf_status_name(static_cast<kf_status_t>(info.failure));
    out.push_back(b);
  }
  return out;
}

inline std::vector<BackendView> backends_named(const std::string& name) {
  std::vector<BackendView> out;
  for (BackendView& b : all_backends()) {
    if (b.name == name) out.push_back(std::move(b));
  }
  return out;
}

/// The backend named `name` (the first one), or one with found() false.
inline BackendView backend(const std::string& name) {
  std::vector<BackendView> v = backends_named(name);
  return v.empty() ? BackendView{} : v.front();
}

/// The backend whose manifest is `manifest` (for manifests too broken to have a name).
inline BackendView backend_with_manifest(const fs::path& manifest) {
  for (BackendView& b : all_backends()) {
    if (!b.manifest.empty() && fs::path(b.manifest) == manifest) return b;
  }
  return BackendView{};
}

inline std::string describe_backends() {
  std::ostringstream os;
  for (const BackendView& b : all_backends()) os << "\n  " << b;
  return os.str();
}

/// EXPECTs the backend's failure status (kf_backend_info_t.failure).
inline void expect_failure(const BackendView& b, kf_status_t expected) {
  EXPECT_EQ(b.failure, kf_status_name(expected)) << b;
}

/// EXPECTs state and failure status of `b` (failure KF_OK is not checked for LOADED).
inline void expect_state(const BackendView& b, kf_backend_state_t state,
                         std::optional<kf_status_t> failure = std::nullopt) {
  ASSERT_TRUE(b.found()) << "backend not found; the loader knows:" << describe_backends();
  EXPECT_EQ(state_name(b.state), std::string(state_name(state))) << b;
  if (failure) expect_failure(b, *failure);
}

/// A message names one of `paths`: the backend's reason, or the reason or path of one of its
/// report steps that did not succeed.
inline void expect_message_names(const BackendView& b, const std::vector<fs::path>& paths) {
  for (const fs::path& path : paths) {
    if (contains(b.reason, path.string())) return;
  }
  const json r = report();
  for (const json& s : steps(r, b.name)) {
    if (str_of(s, "result") == "ok") continue;
    for (const fs::path& path : paths) {
      const std::string p = path.string();
      if (contains(str_of(s, "reason"), p) || contains(str_of(s, "path"), p)) return;
    }
  }
  std::string wanted;
  for (const fs::path& path : paths) wanted += " " + path.string();
  ADD_FAILURE() << "no message names any of" << wanted << " for " << b
                << "\nsteps: " << (r.contains("steps") ? r["steps"].dump(2) : "<none>");
}

}  // namespace loader_test
