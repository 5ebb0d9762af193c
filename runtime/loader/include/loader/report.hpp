// The load report (docs/loader.md): every loader step with what, which path, the result, the
// reason and the time in microseconds, plus the search roots. kf_runtime_report_json and
// `kernforge doctor` print it. Thread safety: guarded by its own lock.
#pragma once

#include <chrono>
#include <string>

namespace kf {

struct ReportStep {
  std::string what;    // "global_deps", "discover", "manifest", "requires", "security",
                       // "global_dep", "preload", "dlopen", "abi", "init", "register",
                       // "select", "startup"
  std::string plugin;  // plugin name when known
  std::string path;
  std::string result;  // "ok", "failed", "skipped", "warning"
  std::string reason;
  int64_t micros = 0;
};

void report_step(ReportStep step);
void report_search_root(const std::string& path, const std::string& source);
/// The time from the start of start-up to the runtime being ready.
void set_startup_micros(int64_t micros);
/// The whole report as JSON text.
std::string report_json();

/// Measures a step's duration.
class StepTimer {
 public:
  StepTimer() : start_(std::chrono::steady_clock::now()) {}
  int64_t micros() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace kf
