// event.hpp — one kernforge event: a point in a stream, as a Level Zero event and a timestamp.
//
// record() appends, after the stream's earlier work, a write of the device's global timestamp
// into the event's host word that signals the event (zeCommandListAppendWriteGlobalTimestamp),
// so one command marks the point and times it. wait() appends zeCommandListAppendWaitOnEvents;
// synchronize() is
// zeEventHostSynchronize; query() is zeEventQueryStatus; elapsed_ms() is the difference of two
// timestamps (valid bits masked, times the device's timer resolution). An event never recorded
// is passed: waiting on it does nothing, querying it says done (the ABI's and CUDA's meaning).
//
// Note [Event lifetime]
// ~~~~~~~~~~~~~~~~~~~~~
// Level Zero requires that nothing on the device still uses an event when it is destroyed, and a
// wait another stream appended may not have run yet when the kernforge event is released (the
// host does not track that). So a released event that was recorded is not destroyed: the host
// waits for its signal, and its slot is retired to the device's EventPool, which reclaims
// retired slots when the device is synchronized (every stream idle, so no wait is pending).
// When kRetiredLimit slots are waiting, releasing or recording one more synchronizes the device
// first: the number of events held back stays bounded without tracking waits.
//
// Recording an event again takes a fresh Level Zero event and retires the old one the same
// way, rather than resetting it: a reset queued on the stream would leave the host seeing the
// old signal (a query saying "done" for work not run yet) until the reset runs, and a reset
// from the host would make waits already appended wait for the new point. With a fresh event,
// queries see the new point at once and earlier waits keep the old one, as CUDA's do.
//
// Ownership: an Event owns its slot until destroy_event() (device.hpp) gives it back.
// Thread safety: every member may be called from any thread at once.
#pragma once

#include <cstdint>
#include <mutex>

#include "event_pool.hpp"
#include "stream.hpp"

namespace kf::xpu {

struct DeviceInfo;

class Event {
 public:
  static constexpr size_t kRetiredLimit = 1024;

  Event(const ZeApi& ze, EventPool& pool, EventSlot slot) : ze_(ze), pool_(pool), slot_(slot) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void record(Stream& stream);
  void wait(Stream& stream);
  void synchronize();
  /// True when passed (or never recorded). Throws ZeError for a failed query.
  bool query();
  /// Milliseconds from `start`'s point to `end`'s. Throws ZeError(KF_FAILED_PRECONDITION) when
  /// either is not recorded or not passed yet.
  static double elapsed_ms(Event& start, Event& end, const DeviceInfo& device);

  bool recorded() const;
  /// The Level Zero event and timestamp of the last record (or of none yet).
  EventSlot slot() const;

 private:
  const ZeApi& ze_;
  EventPool& pool_;
  EventSlot slot_;
  mutable std::mutex mutex_;
  bool recorded_ = false;
};

}  // namespace kf::xpu
