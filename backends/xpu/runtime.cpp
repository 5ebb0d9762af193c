// runtime.cpp — see runtime.hpp.
#include "runtime.hpp"

#include <cstdio>

#include "clkernels/kernels.hpp"
#include "kernforge/plugin.hpp"
#include "ze_result.hpp"

namespace kf::xpu {

Context::Context(const ZeApi& ze, ze_driver_handle_t driver) : ze_(ze) {
  ze_context_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  check(ze_.zeContextCreate(driver, &desc, &handle_), "zeContextCreate",
        "xpu: creating a context");
}

Context::~Context() {
  const ze_result_t r = ze_.zeContextDestroy(handle_);
  if (r != ZE_RESULT_SUCCESS) {
    kf::plugin::log(KF_LOG_WARN, "xpu", "xpu: " + ze_failure("zeContextDestroy", r));
  }
}

std::unique_ptr<Runtime> Runtime::create(const ZeApi& ze, ModuleLibrary library,
                                         const char* filter) {
  std::unique_ptr<Runtime> rt(new Runtime(ze, library));
  rt->found_ = discover(ze, filter);
  for (const DriverInfo& driver : rt->found_.drivers) {
    rt->contexts_.push_back(std::make_unique<Context>(ze, driver.handle));
  }
  for (const DeviceInfo& info : rt->found_.devices) {
    const int32_t index = static_cast<int32_t>(rt->devices_.size());
    if (info.spirv_version == 0) {
      throw ZeError(KF_UNAVAILABLE, "xpu:" + std::to_string(index) + " (" + info.name +
                                        ") does not take SPIR-V modules");
    }
    rt->devices_.push_back(std::make_unique<XpuDevice>(
        ze, info, rt->contexts_[info.driver]->handle(), library, index));
  }
  for (auto& device : rt->devices_) {  // Note [Module policy]
    try {
      device->modules().load(kf::clk::ProgramKey{kf::clk::Family::Copy, KF_FLOAT32});
    } catch (const ZeError& e) {
      throw ZeError(e.status() == KF_OUT_OF_MEMORY ? KF_OUT_OF_MEMORY : KF_UNAVAILABLE, e.what());
    }
  }
  return rt;
}

Runtime::~Runtime() {
  devices_.clear();
  if (!contexts_.empty()) {
    for (const auto& [ptr, bytes] : host_.take_all()) ze_.zeMemFree(contexts_[0]->handle(), ptr);
  }
  contexts_.clear();
}

kf::clk::Device* Runtime::device(int32_t index) noexcept {
  return index >= 0 && index < count() ? devices_[static_cast<size_t>(index)].get() : nullptr;
}

XpuDevice& Runtime::at(int32_t index) {
  if (index < 0 || index >= count()) {
    throw ZeError(KF_INVALID_ARGUMENT, "xpu: no device " + std::to_string(index) + " (there " +
                                           (count() == 1 ? "is 1" : "are " +
                                            std::to_string(count())) + ")");
  }
  return *devices_[static_cast<size_t>(index)];
}

uint32_t Runtime::dtype_mask() const noexcept {
  uint32_t mask = devices_.empty() ? 0u : ~0u;
  for (const auto& device : devices_) mask &= kf::clk::supported_dtypes(device->capabilities(), false);
  return mask;
}

std::string Runtime::describe() const {
  std::string text;
  for (size_t d = 0; d < found_.drivers.size(); ++d) {
    const DriverInfo& driver = found_.drivers[d];
    text += (d == 0 ? "" : "; ") + std::string("Level Zero API ") +
            std::to_string(ZE_MAJOR_VERSION(driver.api_version)) + "." +
            std::to_string(ZE_MINOR_VERSION(driver.api_version)) + ", driver " +
            driver_version_text(driver.driver_version);
  }
  for (const auto& device : devices_) {
    const DeviceInfo& info = device->info();
    char memory[32];
    std::snprintf(memory, sizeof(memory), "%.1f GiB",
                  static_cast<double>(info.total_memory) / (1024.0 * 1024.0 * 1024.0));
    text += "; " + device->label() + " " + info.name + " (" + std::to_string(info.compute_units) +
            " EUs, " + memory + ", fp64 " + (info.caps.fp64 ? "yes" : "no") + ", SPIR-V " +
            std::to_string(ZE_MAJOR_VERSION(info.spirv_version)) + "." +
            std::to_string(ZE_MINOR_VERSION(info.spirv_version)) + ")";
  }
  text += "; " + std::to_string(library_.count) +
          " SPIR-V modules embedded, copy/float32 built at init, the rest on first use";
  return text;
}

void* Runtime::host_allocate(size_t bytes) {
  ze_host_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  void* ptr = nullptr;
  check(ze_.zeMemAllocHost(contexts_.at(0)->handle(), &desc, bytes == 0 ? 1 : bytes, 64, &ptr),
        "zeMemAllocHost", "xpu: allocating " + std::to_string(bytes) + " bytes of host memory");
  try {
    host_.add(ptr, bytes);
  } catch (...) {
    ze_.zeMemFree(contexts_[0]->handle(), ptr);
    throw;
  }
  return ptr;
}

void Runtime::host_deallocate(void* ptr) noexcept {
  if (ptr == nullptr) return;
  if (!host_.remove(ptr)) {
    kf::plugin::log(KF_LOG_ERROR, "xpu",
                    "xpu: host_deallocate of memory host_allocate did not give: ignored");
    return;
  }
  const ze_result_t r = ze_.zeMemFree(contexts_[0]->handle(), ptr);
  if (r != ZE_RESULT_SUCCESS) {
    kf::plugin::log(KF_LOG_WARN, "xpu", "xpu: " + ze_failure("zeMemFree", r));
  }
}

}  // namespace kf::xpu
