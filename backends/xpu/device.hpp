// device.hpp — one kernforge xpu device: a Level Zero GPU with its memory, streams, events and
// modules, and the launcher of the shared OpenCL C kernels (kf::clk::Device).
//
// Memory is device USM (zeMemAllocDevice): the pointers the ABI passes. The default stream (a
// NULL stream in the ABI) is created with the device; copy() and memset() are synchronous:
// appended to the default stream, after its earlier work, and waited for; copy_async() is
// ordered on its stream only. synchronize() waits for every stream of the device, then reclaims
// the retired events (Note [Event lifetime] in event.hpp).
//
// Ownership: the device owns its streams (create_stream/destroy_stream), events
// (create_event/destroy_event), modules, event pool and the memory it allocated, and releases
// all of it in its destructor (waiting for its streams first). It borrows the context and the
// ZeApi table, which the Runtime keeps alive longer. Thread safety: every member may be called
// from any thread at once.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "allocations.hpp"
#include "clkernels/device.hpp"
#include "discovery.hpp"
#include "event.hpp"
#include "event_pool.hpp"
#include "modules.hpp"
#include "stream.hpp"
#include "ze_api.hpp"

namespace kf::xpu {

class XpuDevice final : public kf::clk::Device {
 public:
  XpuDevice(const ZeApi& ze, const DeviceInfo& info, ze_context_handle_t context,
            ModuleLibrary library, int32_t index);
  ~XpuDevice() override;
  XpuDevice(const XpuDevice&) = delete;
  XpuDevice& operator=(const XpuDevice&) = delete;

  // kf::clk::Device
  kf_status_t launch(const kf::clk::Launch& launch, void* stream,
                     std::string& error) noexcept override;
  const kf::clk::Capabilities& capabilities() const noexcept override { return info_.caps; }

  // Memory. All throw ZeError.
  void* allocate(size_t bytes);
  void deallocate(void* ptr) noexcept;
  void copy(void* dst, const void* src, size_t bytes);
  void copy_async(void* dst, const void* src, size_t bytes, void* stream);
  void memset(void* dst, int32_t value, size_t bytes);
  void synchronize();

  // Streams and events: opaque handles for the ABI. All throw ZeError.
  void* create_stream();
  void destroy_stream(void* stream) noexcept;
  Stream& stream(void* handle);  // nullptr: the default stream
  void* create_event();
  void destroy_event(void* event) noexcept;
  Event& event(void* handle);
  /// Records `event` on `stream` (Note [Event lifetime] in event.hpp: a re-record retires the
  /// old Level Zero event, so the retired ones are kept bounded here).
  void record_event(void* event, void* stream);

  Modules& modules() noexcept { return modules_; }
  EventPool& events() noexcept { return events_; }
  const Allocations& allocations() const noexcept { return allocations_; }
  const DeviceInfo& info() const noexcept { return info_; }
  const std::string& label() const noexcept { return label_; }

 private:
  void launch_or_throw(const kf::clk::Launch& launch, void* stream);
  void bound_retired();  // synchronizes the device when Event::kRetiredLimit events wait
  void set_arguments(Kernel& kernel, const kf::clk::Launch& launch);

  const ZeApi& ze_;
  DeviceInfo info_;
  ze_context_handle_t context_;
  std::string label_;  // "xpu:0"
  Allocations allocations_;
  EventPool events_;
  Modules modules_;
  std::unique_ptr<Stream> default_stream_;
  std::mutex objects_mutex_;  // guards streams_ and events_live_
  std::unordered_map<void*, std::unique_ptr<Stream>> streams_;
  std::unordered_map<void*, std::unique_ptr<Event>> events_live_;
};

}  // namespace kf::xpu
