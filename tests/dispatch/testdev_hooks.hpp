// testdev_hooks.hpp — the counters and switches a test executable may export for the test
// backends (extern "C", ENABLE_EXPORTS), found with dlsym(RTLD_DEFAULT) when the plugin starts.
// The names carry the plugin's prefix ("kf_testdev_", "kf_testasync_"):
//
//   std::atomic<long long> <prefix>live_allocations[2];  // live blocks per device
//   std::atomic<long long> <prefix>add_calls;            // add kernels run
//   std::atomic<long long> <prefix>linear_calls;         // linear kernels run (testasync)
//   std::atomic<long long> <prefix>scale_calls;          // cdev::scale kernels run (testasync)
//   std::atomic<long long> <prefix>fallback_calls;       // fallback kernels run (testasync)
//   std::atomic<long long> <prefix>pinned_live;          // live pinned host blocks (testasync)
//   std::atomic<long long> <prefix>pinned_total;         // pinned host blocks ever allocated
//   std::atomic<int> <prefix>kernel_delay_ms;            // queued work sleeps this long first,
//                                                        // read when it is queued (testasync)
//   std::atomic<bool> <prefix>hold;                      // queues start nothing while set
//                                                        // (testasync)
//   std::atomic<void*> <prefix>last_kernel_stream;       // the stream the last kernel was
//                                                        // queued on (testasync)
// Without them the plugin counts into its own.
#pragma once

#include <atomic>

namespace kf::testdev {

struct Hooks {
  std::atomic<long long>* live;
  std::atomic<long long>* add_calls;
  std::atomic<long long>* linear_calls;
  std::atomic<long long>* scale_calls;
  std::atomic<long long>* fallback_calls;
  std::atomic<long long>* pinned_live;
  std::atomic<long long>* pinned_total;
  std::atomic<int>* kernel_delay_ms;
  std::atomic<bool>* hold;
  std::atomic<void*>* last_kernel_stream;
};

/// The hooks in use (the plugin's own until find_hooks ran).
Hooks& hooks();
/// Looks the test executable's hooks up (init calls it).
void find_hooks();

}  // namespace kf::testdev
