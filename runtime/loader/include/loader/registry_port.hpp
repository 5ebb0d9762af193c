// registry_port.hpp — what the loader needs of the op registry, declared by the loader.
//
// Note [The loader's registry port]
// The loader stands on the device floor and never includes the dispatcher. Two things it does
// need from the op registry above it: finding an op by name for a plugin
// (kf_host_api_t.op_find, and op_call and tensor_release, which the C ABI serves), and running one plugin's register_kernels as a transaction that
// publishes the backend or nothing. It declares both here, as a port. The C ABI's floor, which
// stands on the loader and the dispatcher alike, implements the port with the dispatcher's
// Registrar (capi/registry_port.cpp) and hands it to start-up (initialize_slow), which keeps it
// for every later load: kf_load_plugin and backends started on first use. Nothing is loaded
// before start-up, so no load runs without the port.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kernforge/plugin.h"

namespace kf {

class Backend;

/// One plugin's registrations, buffered from the registrar until commit(). Used by the
/// loader's thread only, under the loader's lock.
class Registration {
 public:
  virtual ~Registration() = default;
  /// The registrar handed to the plugin's register_kernels; valid while this object lives.
  virtual const kf_registrar_t* registrar() const noexcept = 0;
  /// Publishes everything buffered, then `backend`. Throws, having published nothing, when the
  /// registrations are rejected (the first error the plugin met, even one it ignored).
  virtual void commit(Backend& backend) = 0;
  /// "<n> kernels, <m> ops defined", for the load report.
  virtual std::string summary() const = 0;
  /// The warnings of the transaction (skipped kernels, unknown ops) joined by "; ", or "".
  virtual std::string warnings() const = 0;
};

struct RegistryPort {
  /// A new, empty transaction for the plugin named `plugin` (its provenance in messages).
  std::unique_ptr<Registration> (*begin)(const std::string& plugin);
  /// The dense id of the op named `name` (core or plugin-defined), or -1. Never throws, never
  /// allocates: it answers a plugin's host callback.
  int32_t (*find_op)(const char* name) noexcept;
  /// kf_host_api_t.op_call and tensor_release (plugin ABI 2.1): the C ABI's kf_op_call by op
  /// id, and kf_tensor_release.
  kf_status_t (*call_op)(int32_t op, const kf_value_t* args, int32_t nargs, kf_value_t* results,
                         int32_t nresults) noexcept;
  void (*release_tensor)(kf_tensor_t tensor) noexcept;
};

/// The port start-up was given. Throws KF_INTERNAL before start-up has run.
const RegistryPort& registry_port();

/// Keeps `port` (static storage) for the loads to come; start-up calls it under the loader's
/// lock, before it loads anything.
void keep_registry_port(const RegistryPort& port) noexcept;

}  // namespace kf
