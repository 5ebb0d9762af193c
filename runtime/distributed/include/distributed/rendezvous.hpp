// Where the ranks of a communicator meet (docs/distributed.md): "file://<folder>", a folder every
// rank can write (the engine's own file store meets there), or "env://", torchrun's variables.
// Thread safety: reads the environment only.
#pragma once

#include <cstdint>
#include <string>

namespace kf {

struct Rendezvous {
  std::string url;         // what the plugin is given (kf_comm_init_t.rendezvous)
  int32_t rank = 0;
  int32_t world_size = 1;
};

/// Checks `url` and the rank and world size (-1: from the rendezvous); throws
/// KF_INVALID_ARGUMENT naming what is wrong and what to give instead, KF_NOT_FOUND for a
/// file:// folder that does not exist, KF_UNIMPLEMENTED for env:// (which needs the core's
/// key-value store, not built yet).
Rendezvous resolve_rendezvous(const std::string& url, int32_t rank, int32_t world_size);

}  // namespace kf
