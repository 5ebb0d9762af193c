// A communicator (kf_comm_t): one communicator of each engine it was made with, one engine per
// device type (engine_choice.hpp), joined through one rendezvous (rendezvous.hpp).
//
// Handles are the objects' addresses, checked against the set of live communicators before use,
// so a released or forged handle is KF_INVALID_ARGUMENT, never a crash. Thread safety: making,
// checking and destroying communicators may happen on any thread; the calls on one
// communicator come from one thread at a time (kernforge.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "distributed/host_store.hpp"
#include "kernforge/collective.h"
#include "kernforge/kernforge.h"

namespace kf {

/// One engine of a communicator: the plugin and its communicator.
struct CommEngine {
  std::string name;                          // "gloo"
  std::string device_type;                   // "cpu"
  const kf_collective_plugin_t* plugin = nullptr;
  size_t plugin_size = 0;                    // how much of *plugin its ABI minor has
  void* state = nullptr;                     // what comm_init returned

  /// The slot ending at `end`, when the plugin's struct has it (else nullptr).
  template <class Fn>
  Fn slot(size_t end, Fn fn) const noexcept {
    return plugin_size >= end ? fn : nullptr;
  }
};

struct Comm {
  int32_t rank = 0;
  int32_t world_size = 1;
  int64_t timeout_ms = 0;
  std::vector<CommEngine> engines;
  std::unique_ptr<HostStore> store;          // env://: the core's key-value store; else null

  /// The engine that moves `device_type` tensors; throws KF_UNAVAILABLE naming the engines.
  CommEngine& engine_for(const std::string& device_type);
};

/// Throws `status` with "collective engine '<name>' (<device type>) <what>: <text>".
[[noreturn]] void fail_engine(const CommEngine& e, const char* what, kf_status_t status,
                              const char* text);

/// Makes a communicator: every engine joins the rendezvous. Throws (KF_TIMEOUT when a rank did
/// not arrive inside the timeout; then nothing is left behind).
Comm* create_comm(const kf_comm_options_t& options);
/// Destroys every engine's communicator and the object; a null pointer is nothing.
void destroy_comm(Comm* comm);
/// The communicator of a handle; throws KF_INVALID_ARGUMENT naming `what` when it is NULL,
/// released or no communicator.
Comm& checked_comm(kf_comm_t comm, const char* what);
/// Takes the communicator out of the live set (kf_comm_destroy); throws as checked_comm.
Comm* take_comm(kf_comm_t comm, const char* what);

constexpr size_t kEngineErrorCap = 2048;

/// Runs `slot(error, cap)` of an engine, handing it an error buffer; a failure throws its status
/// with "collective engine '<name>' (<device type>) <what>: <the engine's text>".
template <class Fn>
void engine_status(const CommEngine& e, const char* what, Fn&& slot) {
  char error[kEngineErrorCap] = {0};
  const kf_status_t s = slot(error, sizeof error);
  if (s == KF_OK) return;
  error[sizeof error - 1] = '\0';
  fail_engine(e, what, s, error);
}

}  // namespace kf
