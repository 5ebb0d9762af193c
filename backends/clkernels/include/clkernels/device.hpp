// device.hpp — what a backend gives the shared kernels: devices that can run a Launch.
//
// The opencl and xpu backends each derive their plugin state from Backend and their per-device
// objects from Device; the kernels registered by register_kernels() (kernels.hpp) get the
// Backend from kf_kernel_call_t.plugin_state, the Device from the output's device index, and
// queue their launches on the call's stream.
//
// Thread safety: launch() may be called from any thread at once (kernels are); a backend
// serialises what its API needs serialised (setting a kernel object's arguments) itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "clkernels/launch.hpp"
#include "kernforge/types.h"

namespace kf::clk {

/// What a device can do, read once at init.
struct Capabilities {
  bool fp64 = false;              // double arithmetic (cl_khr_fp64 / Float64): -DKF_HAS_FP64=1
  size_t max_work_group = 256;    // largest work-group the kernels may use
  size_t local_memory = 16384;    // bytes of local memory per work-group
  bool items_in_sequence = false; // a CPU device: a work-group's items run one after another
};

class Device {
 public:
  virtual ~Device() = default;
  /// Queues `launch` on `stream` (NULL: the device's default stream) and returns; the work
  /// runs later, in stream order. Errors: KF_OUT_OF_MEMORY, KF_INTERNAL (a kernel that does not
  /// build or launch; the build log in the message), with `error` set to what failed (the
  /// kernel turns it into the caller's error message); `error` is untouched on success.
  virtual kf_status_t launch(const Launch& launch, void* stream, std::string& error) noexcept = 0;
  /// Copies `bytes` of this device's memory at `src` (any offset into an allocation) to host
  /// memory at `dst` after the work queued on `stream` (NULL: the default stream) and waits for
  /// it (the index checks of kernels/index.cl's ops read their indices so). A backend that does
  /// not implement it returns KF_UNIMPLEMENTED, and must not ask register_kernels() for the ops
  /// that need it (kernels.hpp).
  virtual kf_status_t read_back(void* dst, const void* src, size_t bytes, void* stream,
                                std::string& error) noexcept {
    (void)dst, (void)src, (void)bytes, (void)stream;
    error = "this backend's devices cannot read memory back for the shared kernels";
    return KF_UNIMPLEMENTED;
  }
  virtual const Capabilities& capabilities() const noexcept = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  /// The device with this index, nullptr when there is none.
  virtual Device* device(int32_t index) noexcept = 0;
  /// The plugin's name for messages ("opencl", "xpu").
  virtual const char* name() const noexcept = 0;
};

}  // namespace kf::clk
