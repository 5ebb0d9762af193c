#include "loader/activate_step.hpp"

#include <exception>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/plugin_call.hpp"
#include "device/backend_registry.hpp"
#include "loader/host_api.hpp"
#include "loader/step_record.hpp"
#include "registry/registrar.hpp"

namespace kf {
namespace {

// Calls init; exceptions thrown across the plugin ABI are caught and named. KF_OK, or the
// status (known_status) and message of the failure.
PluginFailure call_init(PluginRecord& r, void** state) {
  const PluginCall call;
  try {
    const kf_status_t s = r.plugin->init(host_api(), state);
    return s == KF_OK ? PluginFailure{KF_OK, ""} : call.failure(s);
  } catch (const std::exception& e) {
    set_last_error(fmt::format("init threw a C++ exception across the plugin ABI: {}", e.what())
                       .c_str());
  } catch (...) {
    set_last_error("init threw a C++ exception across the plugin ABI");
  }
  return PluginFailure{KF_INTERNAL, last_error()};
}

// The plugin's describe() line (ABI 1.1), when it has the slot.
std::string describe(const PluginRecord& r, void* state) {
  if (!KF_RECORD_HAS(r, describe)) return "";
  char buf[512] = {};
  try {
    if (r.plugin->describe(state, buf, sizeof(buf)) != KF_OK) return "";
  } catch (...) {
    return "";
  }
  buf[sizeof(buf) - 1] = '\0';
  return buf;
}

std::string joined_warnings(const Registrar& reg) {
  std::string out;
  for (const std::string& w : reg.warnings()) out += (out.empty() ? "" : "; ") + w;
  return out;
}

void shut_down(const PluginRecord& r, void* state) {
  if (!KF_RECORD_HAS(r, shutdown)) return;
  try {
    r.plugin->shutdown(state);
  } catch (...) {
  }
}

// register_kernels as one transaction, whose commit publishes the backend to dispatch.
bool register_backend(PluginRecord& r, std::unique_ptr<Backend> backend) {
  StepTimer t;
  std::optional<Registrar> reg;
  try {
    reg.emplace(r.name);
    const PluginCall call;
    const kf_status_t s = r.plugin->register_kernels(backend->plugin_state(), reg->c_api());
    if (s != KF_OK) call.fail(s, "register_kernels");
    reg->commit(*backend);  // publishes the backend: nothing below may fail the plugin
  } catch (...) {
    // Nothing of the transaction was published and no slot kept; the plugin tears its state
    // down. A C++ exception the plugin threw across the ABI is caught here too.
    const kf_status_t status = report_current_exception();
    shut_down(r, backend->plugin_state());
    return fail_step(r, "register", r.library_path, KF_BACKEND_REJECTED, status,
                     fmt::format("{}: registration rejected, the whole plugin is rolled back: {}",
                                 r.library_path, last_error()), t);
  }
  r.backend = backend.release();  // lives for the process
  set_state(r, KF_BACKEND_LOADED, "");
  const std::string warnings = joined_warnings(*reg);
  step(r, "register", r.library_path, warnings.empty() ? "ok" : "warning",
       fmt::format("{} kernels, {} ops defined{}{}", reg->kernel_count(), reg->defined_op_count(),
                   warnings.empty() ? "" : "; ", warnings), t);
  return true;
}

}  // namespace

bool activate(PluginRecord& r) {
  StepTimer t;
  void* state = nullptr;
  const PluginFailure init = call_init(r, &state);
  if (init.status != KF_OK) {
    const kf_status_t s = init.status;
    return fail_step(r, "init", r.library_path,
                     s == KF_UNAVAILABLE ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED, s,
                     fmt::format("{}: init failed ({}): {}", r.library_path, status_name(s),
                                 init.message), t);
  }
  std::unique_ptr<Backend> backend;
  try {
    const int32_t type = register_device_type(r.device_type_name);
    backend = std::make_unique<Backend>(r.plugin, r.plugin_struct_size, state, r.name,
                                        r.device_type_name, type);
  } catch (...) {  // a device type too many, a device count refused (Backend), a throw
    const kf_status_t status = report_current_exception();
    shut_down(r, state);
    return fail_step(r, "init", r.library_path, KF_BACKEND_REJECTED, status,
                     fmt::format("{}: {}", r.library_path, last_error()), t);
  }
  r.details = describe(r, state);
  step(r, "init", r.library_path, "ok",
       fmt::format("{} device(s){}{}", backend->device_count, r.details.empty() ? "" : "; ",
                   r.details), t);
  return register_backend(r, std::move(backend));
}

}  // namespace kf
