// event.cpp — see event.hpp.
#include "event.hpp"

#include "discovery.hpp"
#include "ze_result.hpp"

namespace kf::xpu {

void Event::record(Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (recorded_) {  // Note [Event lifetime]: a fresh event, the old one retired
    const EventSlot fresh = pool_.acquire();
    pool_.retire(slot_);
    slot_ = fresh;
    recorded_ = false;
  }
  ze_event_handle_t event = slot_.event;
  uint64_t* timestamp = slot_.timestamp;
  stream.append("zeCommandListAppendWriteGlobalTimestamp", [&](ze_command_list_handle_t list) {
    return ze_.zeCommandListAppendWriteGlobalTimestamp(list, timestamp, event, 0, nullptr);
  });
  recorded_ = true;
}

void Event::wait(Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!recorded_) return;
  ze_event_handle_t event = slot_.event;
  stream.append("zeCommandListAppendWaitOnEvents", [&](ze_command_list_handle_t list) {
    return ze_.zeCommandListAppendWaitOnEvents(list, 1, &event);
  });
}

void Event::synchronize() {
  if (!recorded()) return;
  check(ze_.zeEventHostSynchronize(slot().event, UINT64_MAX), "zeEventHostSynchronize",
        "xpu: waiting for an event");
}

bool Event::query() {
  if (!recorded()) return true;
  const ze_result_t r = ze_.zeEventQueryStatus(slot().event);
  if (r == ZE_RESULT_NOT_READY) return false;
  check(r, "zeEventQueryStatus", "xpu: querying an event");
  return true;
}

bool Event::recorded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorded_;
}

EventSlot Event::slot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slot_;
}

double Event::elapsed_ms(Event& start, Event& end, const DeviceInfo& device) {
  if (!start.recorded() || !end.recorded() || !start.query() || !end.query()) {
    throw ZeError(KF_FAILED_PRECONDITION,
                  "xpu: kf_event_elapsed_ms needs two events recorded and passed (synchronize "
                  "the later one first)");
  }
  const uint64_t diff = *end.slot().timestamp - *start.slot().timestamp;
  // A counter of fewer than 64 bits wraps: the difference modulo its width is the time passed.
  // A 64-bit one does not, so an end recorded before the start gives a negative time, as CUDA.
  const double ticks =
      device.timestamp_bits >= 64
          ? static_cast<double>(static_cast<int64_t>(diff))
          : static_cast<double>(diff & ((uint64_t{1} << device.timestamp_bits) - 1));
  return ticks * static_cast<double>(device.timer_ns) / 1e6;
}

}  // namespace kf::xpu
