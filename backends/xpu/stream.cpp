// stream.cpp — see stream.hpp.
#include "stream.hpp"

#include <cstdint>

#include "kernforge/plugin.hpp"

namespace kf::xpu {

Stream::Stream(const ZeApi& ze, ze_context_handle_t context, ze_device_handle_t device,
               uint32_t ordinal, EventPool& events, std::string label)
    : ze_(ze), events_(events), label_(std::move(label)) {
  ze_command_queue_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  desc.ordinal = ordinal;
  desc.index = 0;
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  check(ze_.zeCommandListCreateImmediate(context, device, &desc, &list_),
        "zeCommandListCreateImmediate", label_ + ": creating its command list");
}

Stream::~Stream() {
  try {
    synchronize();
  } catch (const std::exception& e) {
    kf::plugin::log(KF_LOG_WARN, "xpu", std::string("destroying a stream: ") + e.what());
  }
  const ze_result_t r = ze_.zeCommandListDestroy(list_);
  if (r != ZE_RESULT_SUCCESS) {
    kf::plugin::log(KF_LOG_WARN, "xpu", label_ + ": " + ze_failure("zeCommandListDestroy", r));
  }
}

void Stream::order_locked() {
  if (ordered_) return;
  check(ze_.zeCommandListAppendBarrier(list_, nullptr, 0, nullptr), "zeCommandListAppendBarrier",
        label_);
  ordered_ = true;
}

void Stream::synchronize() {
  const EventSlot done = events_.acquire();
  try {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // A barrier that signals: it waits for everything before it, and orders what follows.
      check(ze_.zeCommandListAppendBarrier(list_, done.event, 0, nullptr),
            "zeCommandListAppendBarrier", label_ + ": synchronizing");
      ordered_ = true;
    }
    check(ze_.zeEventHostSynchronize(done.event, UINT64_MAX), "zeEventHostSynchronize",
          label_ + ": synchronizing");
  } catch (...) {
    events_.release(done);
    throw;
  }
  events_.release(done);
}

}  // namespace kf::xpu
