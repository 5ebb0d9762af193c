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
  std::string store_host;  // env://: the core's key-value store at MASTER_ADDR:MASTER_PORT
  uint16_t store_port = 0; // 0: no store of the core's (file://)
};

/// Checks `url` and the rank and world size (-1: from the rendezvous); throws
/// KF_INVALID_ARGUMENT naming what is wrong and what to give instead, KF_NOT_FOUND for a
/// file:// folder that does not exist.
Rendezvous resolve_rendezvous(const std::string& url, int32_t rank, int32_t world_size);
/// env:// (rendezvous_env.cpp): the rank and world size given or from RANK and WORLD_SIZE (they
/// must agree when both are there), the store at MASTER_ADDR:MASTER_PORT; the plugin is given
/// "tcp://<host>:<port>". Throws KF_INVALID_ARGUMENT naming the variable that is missing, bad or
/// in disagreement; KF_UNIMPLEMENTED on Windows.
Rendezvous env_rendezvous(int32_t rank, int32_t world_size);
/// Throws KF_INVALID_ARGUMENT unless 1 <= world_size and 0 <= rank < world_size.
void check_rank(int32_t rank, int32_t world_size);

}  // namespace kf
