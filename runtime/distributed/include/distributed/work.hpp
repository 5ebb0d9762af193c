// A collective's work (kf_work_t): what an engine started, until it is waited for, tested done
// and released. A work the engine finished before returning (or that failed) holds only its
// status and message. The tensors of the call are held until the work is released.
//
// Handles are checked against the set of live works, as communicators' are (comm.hpp).
// Thread safety: one thread at a time per work.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "distributed/comm.hpp"
#include "kernforge/kernforge.h"

namespace kf {

struct TensorImpl;

struct Work {
  CommEngine engine;            // the plugin and its communicator (pointers, copied)
  std::string what;             // "all_reduce"
  void* plugin_work = nullptr;  // the engine's work, nullptr once finished
  bool done = false;
  kf_status_t status = KF_OK;
  std::string message;          // why it failed
  int64_t timeout_ms = 0;
  std::vector<TensorImpl*> held;  // one reference each, dropped at release
};

/// A live work handing out `w` (owned from now on).
kf_work_t publish_work(Work* w);
/// The work of a handle; throws KF_INVALID_ARGUMENT naming `what` when it is NULL, released or
/// no work.
Work& checked_work(kf_work_t work, const char* what);
/// Waits for the work's end (at most its timeout) and throws its failure, if it failed.
void wait_work(Work& w);
/// Whether the work has ended (an engine without work_test is waited for).
bool test_work(Work& w);
/// Ends the handle: waits for an unfinished work, ignoring its failure, and frees it.
void release_work(kf_work_t work, const char* what);

}  // namespace kf
