// handle_pool.hpp — library handles kept per device and stream and reused: cuBLAS's
// (cublas_pool.cpp) and cuSOLVER's (cusolver_pool.cpp). A handle serves one call at a time
// (the stream is set on it for each call) and keeps to one stream: a library's default
// workspace belongs to the handle, so two streams sharing one could run two routines over the
// same workspace at once. Work on one stream is ordered, so a handle of the stream can be
// reused as soon as a call has queued its work. `Traits` gives the handle type, create()
// (on the current device, throwing KernelError) and destroy(); the pool never shrinks while it
// lives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kernforge/plugin.hpp"

namespace kf::cuda {

template <class Traits>
class HandlePool {
 public:
  using Handle = typename Traits::Handle;

  explicit HandlePool(size_t devices) : free_(devices) {}
  ~HandlePool() {
    for (auto& streams : free_) {
      for (auto& entry : streams) {
        for (Handle h : entry.second) Traits::destroy(h);  // at shutdown: errors ignored
      }
    }
  }
  HandlePool(const HandlePool&) = delete;
  HandlePool& operator=(const HandlePool&) = delete;

  /// A handle for `device` and `stream` (the current device must be `device`).
  Handle acquire(int32_t device, void* stream) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (device < 0 || static_cast<size_t>(device) >= free_.size()) {
        throw kf::plugin::KernelError(
            KF_INTERNAL, std::string(Traits::kName) + " handle pool: no device " +
                             std::to_string(device) + " (it has " +
                             std::to_string(free_.size()) + ")");
      }
      auto& streams = free_[static_cast<size_t>(device)];
      const auto it = streams.find(stream);
      if (it != streams.end() && !it->second.empty()) {
        Handle h = it->second.back();
        it->second.pop_back();
        return h;
      }
    }
    return Traits::create();  // outside the lock: creating a handle takes milliseconds
  }

  void release(int32_t device, void* stream, Handle handle) noexcept {
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      if (device >= 0 && static_cast<size_t>(device) < free_.size()) {
        free_[static_cast<size_t>(device)][stream].push_back(handle);
        return;
      }
    } catch (...) {  // no memory for the list (or a failed lock): the handle goes
    }
    Traits::destroy(handle);
  }

 private:
  std::mutex mutex_;
  std::vector<std::map<void*, std::vector<Handle>>> free_;  // [device][stream]
};

/// A handle of `pool` for one call on `stream`, given back on every path.
template <class Pool>
class PooledHandle {
 public:
  PooledHandle(Pool& pool, int32_t device, void* stream)
      : pool_(pool), device_(device), stream_(stream), handle_(pool.acquire(device, stream)) {}
  ~PooledHandle() { pool_.release(device_, stream_, handle_); }
  PooledHandle(const PooledHandle&) = delete;
  PooledHandle& operator=(const PooledHandle&) = delete;
  typename Pool::Handle get() const { return handle_; }

 private:
  Pool& pool_;
  int32_t device_;
  void* stream_;
  typename Pool::Handle handle_;
};

}  // namespace kf::cuda
