// device.cpp — see device.hpp.
#include "device.hpp"

#include <cstdio>
#include <new>

#include "kernforge/plugin.hpp"
#include "ze_result.hpp"

namespace kf::xpu {
namespace {

std::string pointer_text(const void* p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}

}  // namespace

XpuDevice::XpuDevice(const ZeApi& ze, const DeviceInfo& info, ze_context_handle_t context,
                     ModuleLibrary library, int32_t index)
    : ze_(ze),
      info_(info),
      context_(context),
      label_("xpu:" + std::to_string(index)),
      events_(ze, context, info.handle),
      modules_(ze, context, info.handle, info.caps.fp64, library, label_) {
  default_stream_ = std::make_unique<Stream>(ze, context, info.handle, info.compute_ordinal,
                                             events_, label_ + " default stream");
}

XpuDevice::~XpuDevice() {
  // Streams wait for their work as they go; then nothing can use an event or the memory.
  streams_.clear();
  default_stream_.reset();
  for (auto& [handle, event] : events_live_) events_.release(event->slot());
  events_live_.clear();
  events_.reclaim();
  for (const auto& [ptr, bytes] : allocations_.take_all()) ze_.zeMemFree(context_, ptr);
}

// ------------------------------------------------------------------------------- memory

void* XpuDevice::allocate(size_t bytes) {
  ze_device_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  desc.ordinal = 0;
  void* ptr = nullptr;
  const size_t size = bytes == 0 ? 1 : bytes;  // a unique address even for 0 bytes
  const ze_result_t r = ze_.zeMemAllocDevice(context_, &desc, size, 64, info_.handle, &ptr);
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_SIZE) {
    throw ZeError(KF_OUT_OF_MEMORY, label_ + ": cannot allocate " + std::to_string(bytes) +
                                        " bytes: more than the largest allocation the device "
                                        "allows (" + std::to_string(info_.max_alloc) + " bytes)");
  }
  check(r, "zeMemAllocDevice", label_ + ": allocating " + std::to_string(bytes) + " bytes");
  try {
    allocations_.add(ptr, bytes);
  } catch (...) {
    ze_.zeMemFree(context_, ptr);
    throw;
  }
  return ptr;
}

void XpuDevice::deallocate(void* ptr) noexcept {
  if (ptr == nullptr) return;
  if (!allocations_.remove(ptr)) {
    kf::plugin::log(KF_LOG_ERROR, "xpu",
                    label_ + ": deallocate of " + pointer_text(ptr) +
                        ", which this device did not allocate (or freed already): ignored");
    return;
  }
  const ze_result_t r = ze_.zeMemFree(context_, ptr);
  if (r != ZE_RESULT_SUCCESS) {
    kf::plugin::log(KF_LOG_WARN, "xpu", label_ + ": " + ze_failure("zeMemFree", r));
  }
}

void XpuDevice::copy(void* dst, const void* src, size_t bytes) {
  const EventSlot done = events_.acquire();
  try {
    default_stream_->append("zeCommandListAppendMemoryCopy", [&](ze_command_list_handle_t list) {
      return ze_.zeCommandListAppendMemoryCopy(list, dst, src, bytes, done.event, 0, nullptr);
    });
    check(ze_.zeEventHostSynchronize(done.event, UINT64_MAX), "zeEventHostSynchronize",
          label_ + ": waiting for a copy of " + std::to_string(bytes) + " bytes");
  } catch (...) {
    events_.release(done);
    throw;
  }
  events_.release(done);
}

void XpuDevice::copy_async(void* dst, const void* src, size_t bytes, void* stream_handle) {
  stream(stream_handle).append("zeCommandListAppendMemoryCopy", [&](ze_command_list_handle_t l) {
    return ze_.zeCommandListAppendMemoryCopy(l, dst, src, bytes, nullptr, 0, nullptr);
  });
}

void XpuDevice::memset(void* dst, int32_t value, size_t bytes) {
  const uint8_t pattern = static_cast<uint8_t>(value);
  const EventSlot done = events_.acquire();
  try {
    default_stream_->append("zeCommandListAppendMemoryFill", [&](ze_command_list_handle_t list) {
      return ze_.zeCommandListAppendMemoryFill(list, dst, &pattern, 1, bytes, done.event, 0,
                                               nullptr);
    });
    check(ze_.zeEventHostSynchronize(done.event, UINT64_MAX), "zeEventHostSynchronize",
          label_ + ": waiting for a memset of " + std::to_string(bytes) + " bytes");
  } catch (...) {
    events_.release(done);
    throw;
  }
  events_.release(done);
}

void XpuDevice::synchronize() {
  default_stream_->synchronize();
  std::lock_guard<std::mutex> lock(objects_mutex_);
  for (auto& [handle, stream] : streams_) stream->synchronize();
  events_.reclaim();  // every stream is idle: no wait can still use a retired event
}

// ------------------------------------------------------------------- streams and events

void* XpuDevice::create_stream() {
  auto stream = std::make_unique<Stream>(ze_, context_, info_.handle, info_.compute_ordinal,
                                         events_, label_ + " stream");
  void* handle = stream.get();
  std::lock_guard<std::mutex> lock(objects_mutex_);
  streams_.emplace(handle, std::move(stream));
  return handle;
}

void XpuDevice::destroy_stream(void* handle) noexcept {
  std::unique_ptr<Stream> stream;
  {
    std::lock_guard<std::mutex> lock(objects_mutex_);
    auto found = streams_.find(handle);
    if (found == streams_.end()) return;
    stream = std::move(found->second);
    streams_.erase(found);
  }
  stream.reset();  // waits for its work, outside the lock
}

Stream& XpuDevice::stream(void* handle) {
  if (handle == nullptr) return *default_stream_;
  std::lock_guard<std::mutex> lock(objects_mutex_);
  auto found = streams_.find(handle);
  if (found == streams_.end()) {
    throw ZeError(KF_INVALID_ARGUMENT,
                  label_ + ": " + pointer_text(handle) + " is not a stream of this device");
  }
  return *found->second;
}

void* XpuDevice::create_event() {
  const EventSlot slot = events_.acquire();
  try {
    auto event = std::make_unique<Event>(ze_, events_, slot);
    void* handle = event.get();
    std::lock_guard<std::mutex> lock(objects_mutex_);
    events_live_.emplace(handle, std::move(event));
    return handle;
  } catch (...) {
    events_.release(slot);
    throw;
  }
}

void XpuDevice::destroy_event(void* handle) noexcept {
  std::unique_ptr<Event> event;
  {
    std::lock_guard<std::mutex> lock(objects_mutex_);
    auto found = events_live_.find(handle);
    if (found == events_live_.end()) return;
    event = std::move(found->second);
    events_live_.erase(found);
  }
  if (!event->recorded()) {
    events_.release(event->slot());
    return;
  }
  try {  // Note [Event lifetime] in event.hpp
    event->synchronize();
    bound_retired();
  } catch (const std::exception& e) {
    kf::plugin::log(KF_LOG_WARN, "xpu", label_ + ": releasing an event: " + e.what());
  }
  events_.retire(event->slot());
}

void XpuDevice::bound_retired() {
  if (events_.retired() >= Event::kRetiredLimit) synchronize();
}

void XpuDevice::record_event(void* event_handle, void* stream_handle) {
  Event& e = event(event_handle);
  Stream& s = stream(stream_handle);
  if (e.recorded()) bound_retired();
  e.record(s);
}

Event& XpuDevice::event(void* handle) {
  std::lock_guard<std::mutex> lock(objects_mutex_);
  auto found = events_live_.find(handle);
  if (found == events_live_.end()) {
    throw ZeError(KF_INVALID_ARGUMENT,
                  label_ + ": " + pointer_text(handle) + " is not an event of this device");
  }
  return *found->second;
}

}  // namespace kf::xpu
