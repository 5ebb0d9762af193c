// modules.hpp — the SPIR-V modules of one device and the kernels found in them.
//
// A program (kf::clk::ProgramKey: family and dtype) is one SPIR-V module compiled at build time
// (backends/clkernels/spirv.cmake) and embedded in the plugin; ModuleLibrary says where to find
// them (the tests pass their own). load() creates the module with zeModuleCreate
// (ZE_MODULE_FORMAT_IL_SPIRV) once; kernel() finds a kernel by name in it with zeKernelCreate,
// once per name. A module the driver refuses fails with the driver's build log in the message,
// and that failure is kept: later calls fail at once with the same message instead of building
// it again.
//
// Ownership: Modules owns its modules and kernels and destroys them in its destructor; a Kernel
// reference stays valid until then. Thread safety: load() and kernel() may be called from any
// thread at once (one mutex; the first build of a module runs under it). A Kernel's arguments
// and group size are state of the kernel object until the launch is appended, so launches of
// one kernel hold Kernel::mutex from setting them to appending (device.cpp).
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "clkernels/launch.hpp"
#include "kernforge/types.h"
#include "ze_api.hpp"

namespace kf::xpu {

/// Where the SPIR-V modules are: find(key, fp64, &size) gives the bytes (static storage) of the
/// module built for devices with or without double arithmetic (-DKF_HAS_FP64), or nullptr;
/// count is how many there are (for describe).
struct ModuleLibrary {
  const unsigned char* (*find)(kf::clk::ProgramKey key, bool fp64, size_t* size) noexcept =
      nullptr;
  size_t count = 0;
};

struct Kernel {
  ze_kernel_handle_t handle = nullptr;
  std::mutex mutex;                 // held from setting arguments to appending the launch
  uint32_t group[3] = {0, 0, 0};    // the group size last set (0: never)
};

/// "float32", ...; "dtype <n>" for a value that is not one.
std::string dtype_name(int32_t dtype);

class Modules {
 public:
  /// `fp64`: the device does double arithmetic (which build of each module it takes).
  Modules(const ZeApi& ze, ze_context_handle_t context, ze_device_handle_t device, bool fp64,
          ModuleLibrary library, std::string label);
  ~Modules();
  Modules(const Modules&) = delete;
  Modules& operator=(const Modules&) = delete;

  /// Creates the module of `key` unless it exists. Throws ZeError: KF_INTERNAL with the build
  /// log when the driver refuses it, KF_UNIMPLEMENTED when the plugin has no such module.
  void load(kf::clk::ProgramKey key);
  /// The kernel `name` of `key`'s module, loading the module first. Throws ZeError.
  Kernel& kernel(kf::clk::ProgramKey key, const char* name);

  size_t loaded() const;  // modules created

 private:
  struct Module {
    ze_module_handle_t handle = nullptr;
    std::string failure;  // non-empty: the driver refused it; this is why
    kf_status_t status = KF_OK;
    std::map<std::string, std::unique_ptr<Kernel>> kernels;
  };
  Module& load_locked(kf::clk::ProgramKey key);
  ze_module_handle_t build(kf::clk::ProgramKey key, const unsigned char* il, size_t size);
  std::string take_log(ze_module_build_log_handle_t log) noexcept;

  const ZeApi& ze_;
  ze_context_handle_t context_;
  ze_device_handle_t device_;
  bool fp64_;
  ModuleLibrary library_;
  std::string label_;
  mutable std::mutex mutex_;
  std::map<std::pair<int32_t, int32_t>, Module> modules_;
};

}  // namespace kf::xpu
