// The host's key-value store that a communicator over env:// hands its plugins
// (kf_rendezvous_store_t, kernforge/collective.h ABI 1.1): a client of the core's own store at
// MASTER_ADDR:MASTER_PORT (store_client.hpp), and on rank 0 the server too (store_server.hpp).
// One server per process and port, shared by every communicator that uses it and stopped when
// the last goes: a job makes one communicator after another on the same MASTER_PORT, their keys
// kept apart by their prefixes. Not built on Windows (there the constructor throws
// KF_UNIMPLEMENTED). Thread safety: the table's functions may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kernforge/collective.h"

namespace kf {

class HostStore {
 public:
  /// Rank 0 serves the store on `port` (KF_UNAVAILABLE when it cannot); every rank connects to
  /// host:port, trying again until `timeout_ms` passes (then KF_TIMEOUT).
  HostStore(const std::string& host, uint16_t port, int32_t rank, int64_t timeout_ms);
  ~HostStore();
  HostStore(const HostStore&) = delete;
  HostStore& operator=(const HostStore&) = delete;

  /// The table a plugin is given (kf_comm_init_t.store); lives as long as this object.
  const kf_rendezvous_store_t* table() const noexcept { return &table_; }
  /// Returns once all `world_size` ranks have called it with the same `key` (a counter, one per
  /// communicator); KF_TIMEOUT naming how many arrived. Rank 0 then knows that no rank still
  /// needs the store for that communicator.
  void barrier(const std::string& key, int32_t world_size);

  struct State;

 private:
  std::unique_ptr<State> state_;
  kf_rendezvous_store_t table_{};
};

}  // namespace kf
