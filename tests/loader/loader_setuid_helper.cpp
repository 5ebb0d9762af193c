// loader_setuid_helper.cpp — run by loader.Setuid.* as a setuid copy: initialises kernforge with
// autoload (so KERNFORGE_PLUGIN_PATH would be read were it not for secure_getenv), prints
// AT_SECURE, every backend and the load report, checks a CPU add, and exits with
//   0  plugin argv[1] was not loaded     10  it was loaded     2  the helper itself failed
// (not 1: that is what a sanitizer exits with).
// It finds libkernforge through an absolute RUNPATH: glibc ignores LD_LIBRARY_PATH (and an
// untrusted $ORIGIN) in AT_SECURE processes.
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "kernforge/kernforge.h"

// Under ASan, LeakSanitizer cannot stop the world of a setuid process (no ptrace) and ignores
// ASAN_OPTIONS there (/proc/self/environ is unreadable); leaks are checked by the in-process
// tests, not here.
extern "C" __attribute__((visibility("default"))) const char* __lsan_default_options();
extern "C" __attribute__((visibility("default"))) const char* __lsan_default_options() {
  return "detect_leaks=0";
}

namespace {

bool cpu_add_works() {
  const kf_device_t dev{KF_DEVICE_CPU, 0};
  const float a[2] = {1.0f, 2.0f};
  const float b[2] = {3.0f, 4.0f};
  const int64_t shape[1] = {2};
  kf_tensor_t ta = nullptr, tb = nullptr, sum = nullptr;
  float out[2] = {0.0f, 0.0f};
  const bool ok = kf_tensor_from_data(a, shape, 1, KF_FLOAT32, dev, &ta) == KF_OK &&
                  kf_tensor_from_data(b, shape, 1, KF_FLOAT32, dev, &tb) == KF_OK &&
                  kf_add(ta, tb, kf_scalar_i64(1), &sum) == KF_OK &&
                  kf_tensor_copy_to_host(sum, out, sizeof(out)) == KF_OK && out[0] == 4.0f &&
                  out[1] == 6.0f;
  kf_tensor_release(sum);
  kf_tensor_release(tb);
  kf_tensor_release(ta);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // every line out, even if the helper crashes
  const char* want = argc > 1 ? argv[1] : "fault_ok";
  std::printf("AT_SECURE=%lu\n", getauxval(AT_SECURE));
  std::printf("uid=%d euid=%d\n", static_cast<int>(getuid()), static_cast<int>(geteuid()));
  kf_init_options_t o{};
  o.struct_size = sizeof(o);
  o.autoload = 1;
  o.log_level = KF_LOG_DEFAULT;
  if (kf_init(&o) != KF_OK) {
    std::printf("kf_init failed: %s\n", kf_last_error_message());
    return 2;
  }
  bool loaded = false;
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) != KF_OK) continue;
    std::printf("backend %s state=%d library=%s reason=%s\n", info.name, info.state,
                info.library_path, info.reason);
    if (std::strcmp(info.name, want) == 0 && info.state == KF_BACKEND_LOADED) loaded = true;
  }
  std::printf("cpu_add=%s\n", cpu_add_works() ? "ok" : "FAILED");
  size_t needed = 0;
  kf_runtime_report_json(nullptr, 0, &needed);
  std::string report(needed + 1, '\0');
  if (kf_runtime_report_json(&report[0], report.size(), &needed) == KF_OK) {
    std::printf("report=%s\n", report.c_str());
  }
  std::printf("loaded=%d\n", loaded ? 1 : 0);
  std::fflush(stdout);
  return loaded ? 10 : 0;
}
