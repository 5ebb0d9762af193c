// stream.hpp — one kernforge stream: an immediate command list on the device's compute queue
// group, in stream order.
//
// Note [Stream order on immediate command lists]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A kernforge stream runs its work in the order it was queued (the ABI's streams, like CUDA's).
// A Level Zero command list does not: commands appended to one list may run at the same time
// unless a barrier or events separate them, and the in-order flag of later API versions is not
// in the 1.4 headers Debian ships. So append() puts a barrier (zeCommandListAppendBarrier, no
// events: it waits for everything appended before it) in front of every command that follows
// another command; a barrier is never doubled. Appending to one list from two threads at once
// is not allowed either ("must not call this function from simultaneous threads with the same
// command list handle"), so append() holds the stream's mutex. The list is immediate
// (zeCommandListCreateImmediate, asynchronous mode): each append is submitted at once, there is
// no close/execute step.
//
// Ownership: a Stream owns its command list and destroys it in its destructor, after waiting
// for its work; it borrows the device's EventPool for the events synchronize() waits on.
// Thread safety: every member may be called from any thread at once.
#pragma once

#include <level_zero/ze_api.h>

#include <mutex>
#include <string>

#include "event_pool.hpp"
#include "ze_api.hpp"
#include "ze_result.hpp"

namespace kf::xpu {

class Stream {
 public:
  Stream(const ZeApi& ze, ze_context_handle_t context, ze_device_handle_t device,
         uint32_t ordinal, EventPool& events, std::string label);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  /// Appends the command `append(list)` after everything appended before (Note above).
  /// `call` names the ze function for the error; throws ZeError.
  template <class F>
  void append(const char* call, F&& append) {
    std::lock_guard<std::mutex> lock(mutex_);
    order_locked();
    check(append(list_), call, label_);
    ordered_ = false;
  }

  /// Blocks until everything appended so far is done. Throws ZeError.
  void synchronize();

  const std::string& label() const noexcept { return label_; }

 private:
  void order_locked();  // the barrier of the Note, when one is needed

  const ZeApi& ze_;
  EventPool& events_;
  std::string label_;  // "xpu:0 stream 0x..." for messages
  std::mutex mutex_;
  ze_command_list_handle_t list_ = nullptr;
  bool ordered_ = true;  // nothing appended since the last barrier
};

}  // namespace kf::xpu
