// launch.cpp — XpuDevice::launch: one launch of a shared kernel on a stream (device.hpp).
//
// The kernel's module is created on first use (modules.hpp); the group size and the arguments
// are set on the kernel object and the launch appended to the stream while the kernel's mutex
// is held, since they are the kernel object's state until zeCommandListAppendLaunchKernel has
// read them. Lock order: a kernel's mutex, then the stream's; never the other way.
#include <new>
#include <string>

#include "device.hpp"
#include "kernforge/plugin.hpp"
#include "ze_result.hpp"

namespace kf::xpu {
namespace {

/// The group counts of `launch` (global / local per dimension). Throws ZeError(KF_INTERNAL) for
/// a range the shared kernels should never ask for.
ze_group_count_t group_counts(const kf::clk::Launch& launch, const kf::clk::Capabilities& caps,
                              const std::string& label) {
  const auto fail = [&](const std::string& what) {
    return ZeError(KF_INTERNAL, label + ": launch of " + launch.kernel + ": " + what);
  };
  if (launch.dims < 1 || launch.dims > 3) throw fail("dims " + std::to_string(launch.dims));
  if (launch.nargs < 0 || launch.nargs > kf::clk::kMaxArgs) {
    throw fail(std::to_string(launch.nargs) + " arguments");
  }
  uint32_t counts[3] = {1, 1, 1};
  size_t threads = 1;
  for (uint32_t d = 0; d < launch.dims; ++d) {
    const size_t global = launch.global[d];
    const size_t local = launch.local[d];
    if (local == 0 || local > UINT32_MAX || global % local != 0 || global / local > UINT32_MAX) {
      throw fail("global size " + std::to_string(global) + " is not a whole number of groups "
                 "of " + std::to_string(local) + " in dimension " + std::to_string(d));
    }
    counts[d] = static_cast<uint32_t>(global / local);
    threads *= local;
  }
  if (threads > caps.max_work_group) {
    throw fail("work-group of " + std::to_string(threads) + " items, more than the device's " +
               std::to_string(caps.max_work_group));
  }
  return ze_group_count_t{counts[0], counts[1], counts[2]};
}

}  // namespace

// ------------------------------------------------------------------------------ launches

kf_status_t XpuDevice::launch(const kf::clk::Launch& launch, void* stream,
                              std::string& error) noexcept {
  kf_status_t status = KF_INTERNAL;
  try {
    launch_or_throw(launch, stream);
    return KF_OK;
  } catch (const ZeError& e) {
    status = e.status();
    try {
      error = e.what();
    } catch (...) {  // no memory for the text: the status still says it
    }
  } catch (const std::bad_alloc&) {
    status = KF_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    try {
      error = label_ + ": launch of " + launch.kernel + ": " + e.what();
    } catch (...) {
    }
  }
  return status;
}

void XpuDevice::launch_or_throw(const kf::clk::Launch& launch, void* stream_handle) {
  const ze_group_count_t groups = group_counts(launch, info_.caps, label_);
  bool empty = false;
  for (uint32_t d = 0; d < launch.dims; ++d) empty = empty || launch.global[d] == 0;
  if (empty) return;  // nothing to run
  Kernel& kernel = modules_.kernel(launch.program, launch.kernel);
  Stream& queue = stream(stream_handle);
  std::lock_guard<std::mutex> lock(kernel.mutex);
  const uint32_t group[3] = {static_cast<uint32_t>(launch.local[0]),
                             static_cast<uint32_t>(launch.dims > 1 ? launch.local[1] : 1),
                             static_cast<uint32_t>(launch.dims > 2 ? launch.local[2] : 1)};
  if (group[0] != kernel.group[0] || group[1] != kernel.group[1] ||
      group[2] != kernel.group[2]) {
    check(ze_.zeKernelSetGroupSize(kernel.handle, group[0], group[1], group[2]),
          "zeKernelSetGroupSize", label_ + ": kernel " + launch.kernel);
    for (int d = 0; d < 3; ++d) kernel.group[d] = group[d];
  }
  set_arguments(kernel, launch);
  queue.append("zeCommandListAppendLaunchKernel", [&](ze_command_list_handle_t list) {
    return ze_.zeCommandListAppendLaunchKernel(list, kernel.handle, &groups, nullptr, 0, nullptr);
  });
}

void XpuDevice::set_arguments(Kernel& kernel, const kf::clk::Launch& launch) {
  for (int32_t i = 0; i < launch.nargs; ++i) {
    const kf::clk::Arg& arg = launch.args[i];
    const uint32_t index = static_cast<uint32_t>(i);
    ze_result_t r = ZE_RESULT_SUCCESS;
    if (arg.kind == kf::clk::Arg::kPointer) {
      const void* pointer = arg.pointer;  // the value of a global pointer argument
      r = ze_.zeKernelSetArgumentValue(kernel.handle, index, sizeof(pointer), &pointer);
    } else if (arg.kind == kf::clk::Arg::kLocal) {
      r = ze_.zeKernelSetArgumentValue(kernel.handle, index, arg.size, nullptr);
    } else {
      r = ze_.zeKernelSetArgumentValue(kernel.handle, index, arg.size, arg.bytes);
    }
    check(r, "zeKernelSetArgumentValue",
          label_ + ": argument " + std::to_string(i) + " of the kernel " + launch.kernel);
  }
}

}  // namespace kf::xpu
