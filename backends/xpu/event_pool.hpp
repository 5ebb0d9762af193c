// event_pool.hpp — Level Zero events for one device, handed out from event pools that grow.
//
// An EventSlot is one ze_event_handle_t (host-visible, signalled and waited with host scope)
// and one 64-bit word of host memory (zeMemAllocHost) where a global timestamp can be written
// (zeCommandListAppendWriteGlobalTimestamp): the events of kf_event_elapsed_ms and the
// temporary events the host waits on. Pools of kChunk events are created as needed.
//
// Ownership: the EventPool owns its ze pools and timestamp memory and destroys them in its
// destructor; every slot must have been released (or retired and reclaimed) by then. acquire()
// creates the slot's event, release() destroys it at once; retire() keeps it until reclaim(),
// which the device calls once no stream can still be waiting on it (Note [Event lifetime] in
// event.hpp). Thread safety: every member may be called from any thread at once.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "ze_api.hpp"

namespace kf::xpu {

struct EventSlot {
  ze_event_handle_t event = nullptr;
  uint64_t* timestamp = nullptr;  // host memory the device can write
  uint32_t chunk = 0;
  uint32_t index = 0;
};

class EventPool {
 public:
  static constexpr uint32_t kChunk = 64;

  EventPool(const ZeApi& ze, ze_context_handle_t context, ze_device_handle_t device);
  ~EventPool();
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  /// A fresh, unsignalled event. Throws ZeError.
  EventSlot acquire();
  /// Destroys the slot's event now; nothing may use it any more.
  void release(const EventSlot& slot) noexcept;
  /// Keeps the slot until reclaim(): a stream may still wait on it.
  void retire(const EventSlot& slot) noexcept;
  /// Releases every retired slot; the caller knows no stream waits on them. Returns how many.
  size_t reclaim() noexcept;

  size_t retired() const;
  size_t live() const;  // acquired and not released (retired ones included)
  size_t pools() const;

 private:
  struct Chunk {
    ze_event_pool_handle_t pool = nullptr;
    uint64_t* timestamps = nullptr;
    std::vector<uint32_t> free;  // indices not in use
  };
  void add_chunk();  // with mutex_ held
  void release_locked(const EventSlot& slot) noexcept;

  const ZeApi& ze_;
  ze_context_handle_t context_;
  ze_device_handle_t device_;
  mutable std::mutex mutex_;
  std::vector<Chunk> chunks_;
  std::vector<EventSlot> retired_;
  size_t live_ = 0;
};

}  // namespace kf::xpu
