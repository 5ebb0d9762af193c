#include "loader/step_record.hpp"

#include "core/logging.hpp"

namespace kf {

void set_state(PluginRecord& r, kf_backend_state_t state, std::string reason, kf_status_t status) {
  r.state = state;
  if (status == KF_OK) {
    status = state == KF_BACKEND_UNAVAILABLE ? KF_UNAVAILABLE
             : state == KF_BACKEND_SHADOWED  ? KF_ALREADY_EXISTS
             : state == KF_BACKEND_REJECTED  ? KF_INVALID_ARGUMENT : KF_OK;
  }
  r.failure = status;
  r.reason = std::move(reason);
  if (state != KF_BACKEND_LOADED) log().info("plugin '{}': {}", r.name, r.reason);
}

void step(const PluginRecord& r, const char* what, const std::string& path, const char* result,
          const std::string& reason, const StepTimer& t) {
  report_step(ReportStep{what, r.name, path, result, reason, t.micros()});
}

bool fail_step(PluginRecord& r, const char* what, const std::string& path,
               kf_backend_state_t state, kf_status_t status, std::string reason,
               const StepTimer& t) {
  set_state(r, state, std::move(reason), status);
  step(r, what, path, state == KF_BACKEND_UNAVAILABLE ? "skipped" : "failed", r.reason, t);
  return false;
}

}  // namespace kf
