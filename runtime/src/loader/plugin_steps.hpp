// The steps one plugin goes through (DESIGN section 6, steps 3-5), each recording itself in
// the load report and, when it fails, the backend's state, status and reason:
//   apply_manifest: parse, KERNFORGE_DISABLE_PLUGINS, requires, the manifest's ABI, file
//                   security, then the native dependencies (dependencies.hpp);
//   open_plugin:    one load per real path, security, open RTLD_NOW | RTLD_LOCAL,
//                   kf_plugin_get, ABI negotiation, score;
//   activate:       init, describe, register_kernels (one transaction), publish.
#pragma once

#include <string>

#include "loader/backend.hpp"
#include "loader/report.hpp"

namespace kf {

/// Sets the backend's state and reason; the status defaults to the state's usual one.
void set_state(Backend& b, kf_backend_state_t state, std::string reason,
               kf_status_t status = KF_OK);
/// Records a report step for backend `b`.
void step(const Backend& b, const char* what, const std::string& path, const char* result,
          const std::string& reason, const StepTimer& t);
/// Fails the backend (state, status, reason) and records the failed step.
bool fail_step(Backend& b, const char* what, const std::string& path, kf_backend_state_t state,
               kf_status_t status, std::string reason, const StepTimer& t);

bool apply_manifest(Backend& b, const std::string& manifest_path);
bool open_plugin(Backend& b);
bool activate(Backend& b);

}  // namespace kf
