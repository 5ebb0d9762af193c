// Recording what happens to a plugin while it loads: its state, status and reason, and the load
// report's steps (loader/report.hpp).
#pragma once

#include <string>

#include "loader/plugin_record.hpp"
#include "loader/report.hpp"

namespace kf {

/// Sets the record's state and reason; the status defaults to the state's usual one.
void set_state(PluginRecord& r, kf_backend_state_t state, std::string reason,
               kf_status_t status = KF_OK);
/// Records a report step for plugin `r`.
void step(const PluginRecord& r, const char* what, const std::string& path, const char* result,
          const std::string& reason, const StepTimer& t);
/// Fails the plugin (state, status, reason), records the failed step, returns false.
bool fail_step(PluginRecord& r, const char* what, const std::string& path,
               kf_backend_state_t state, kf_status_t status, std::string reason,
               const StepTimer& t);

}  // namespace kf
