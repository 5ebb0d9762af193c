// The thread a gloo communicator's calls run on (as c10d's gloo group runs its work on threads of
// its own): gloo's calls block, so a collective slot queues its call here and returns a work at
// once, and the caller overlaps the call with its own work (a DDP backward, say). Calls run one
// at a time in the order they were started, which is the order every rank starts them in.
//
// A call the host waits for at once (the slot's `work` is NULL) runs on the caller's thread when
// nothing is queued, which costs no hand-over; else it queues and is waited for.
//
// After a call fails by a timeout or a lost peer, the ranks are out of step: every call queued
// or started later fails at once, naming that first failure. abort() ends the running call
// (gloo's connections are closed by the caller) and fails the rest.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "kernforge/types.h"

namespace kfgloo {

/// One queued call: what it runs, and how it ended.
struct GlooTask {
  std::function<void()> run;
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;
  kf_status_t status = KF_OK;
  std::string error;

  /// Waits at most `timeout_ms` (<= 0: no limit); whether it ended.
  bool wait_for(int64_t timeout_ms);
};

class GlooWorker {
 public:
  GlooWorker() = default;
  ~GlooWorker();  // fails what is queued, ends the running call's wait, joins the thread
  GlooWorker(const GlooWorker&) = delete;
  GlooWorker& operator=(const GlooWorker&) = delete;

  /// Queues `run` (started on first use); the task to wait for.
  std::shared_ptr<GlooTask> post(std::function<void()> run);
  /// Runs `run` after everything queued, on this thread when nothing is; its status and text.
  kf_status_t run_now(const std::function<void()>& run, std::string* error);
  /// Fails every queued call and every later one with `why` (the running call is the caller's
  /// to end).
  void poison(kf_status_t status, const std::string& why);

 private:
  void loop();
  void execute(GlooTask& t);
  void fail_queued_locked();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::shared_ptr<GlooTask>> queue_;
  bool busy_ = false;       // a call runs (on the thread or a caller's)
  bool stopping_ = false;
  kf_status_t poisoned_ = KF_OK;
  std::string poison_why_;
  std::thread thread_;
};

}  // namespace kfgloo
