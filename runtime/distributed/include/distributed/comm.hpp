// A communicator (kf_comm_t): one communicator of each engine it was made with, one engine per
// device type (engine_choice.hpp), joined through one rendezvous (rendezvous.hpp).
//
// Handles are the objects' addresses, checked against the set of live communicators before use,
// so a released or forged handle is KF_INVALID_ARGUMENT, never a crash. Thread safety: making,
// checking and destroying communicators may happen on any thread; the calls on one
// communicator come from one thread at a time (kernforge.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "distributed/host_store.hpp"
#include "distributed/rendezvous.hpp"
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
  Rendezvous rendezvous;          // where it met (its sub-communicators meet there too)
  std::vector<CommEngine> engines;
  std::atomic<bool> aborted{false};  // kf_comm_abort: every later call fails at once
  std::shared_ptr<HostStore> store;  // env://: the core's key-value store (its splits share it)

  /// The engine that moves `device_type` tensors; throws KF_UNAVAILABLE naming the engines.
  CommEngine& engine_for(const std::string& device_type);
};

/// Throws `status` with "collective engine '<name>' (<device type>) <what>: <text>".
[[noreturn]] void fail_engine(const CommEngine& e, const char* what, kf_status_t status,
                              const char* text);

/// Makes a communicator: every engine joins the rendezvous. Throws (KF_TIMEOUT when a rank did
/// not arrive inside the timeout; then nothing is left behind).
Comm* create_comm(const kf_comm_options_t& options);
/// A prefix for the keys of the next communicator this process makes with engine `e`: the ranks
/// make their communicators in the same order, so the serial keeps them apart.
std::string next_prefix(const CommEngine& e);
/// The kf_comm_init_t of an engine joining `rv`, with the host's store when there is one (error
/// buffer not set).
kf_comm_init_t engine_init(const Rendezvous& rv, const std::string& prefix, int64_t timeout_ms,
                           const HostStore* store);
/// The key of the next env:// barrier (the end of kf_comm_create and kf_comm_split).
std::string joined_key();
/// Makes `comm` live (its handle checks from now on) and hands it out.
Comm* publish_comm(std::unique_ptr<Comm> comm);
/// Destroys every engine's communicator of `c` (those made so far).
void destroy_engines(Comm& c) noexcept;
/// Destroys every engine's communicator and the object; a null pointer is nothing.
void destroy_comm(Comm* comm);
/// The communicator of a handle; throws KF_INVALID_ARGUMENT naming `what` when it is NULL,
/// released or no communicator.
Comm& checked_comm(kf_comm_t comm, const char* what);
/// Takes the communicator out of the live set (kf_comm_destroy); throws as checked_comm.
Comm* take_comm(kf_comm_t comm, const char* what);

/// The sub-communicator of the ranks giving `color`, ranked by `key` (kf_comm_split); nullptr
/// for KF_COMM_NO_COLOR. comm_split.cpp.
Comm* split_comm(Comm& parent, int32_t color, int32_t key);
/// Aborts every engine of `c` (kf_comm_abort); throws KF_UNIMPLEMENTED naming an engine whose
/// plugin cannot abort, after aborting the others. comm_abort.cpp.
void abort_comm(Comm& c);

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
