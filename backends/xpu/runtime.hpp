// runtime.hpp — the xpu plugin's state: the Level Zero contexts and devices, and what the
// shared kernels see as their kf::clk::Backend.
//
// create() discovers the GPUs (discovery.hpp), creates one context per driver and one
// XpuDevice per GPU, and loads one module on every device (Note [Module policy]). Any failure
// throws ZeError, and what was created is destroyed again.
//
// Note [Module policy]
// ~~~~~~~~~~~~~~~~~~~~
// The manifest starts the plugin on first use ("activation": "first_use", docs/loader.md), but
// then init runs in every process that lists the backends or names xpu, GPU or not
// (`kernforge doctor`, any kf_backend_info loop), so it must stay cheap: the driver compiles
// each SPIR-V module to the GPU's ISA when zeModuleCreate is called, which takes tens to
// hundreds of milliseconds per module, and there are families x dtypes x fp64 builds of them.
// So init creates one module per device, the Copy family for float32: it proves that the
// driver takes this build's SPIR-V (a driver that refuses it makes the plugin KF_UNAVAILABLE,
// with the driver's build log in the reason, instead of failing at the first op), and every
// other module is created the first time one of its kernels is launched on that device
// (Modules::kernel), then kept for the life of the process.
//
// Ownership: the plugin's init creates the Runtime and hands it to the host as the state (a
// kf::clk::Backend*); shutdown deletes it. It owns the devices, then the contexts (destroyed in
// that order), and the host memory of host_allocate. Thread safety: every member may be called
// from any thread at once.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <string>
#include <vector>

#include "allocations.hpp"
#include "clkernels/device.hpp"
#include "device.hpp"
#include "discovery.hpp"
#include "modules.hpp"
#include "ze_api.hpp"

namespace kf::xpu {

/// One Level Zero context (per driver), destroyed with this object.
class Context {
 public:
  Context(const ZeApi& ze, ze_driver_handle_t driver);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ze_context_handle_t handle() const noexcept { return handle_; }

 private:
  const ZeApi& ze_;
  ze_context_handle_t handle_ = nullptr;
};

class Runtime final : public kf::clk::Backend {
 public:
  /// Everything up, or throws ZeError. `filter`: KERNFORGE_XPU_DEVICE (may be null).
  static std::unique_ptr<Runtime> create(const ZeApi& ze, ModuleLibrary library,
                                         const char* filter);
  ~Runtime() override;

  // kf::clk::Backend
  kf::clk::Device* device(int32_t index) noexcept override;
  const char* name() const noexcept override { return "xpu"; }

  /// The device `index`; throws ZeError(KF_INVALID_ARGUMENT) when there is none.
  XpuDevice& at(int32_t index);
  int32_t count() const noexcept { return static_cast<int32_t>(devices_.size()); }

  /// The dtypes every device can run (kf::clk::supported_dtypes over the devices).
  uint32_t dtype_mask() const noexcept;
  /// One line: API and driver versions, the devices, the module policy.
  std::string describe() const;

  /// Pinned host memory (zeMemAllocHost in the first device's context). Throws ZeError.
  void* host_allocate(size_t bytes);
  void host_deallocate(void* ptr) noexcept;

 private:
  Runtime(const ZeApi& ze, ModuleLibrary library) : ze_(ze), library_(library) {}

  const ZeApi& ze_;
  ModuleLibrary library_;
  Discovery found_;
  std::vector<std::unique_ptr<Context>> contexts_;  // one per driver of found_
  std::vector<std::unique_ptr<XpuDevice>> devices_;  // destroyed before the contexts
  Allocations host_;
};

/// The Runtime behind the state pointer the host hands the slots.
inline Runtime* runtime_of(void* state) noexcept {
  return static_cast<Runtime*>(static_cast<kf::clk::Backend*>(state));
}

}  // namespace kf::xpu
