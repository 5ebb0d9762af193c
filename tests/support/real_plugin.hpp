// real_plugin.hpp — what the tests of a real device plugin (tests/cuda, tests/rocm, tests/xpu)
// read of it through the public C ABI: the load report, the plugin's entry in it, its backend
// record, and whether a library is mapped in the process.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "kernforge/kernforge.h"

namespace real_plugin {

using json = nlohmann::json;

/// kf_runtime_report_json, parsed.
inline json report() {
  size_t needed = 0;
  kf_runtime_report_json(nullptr, 0, &needed);
  std::string text(needed, '\0');
  EXPECT_EQ(kf_runtime_report_json(text.data(), text.size(), &needed), KF_OK);
  text.resize(needed > 0 ? needed - 1 : 0);
  return json::parse(text);
}

/// The report's entry named `name` in `list` ("backends" or "deferred"), or null.
inline json entry(const json& r, const char* list, const std::string& name) {
  for (const json& b : r.value(list, json::array())) {
    if (b.value("name", "") == name) return b;
  }
  return nullptr;
}

/// The backend record named `name` (an enumeration: it starts plugins waiting for first use).
inline bool find_backend(const std::string& name, kf_backend_info_t* out) {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) == KF_OK && name == info.name) {
      *out = info;
      return true;
    }
  }
  return false;
}

/// Whether a library of this SONAME is mapped in the process (nothing is loaded by asking).
inline bool mapped(const std::string& soname) {
  void* h = dlopen(soname.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (h != nullptr) dlclose(h);
  return h != nullptr;
}

}  // namespace real_plugin
