// Helpers of the sweep's phases (phase_util.hpp).
#include "phase_util.hpp"

#include <dlfcn.h>

#include <cmath>
#include <set>
#include <string>

namespace oomtest {

bool g_runtime_started_here = false;

kf_device_t oomdev() {
  kf_device_t d{};
  (void)kf_device_parse("oomdev", &d);
  return d;
}

const char* oomdev_manifest() { return KF_OOMDEV_MANIFEST; }
const char* oomdev_folder() { return KF_OOMDEV_FOLDER; }

void map_cpu_plugin_libraries() {
#if defined(KF_OOM_CPU_PLUGIN)
  static void* const handle = dlopen(KF_OOM_CPU_PLUGIN, RTLD_NOW | RTLD_LOCAL);  // kept open
  (void)handle;
  // oneDNN's side library, which the plugin opens at its first GEMM, and the gloo collective
  // plugin (libgloo's static initialisers), which listing the plugins activates; each absent
  // where it is not built, and then nothing is mapped.
  static const bool mapped = [] {
    const std::string plugin = KF_OOM_CPU_PLUGIN;
    const std::string folder = plugin.substr(0, plugin.rfind('/') + 1);
    for (const char* file : {"libkernforge_cpu_onednn.so", "libkernforge_gloo.so"}) {
      (void)dlopen((folder + file).c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open
    }
    return true;
  }();
  (void)mapped;
#endif
}

kf_tensor_t make_f32(const std::vector<int64_t>& shape, const std::vector<float>& values,
                     kf_device_t device, std::string& problem) {
  kf_tensor_t t = nullptr;
  const kf_status_t s = kf_tensor_from_data(values.data(), shape.data(),
                                            static_cast<int32_t>(shape.size()), KF_FLOAT32,
                                            device, &t);
  problem = ok_or(s, "kf_tensor_from_data");
  return s == KF_OK ? t : nullptr;
}

std::string check_values(kf_tensor_t t, const std::vector<float>& want) {
  int64_t n = 0;
  if (kf_status_t s = kf_tensor_numel(t, &n); s != KF_OK) return ok_or(s, "kf_tensor_numel");
  if (n != static_cast<int64_t>(want.size())) {
    return "the result has " + std::to_string(n) + " elements, expected " +
           std::to_string(want.size());
  }
  std::vector<float> got(want.size());
  const kf_status_t s = kf_tensor_copy_to_host(t, got.data(), got.size() * sizeof(float));
  if (s != KF_OK) return ok_or(s, "kf_tensor_copy_to_host");
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::fabs(got[i] - want[i]) > 1e-5f) {
      return "element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " +
             std::to_string(want[i]);
    }
  }
  return "";
}

std::string ok_or(kf_status_t s, const char* what) {
  if (s == KF_OK) return "";
  return std::string(what) + ": " + kf_status_name(s) + " " + kf_last_error_message();
}

int32_t records_named(const std::string& name) {
  int32_t n = 0;
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) == KF_OK && name == info.name) ++n;
  }
  return n;
}

bool init_said_out_of_memory() {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) != KF_OK || std::string(info.name) != "oomdev") continue;
    return info.state == KF_BACKEND_REJECTED && info.failure == KF_OUT_OF_MEMORY &&
           std::string(info.reason).find("init failed") != std::string::npos;
  }
  return false;
}

namespace {

std::string check_records(const std::vector<std::string>& loaded) {
  std::set<std::string> names;
  std::set<std::string> loaded_now;
  std::string states;  // "name: state (reason)" of each record, for the message
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_status_t s = kf_backend_info(i, &info); s != KF_OK) return ok_or(s, "kf_backend_info");
    if (!names.insert(info.name).second) {
      return std::string("the backend '") + info.name + "' is recorded twice";
    }
    if (info.state == KF_BACKEND_LOADED) loaded_now.insert(info.name);
    states += std::string("; ") + info.name + ": " + kf_backend_state_name(info.state) + " (" +
              info.reason + ")";
  }
  for (const std::string& name : loaded) {
    if (loaded_now.count(name) != 0) continue;
    if (name == "oomdev" && init_said_out_of_memory()) continue;
    return "the backend '" + name + "' is not loaded" + states;
  }
  return "";
}

std::string check_add() {
  std::string problem;
  kf_tensor_t a = make_f32({3}, {1, 2, 3}, kCpu, problem);
  if (a == nullptr) return problem;
  kf_tensor_t b = make_f32({3}, {10, 20, 30}, kCpu, problem);
  kf_tensor_t c = nullptr;
  if (b != nullptr) problem = ok_or(kf_add(a, b, kf_scalar_f64(2.0), &c), "kf_add");
  if (problem.empty()) problem = check_values(c, {21, 42, 63});
  kf_tensor_release(c);
  kf_tensor_release(b);
  kf_tensor_release(a);
  return problem;
}

}  // namespace

std::string check_runtime(const std::vector<std::string>& loaded) {
  if (std::string p = check_records(loaded); !p.empty()) return p;
  size_t needed = 0;
  const kf_status_t s = kf_runtime_report_json(nullptr, 0, &needed);
  if (s != KF_BUFFER_TOO_SMALL || needed < 2) return ok_or(s, "kf_runtime_report_json");
  if (kf_op_count() <= 0) return "kf_op_count() is 0";
  return check_add();
}

}  // namespace oomtest
