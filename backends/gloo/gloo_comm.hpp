// A gloo communicator: a gloo context joined over the TCP transport through a rendezvous
// store (gloo's FileStore for file://, the host's store for env://: host_store.hpp), with the
// communicator's timeout on every wait.
// Thread safety: one call at a time per communicator (kernforge/collective.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include <gloo/context.h>
#include <gloo/transport/device.h>

#include "gloo_worker.hpp"
#include "kernforge/collective.h"

namespace kfgloo {

struct GlooComm {
  std::shared_ptr<gloo::transport::Device> device;
  std::shared_ptr<gloo::Context> context;
  uint32_t next_tag = 1;  // every collective gets its own (as c10d's gloo group does)
  GlooWorker worker;      // last: destroyed first, while the context its calls use lives

  uint32_t tag() noexcept { return next_tag++; }
};

/// The comm_init, comm_destroy and comm_abort slots. Abort fails the queued and later calls and
/// closes gloo's connections, which ends the peers' calls with a lost peer; a call gloo already
/// runs here ends by its timeout (gloo cannot interrupt it).
kf_status_t comm_init(const kf_comm_init_t* init, void** comm);
kf_status_t comm_destroy(void* comm);
kf_status_t comm_abort(void* comm);

/// A call's timeout (the call's, else the context's).
std::chrono::milliseconds timeout_of(const GlooComm& c, const kf_collective_call_t& call);

}  // namespace kfgloo
