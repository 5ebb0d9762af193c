// cl_device.hpp — one kernforge device on one OpenCL device: its context, its default queue, the
// queues of its streams, and its programs and kernels (built on first use).
//
// Ownership: the backend (plugin.cpp) owns every ClDevice from init to shutdown. A ClStream is
// owned by whoever created it through stream_create (the host) and names its device.
// Thread safety: every member may be called from any thread. Programs are built once, under
// build_mutex_, and then published (an atomic pointer per program) so launches never wait for
// a lock but their kernel object's: clSetKernelArg on one cl_kernel is not thread-safe, so
// argument setting and the enqueue happen under that kernel's mutex.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <CL/cl.h>

#include "clkernels/device.hpp"
#include "clkernels/kernels.hpp"
#include "discovery.hpp"

namespace kf::opencl {

/// A stream: an in-order queue of one device.
struct ClStream {
  int32_t device = 0;
  cl_command_queue queue = nullptr;
};

class ClDevice final : public clk::Device {
 public:
  /// Makes the context and the default queue; nullptr with `error` set when the driver refuses.
  static std::unique_ptr<ClDevice> create(const DeviceInfo& info, std::string& error);
  ~ClDevice() override;
  ClDevice(const ClDevice&) = delete;
  ClDevice& operator=(const ClDevice&) = delete;

  kf_status_t launch(const clk::Launch& launch, void* stream, std::string& error) noexcept override;
  /// A blocking clEnqueueSVMMemcpy on the stream's queue.
  kf_status_t read_back(void* dst, const void* src, size_t bytes, void* stream,
                        std::string& error) noexcept override;
  const clk::Capabilities& capabilities() const noexcept override { return caps_; }

  const DeviceInfo& info() const { return info_; }
  cl_context context() const { return context_; }
  /// The queue of `stream` (a ClStream*), the default queue for NULL.
  cl_command_queue queue(void* stream) const {
    return stream == nullptr ? default_queue_ : static_cast<ClStream*>(stream)->queue;
  }
  /// A new in-order queue with profiling (for a stream); remembered for finish_all().
  cl_int new_queue(cl_command_queue* out);
  void forget_queue(cl_command_queue queue);
  /// Waits for every queue of the device (before memory goes back to the driver).
  cl_int finish_all();
  /// Builds the program of `key` now (init proves the compiler works with one).
  kf_status_t prepare(clk::ProgramKey key, std::string& error) noexcept;

 private:
  struct Kernel {
    cl_kernel kernel = nullptr;
    std::mutex mutex;  // held while its arguments are set and it is enqueued
  };
  struct Program {
    cl_program program = nullptr;
    std::mutex mutex;  // guards kernels
    std::unordered_map<std::string, std::unique_ptr<Kernel>> kernels;
  };

  explicit ClDevice(const DeviceInfo& info);
  Program* program(clk::ProgramKey key, kf_status_t& status, std::string& error);
  Kernel* kernel(Program& program, clk::ProgramKey key, const char* name, std::string& error);
  static cl_int set_args(cl_kernel kernel, const clk::Launch& launch);

  DeviceInfo info_;
  clk::Capabilities caps_;
  cl_context context_ = nullptr;
  cl_command_queue default_queue_ = nullptr;
  std::mutex queues_mutex_;
  std::vector<cl_command_queue> stream_queues_;
  std::mutex build_mutex_;
  std::unique_ptr<Program> programs_[clk::kFamilyCount][KF_DTYPE_COUNT];
  std::atomic<Program*> ready_[clk::kFamilyCount][KF_DTYPE_COUNT] = {};
};

}  // namespace kf::opencl
