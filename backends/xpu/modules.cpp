// modules.cpp — see modules.hpp.
#include "modules.hpp"

#include "kernforge/plugin.hpp"
#include "ze_result.hpp"

namespace kf::xpu {

std::string dtype_name(int32_t dtype) {
#define KF_XPU_DTYPE_NAME(suffix, value, name, short_name, bytes, kind, cpp_name) \
  if (dtype == (value)) return name;
  KF_DTYPE_LIST(KF_XPU_DTYPE_NAME)
#undef KF_XPU_DTYPE_NAME
  return "dtype " + std::to_string(dtype);
}

namespace {
constexpr size_t kLogLimit = 4096;  // bytes of a build log kept in a message

std::string program_name(kf::clk::ProgramKey key) {
  const char* family = kf::clk::family_name(key.family);
  return std::string(family != nullptr ? family : "?") + "/" + dtype_name(key.dtype);
}
}  // namespace

Modules::Modules(const ZeApi& ze, ze_context_handle_t context, ze_device_handle_t device,
                 bool fp64, ModuleLibrary library, std::string label)
    : ze_(ze),
      context_(context),
      device_(device),
      fp64_(fp64),
      library_(library),
      label_(std::move(label)) {}

Modules::~Modules() {
  for (auto& [key, module] : modules_) {
    for (auto& [name, kernel] : module.kernels) ze_.zeKernelDestroy(kernel->handle);
    if (module.handle != nullptr) ze_.zeModuleDestroy(module.handle);
  }
}

std::string Modules::take_log(ze_module_build_log_handle_t log) noexcept {
  if (log == nullptr) return "";
  std::string text;
  try {
    size_t size = 0;
    if (ze_.zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
      text.resize(size);
      if (ze_.zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) size = 0;
      text.resize(size);
      while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
    }
    if (text.size() > kLogLimit) {  // the reason ends up in `kernforge doctor`: keep it readable
      const size_t cut = text.size() - kLogLimit;
      text.resize(kLogLimit);
      text += "... (" + std::to_string(cut) + " more bytes)";
    }
  } catch (...) {
    text.clear();
  }
  ze_.zeModuleBuildLogDestroy(log);
  return text;
}

ze_module_handle_t Modules::build(kf::clk::ProgramKey key, const unsigned char* il,
                                  size_t size) {
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = size;
  desc.pInputModule = il;
  desc.pBuildFlags = "";
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  const ze_result_t r = ze_.zeModuleCreate(context_, device_, &desc, &module, &log);
  const std::string text = take_log(log);
  if (r == ZE_RESULT_SUCCESS) return module;
  if (module != nullptr) ze_.zeModuleDestroy(module);
  throw ZeError(ze_result_status(r),
                label_ + ": the driver refused the SPIR-V module " + program_name(key) + " (" +
                    ze_failure("zeModuleCreate", r) + "); build log: " +
                    (text.empty() ? std::string("(empty)") : text));
}

Modules::Module& Modules::load_locked(kf::clk::ProgramKey key) {
  const auto id = std::make_pair(static_cast<int32_t>(key.family), key.dtype);
  auto found = modules_.find(id);
  if (found != modules_.end()) {
    if (!found->second.failure.empty()) throw ZeError(found->second.status, found->second.failure);
    return found->second;
  }
  size_t size = 0;
  const unsigned char* il = library_.find != nullptr ? library_.find(key, fp64_, &size) : nullptr;
  Module module;
  if (il == nullptr || size == 0) {
    module.status = KF_UNIMPLEMENTED;
    module.failure = label_ + ": this build of the plugin has no SPIR-V module " +
                     program_name(key) + (fp64_ ? " for devices with fp64" : " without fp64") +
                     " (" + std::to_string(library_.count) + " embedded)";
  } else {
    try {
      module.handle = build(key, il, size);
    } catch (const ZeError& e) {
      module.status = e.status();
      module.failure = e.what();
    }
  }
  Module& kept = modules_.emplace(id, std::move(module)).first->second;
  if (!kept.failure.empty()) throw ZeError(kept.status, kept.failure);
  return kept;
}

void Modules::load(kf::clk::ProgramKey key) {
  std::lock_guard<std::mutex> lock(mutex_);
  load_locked(key);
}

Kernel& Modules::kernel(kf::clk::ProgramKey key, const char* name) {
  std::lock_guard<std::mutex> lock(mutex_);
  Module& module = load_locked(key);
  auto found = module.kernels.find(name);
  if (found != module.kernels.end()) return *found->second;
  auto kernel = std::make_unique<Kernel>();
  ze_kernel_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  desc.pKernelName = name;
  check(ze_.zeKernelCreate(module.handle, &desc, &kernel->handle), "zeKernelCreate",
        label_ + ": finding the kernel '" + name + "' in the module " + program_name(key));
  Kernel& kept = *kernel;
  module.kernels.emplace(name, std::move(kernel));
  return kept;
}

size_t Modules::loaded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [key, module] : modules_) n += module.handle != nullptr ? 1 : 0;
  return n;
}

}  // namespace kf::xpu
