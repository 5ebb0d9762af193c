// activate (see plugin_steps.hpp): init, describe, register_kernels as one transaction, publish.
#include <exception>

#include <fmt/format.h>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "dispatch/registrar.hpp"
#include "loader/backend_registry.hpp"
#include "loader/host_api.hpp"
#include "loader/plugin_steps.hpp"

namespace kf {
namespace {

// Calls init; exceptions thrown across the plugin ABI are caught and named.
kf_status_t call_init(Backend& b, void** state) {
  set_last_error("");
  try {
    return b.plugin->init(host_api(), state);
  } catch (const std::exception& e) {
    set_last_error(fmt::format("init threw a C++ exception across the plugin ABI: {}", e.what())
                       .c_str());
  } catch (...) {
    set_last_error("init threw a C++ exception across the plugin ABI");
  }
  return KF_INTERNAL;
}

// The plugin's describe() line (ABI 1.1), when it has the slot.
std::string describe(const Backend& b) {
  if (!KF_PLUGIN_HAS(b, describe)) return "";
  char buf[512] = {};
  try {
    if (b.plugin->describe(b.plugin_state, buf, sizeof(buf)) != KF_OK) return "";
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

bool register_backend(Backend& b) {
  StepTimer t;
  try {
    b.device_type = register_device_type(b.device_type_name);
    Registrar reg(b);
    const kf_status_t s = b.plugin->register_kernels(b.plugin_state, reg.c_api());
    if (s != KF_OK) fail(s, "register_kernels failed ({}): {}", kf_status_name(s), last_error());
    b.slot = reserve_slot();
    reg.commit(b.slot);
    publish_backend(b);
    set_state(b, KF_BACKEND_LOADED, "");
    const std::string warnings = joined_warnings(reg);
    step(b, "register", b.library_path, warnings.empty() ? "ok" : "warning",
         fmt::format("{} kernels{}{}", reg.kernel_count(), warnings.empty() ? "" : "; ",
                     warnings), t);
    return true;
  } catch (const Error& e) {
    // Nothing of the transaction was published; the plugin tears its state down.
    if (KF_PLUGIN_HAS(b, shutdown)) b.plugin->shutdown(b.plugin_state);
    b.plugin_state = nullptr;
    return fail_step(b, "register", b.library_path, KF_BACKEND_REJECTED, e.status(),
                     fmt::format("{}: registration rejected, the whole plugin is rolled back: {}",
                                 b.library_path, e.what()), t);
  }
}

}  // namespace

bool activate(Backend& b) {
  StepTimer t;
  void* state = nullptr;
  const kf_status_t s = call_init(b, &state);
  if (s != KF_OK) {
    return fail_step(b, "init", b.library_path,
                     s == KF_UNAVAILABLE ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED, s,
                     fmt::format("{}: init failed ({}): {}", b.library_path, kf_status_name(s),
                                 last_error()), t);
  }
  b.plugin_state = state;
  b.device_count = b.plugin->device_count(state);
  b.details = describe(b);
  step(b, "init", b.library_path, "ok",
       fmt::format("{} device(s){}{}", b.device_count, b.details.empty() ? "" : "; ", b.details),
       t);
  return register_backend(b);
}

}  // namespace kf
