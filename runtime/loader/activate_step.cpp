#include "loader/activate_step.hpp"

#include <exception>
#include <memory>
#include <new>

#include <fmt/format.h>

#include "core/device_types.hpp"
#include "core/environment.hpp"
#include "core/logging.hpp"
#include "core/error.hpp"
#include "core/plugin_call.hpp"
#include "core/thread_count.hpp"
#include "device/backend_registry.hpp"
#include "loader/host_api.hpp"
#include "loader/kernel_catalogue.hpp"
#include "loader/step_record.hpp"
#include "loader/registry_port.hpp"

namespace kf {
namespace {

// Calls init; exceptions thrown across the plugin ABI are caught and named, except
// std::bad_alloc: host memory ran out (plugin_loader.cpp, Note [Out of memory while loading]).
// KF_OK, or the status (known_status) and message of the failure.
PluginFailure call_init(PluginRecord& r, void** state) {
  const PluginCall call;
  try {
    const kf_status_t s = r.plugin->init(host_api(), state);
    return s == KF_OK ? PluginFailure{KF_OK, ""} : call.failure(s);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    set_last_error(fmt::format("init threw a C++ exception across the plugin ABI: {}", e.what())
                       .c_str());
  } catch (...) {
    set_last_error("init threw a C++ exception across the plugin ABI");
  }
  return PluginFailure{KF_INTERNAL, last_error()};
}

void shut_down(const PluginRecord& r, void* state) {
  if (!KF_RECORD_HAS(r, shutdown)) return;
  try {
    r.plugin->shutdown(state);
  } catch (...) {
  }
}

// A plugin whose init succeeded is shut down exactly once, on every way out of its activation
// that does not end in a published backend: a rejection, and an exception such as running out
// of memory (plugin_loader.cpp, Note [Out of memory while loading]).
class ShutdownUnlessPublished {
 public:
  ShutdownUnlessPublished(const PluginRecord& r, void* state) : r_(r), state_(state) {}
  ~ShutdownUnlessPublished() {
    if (!published_) shut_down(r_, state_);
  }
  ShutdownUnlessPublished(const ShutdownUnlessPublished&) = delete;
  ShutdownUnlessPublished& operator=(const ShutdownUnlessPublished&) = delete;
  void published() noexcept { published_ = true; }

 private:
  const PluginRecord& r_;
  void* state_;
  bool published_ = false;
};

// Inside a catch block: rethrows the exception being handled when it says host memory ran out
// (std::bad_alloc, or KF_OUT_OF_MEMORY from the registrar's transaction).
void rethrow_if_out_of_memory() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const Error& e) {
    if (e.status() == KF_OUT_OF_MEMORY) throw;
  } catch (...) {
  }
}

// The "register" step of a published backend. Best effort: nothing may throw once the backend
// serves (there may be no memory left to describe it).
void report_registered(const PluginRecord& r, const Registration& reg,
                       const StepTimer& t) noexcept {
  try {
    const std::string warnings = reg.warnings();
    step(r, "register", r.library_path, warnings.empty() ? "ok" : "warning",
         fmt::format("{}{}{}", reg.summary(), warnings.empty() ? "" : "; ", warnings), t);
  } catch (...) {
  }
}

// register_kernels as one transaction, then the backend's publication to dispatch. Out of
// memory in the transaction is not the plugin's failure: it goes on as an exception.
bool register_backend(PluginRecord& r, std::unique_ptr<Backend> backend,
                      ShutdownUnlessPublished& shutdown) {
  StepTimer t;
  const std::unique_ptr<Registration> reg = registry_port().begin(r.name);
  try {
    const PluginCall call;
    const kf_status_t s = r.plugin->register_kernels(backend->plugin_state(), reg->registrar());
    if (s != KF_OK) call.fail(s, "register_kernels");
    reg->commit(*backend);  // publishes the backend: nothing below may fail the plugin
  } catch (...) {
    rethrow_if_out_of_memory();
    // Nothing of the transaction was published and no slot kept; the plugin tears its state
    // down (shutdown). A C++ exception the plugin threw across the ABI is caught here too.
    const kf_status_t status = report_current_exception();
    return fail_step(r, "register", r.library_path, KF_BACKEND_REJECTED, status,
                     fmt::format("{}: registration rejected, the whole plugin is rolled back: {}",
                                 r.library_path, last_error()), t);
  }
  r.backend = backend.release();  // lives for the process
  shutdown.published();
  set_state(r, KF_BACKEND_LOADED, "");
  report_registered(r, *reg, t);
  return true;
}

// KERNFORGE_NUM_THREADS, as kf_set_num_threads would apply it, before the backend describes
// itself (so doctor shows the count in use). A bad value or a refusal is a warning, not a
// failure of the plugin.
void apply_thread_setting(const PluginRecord& r, const Backend& backend) noexcept {
  try {
    std::string bad;
    const std::optional<int32_t> n = env::num_threads(&bad);
    if (!bad.empty()) {
      log().warn("KERNFORGE_NUM_THREADS='{}' is not a thread count (1 to {}); ignored", bad,
                 max_thread_count());
    }
    if (n) backend.set_num_threads(*n);
  } catch (...) {
    report_current_exception();  // the slot's message, for the warning
    try {
      log().warn("{}: KERNFORGE_NUM_THREADS not applied: {}", r.name, last_error());
    } catch (...) {
    }
  }
}

}  // namespace

bool activate(PluginRecord& r) {
  StepTimer t;
  void* state = nullptr;
  const PluginFailure init = call_init(r, &state);
  if (init.status != KF_OK) {
    const kf_status_t s = init.status;
    if (s == KF_UNAVAILABLE) r.catalogue = list_catalogue(*r.plugin);
    return fail_step(r, "init", r.library_path,
                     s == KF_UNAVAILABLE ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED, s,
                     fmt::format("{}: init failed ({}): {}", r.library_path, status_name(s),
                                 init.message), t);
  }
  ShutdownUnlessPublished shutdown(r, state);
  std::unique_ptr<Backend> backend;
  try {
    const int32_t type = register_device_type(r.device_type_name);
    backend = std::make_unique<Backend>(r.plugin, r.plugin_struct_size, state, r.name,
                                        r.device_type_name, type);
  } catch (...) {  // a device type too many, a device count refused (Backend), a throw
    rethrow_if_out_of_memory();
    const kf_status_t status = report_current_exception();
    return fail_step(r, "init", r.library_path, KF_BACKEND_REJECTED, status,
                     fmt::format("{}: {}", r.library_path, last_error()), t);
  }
  apply_thread_setting(r, *backend);
  // Its describe() line is asked when first read (Note [describe() on first read]).
  if (KF_RECORD_HAS(r, describe)) r.described = std::make_shared<DescribedOnce>();
  step(r, "init", r.library_path, "ok", fmt::format("{} device(s)", backend->device_count), t);
  return register_backend(r, std::move(backend), shutdown);
}

}  // namespace kf
