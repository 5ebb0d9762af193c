// The allocation-failure sweep (issue: every allocation point of start-up, a plugin load, tensor
// creation and ops must fail cleanly). A phase is one C ABI call, the "action". The sweep runs it
// once with counting only (the dry run: how many allocations it makes, and that it passes), then
// once for every N in 1..count with the N-th allocation failing, each time in a process of its
// own forked from the test process, so every run starts from the same state: nothing the
// previous runs cached, pooled or loaded is there (start-up and plugin loads happen once per
// process; pools and caches hide cold paths).
//
// In each child: the action runs armed; then, disarmed, `verify` checks the outcome (a clean
// KF_OUT_OF_MEMORY with a message, or KF_OK when the failure was absorbed, e.g. by the caching
// allocator's retry) and that the runtime still works (a retry of the action succeeds, the
// results are right); then every tensor is released and, under LeakSanitizer, the child checks
// for leaks. A child that crashes, aborts, hangs, leaks or fails a check is a failure naming N
// and carrying the child's output.
//
// Thread safety: call from the test's main thread only (fork).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "alloc_fault.hpp"
#include "kernforge/kernforge.h"

namespace oomtest {

/// What one armed call gave (read right after it).
struct Attempt {
  kf_status_t status = KF_OK;
  std::string message;  // kf_last_error_message() after the call
  bool fired = false;   // the injected failure happened during the call
  int64_t count = 0;    // allocations of the armed kind during the call
};

/// Runs `action` armed (the n-th allocation of `kind` fails; n == 0: none) and disarms.
Attempt attempt(Kind kind, int64_t n, Mode mode, const std::function<kf_status_t()>& action);

/// "" when `a` is a clean outcome: KF_OUT_OF_MEMORY with a message that says memory ran out, or
/// KF_OK (the failure was absorbed); else what is wrong.
std::string clean_outcome(const Attempt& a);

struct Phase {
  std::string name;
  Kind kind = Kind::Host;
  Mode mode = Mode::Once;
  /// The armed call. Runs in the child.
  std::function<kf_status_t()> action;
  /// Runs in the child, disarmed, after the action: "" or the problem. It checks the outcome,
  /// retries when the action failed, checks the results and releases what the action made.
  std::function<std::string(const Attempt&)> verify;
  /// Under AddressSanitizer (where a child costs ~30 ms) only every sanitizer_stride-th point
  /// (and the last) is run: for phases that repeat a path another phase sweeps in full.
  int64_t sanitizer_stride = 1;
};

struct SweepResult {
  int64_t points = 0;      // allocation points (the dry run's count)
  int64_t swept = 0;       // points run (all of them, unless sanitizer_stride says otherwise)
  int64_t oom = 0;         // runs that returned KF_OUT_OF_MEMORY
  int64_t absorbed = 0;    // runs where the failure was absorbed (KF_OK)
  std::vector<int64_t> absorbed_at;  // their N
  int64_t not_fired = 0;   // runs whose path made fewer allocations than the dry run
  double seconds = 0;
  std::vector<std::string> failures;  // "N=12: ..." with the child's output
};

/// Sweeps `phase` (dry run, then N = 1..points) and prints one summary line ("[sweep] <name>:
/// ...") for the figures. Environment: KF_OOM_JOBS children at a time (default 2);
/// KF_OOM_ONLY=<n> runs point n alone in this process, for a debugger (`catch throw`).
SweepResult sweep(const Phase& phase);

/// Fails the current test with every failure of `r` (at most a few, with output) and, unless
/// `may_allocate_nothing`, when the dry run counted no allocation (a sweep of nothing).
void expect_clean(const SweepResult& r, bool may_allocate_nothing = false);

/// A phase whose action makes one tensor: `make(&out)`. After a failure it is made again,
/// disarmed, and must succeed; the tensor must hold `want` (float32; not checked when empty);
/// then it is released.
Phase one_result(std::string name, Kind kind, Mode mode,
                 std::function<kf_status_t(kf_tensor_t*)> make, std::vector<float> want);

}  // namespace oomtest
