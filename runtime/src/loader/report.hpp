// The load report (DESIGN section 6): every loader step with what, which path, the result, the
// reason and the time in microseconds, plus the search roots. kf_runtime_report_json and
// `kernforge doctor` print it. Thread safety: guarded by its own lock.
#pragma once

#include <chrono>
#include <string>

namespace kf {

struct ReportStep {
  std::string what;    // "discover", "manifest", "dlopen", "abi", "score", "init", "register"...
  std::string plugin;  // plugin name when known
  std::string path;
  std::string result;  // "ok", "failed", "skipped", "warning"
  std::string reason;
  int64_t micros = 0;
};

void report_step(ReportStep step);
void report_search_root(const std::string& path, const std::string& source);
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
