// kf_comm_abort (docs/distributed.md, "Aborting"): the communicator is marked aborted, so every
// later call fails at once, and each engine ends the calls it is running (the plugin's
// comm_abort). It may come from any thread, while another waits in a call: the set of engines is
// fixed once the communicator is made, and the flag is atomic.
#include "core/error.hpp"
#include "distributed/comm.hpp"

namespace kf {

void abort_comm(Comm& c) {
  c.aborted.store(true);
  const CommEngine* cannot = nullptr;
  for (const CommEngine& e : c.engines) {
    const auto abort = e.slot(KF_COLLECTIVE_SLOT_END(comm_abort), e.plugin->comm_abort);
    if (abort == nullptr) {
      if (cannot == nullptr) cannot = &e;
      continue;
    }
    if (e.state != nullptr) (void)abort(e.state);
  }
  if (cannot != nullptr) {
    fail(KF_UNIMPLEMENTED, "kf_comm_abort: collective engine '{}' ({}) cannot abort (its plugin "
         "leaves comm_abort empty): the communicator's later calls fail, but a call it is "
         "running ends only by its timeout", cannot->name, cannot->device_type);
  }
}

}  // namespace kf
