// event_pool.cpp — see event_pool.hpp.
#include "event_pool.hpp"

#include "kernforge/plugin.hpp"
#include "ze_result.hpp"

namespace kf::xpu {

EventPool::EventPool(const ZeApi& ze, ze_context_handle_t context, ze_device_handle_t device)
    : ze_(ze), context_(context), device_(device) {}

EventPool::~EventPool() {
  for (const EventSlot& slot : retired_) release_locked(slot);
  retired_.clear();
  for (Chunk& chunk : chunks_) {
    if (chunk.pool != nullptr) ze_.zeEventPoolDestroy(chunk.pool);
    if (chunk.timestamps != nullptr) ze_.zeMemFree(context_, chunk.timestamps);
  }
}

void EventPool::add_chunk() {
  Chunk chunk;
  ze_host_mem_alloc_desc_t host{};
  host.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  void* memory = nullptr;
  check(ze_.zeMemAllocHost(context_, &host, kChunk * sizeof(uint64_t), sizeof(uint64_t), &memory),
        "zeMemAllocHost", "xpu: allocating the timestamps of an event pool");
  chunk.timestamps = static_cast<uint64_t*>(memory);
  ze_event_pool_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  desc.count = kChunk;
  ze_device_handle_t device = device_;
  const ze_result_t r = ze_.zeEventPoolCreate(context_, &desc, 1, &device, &chunk.pool);
  if (r != ZE_RESULT_SUCCESS) {
    ze_.zeMemFree(context_, chunk.timestamps);
    check(r, "zeEventPoolCreate", "xpu: creating an event pool");
  }
  for (uint32_t i = kChunk; i > 0; --i) chunk.free.push_back(i - 1);  // hand out 0 first
  chunks_.push_back(std::move(chunk));
}

EventSlot EventPool::acquire() {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t c = 0;
  while (c < chunks_.size() && chunks_[c].free.empty()) ++c;
  if (c == chunks_.size()) add_chunk();
  Chunk& chunk = chunks_[c];
  EventSlot slot;
  slot.chunk = static_cast<uint32_t>(c);
  slot.index = chunk.free.back();
  ze_event_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
  desc.index = slot.index;
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  check(ze_.zeEventCreate(chunk.pool, &desc, &slot.event), "zeEventCreate",
        "xpu: creating an event");
  chunk.free.pop_back();
  slot.timestamp = chunk.timestamps + slot.index;
  *slot.timestamp = 0;
  ++live_;
  return slot;
}

void EventPool::release_locked(const EventSlot& slot) noexcept {
  if (slot.event == nullptr || slot.chunk >= chunks_.size()) return;
  const ze_result_t r = ze_.zeEventDestroy(slot.event);
  if (r != ZE_RESULT_SUCCESS) {
    kf::plugin::log(KF_LOG_WARN, "xpu", "xpu: " + ze_failure("zeEventDestroy", r));
  }
  chunks_[slot.chunk].free.push_back(slot.index);
  --live_;
}

void EventPool::release(const EventSlot& slot) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  release_locked(slot);
}

void EventPool::retire(const EventSlot& slot) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    retired_.push_back(slot);
  } catch (...) {
    release_locked(slot);  // no memory to keep it: releasing early is the lesser harm
  }
}

size_t EventPool::reclaim() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t n = retired_.size();
  for (const EventSlot& slot : retired_) release_locked(slot);
  retired_.clear();
  return n;
}

size_t EventPool::retired() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return retired_.size();
}

size_t EventPool::live() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_;
}

size_t EventPool::pools() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return chunks_.size();
}

}  // namespace kf::xpu
