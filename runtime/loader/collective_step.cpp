#include "loader/collective_step.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "loader/step_record.hpp"

namespace kf {
namespace {

// The fields every collective ABI 1.x struct has: up to device_type.
constexpr size_t kMinCollectiveStruct = KF_COLLECTIVE_SLOT_END(device_type);

std::string collective_problem(const PluginRecord& b, const kf_collective_plugin_t* p) {
  if (p == nullptr) {
    return fmt::format("{}: kf_collective_get returned NULL for host collective ABI {}.{}",
                       b.library_path, KF_COLLECTIVE_ABI_MAJOR, KF_COLLECTIVE_ABI_MINOR);
  }
  if (p->abi_major != KF_COLLECTIVE_ABI_MAJOR) {
    return fmt::format("{}: collective ABI {}.{} does not match the host's {}.{}; install a "
                       "build of the plugin for this kernforge", b.library_path, p->abi_major,
                       p->abi_minor, KF_COLLECTIVE_ABI_MAJOR, KF_COLLECTIVE_ABI_MINOR);
  }
  if (p->struct_size < kMinCollectiveStruct || p->name == nullptr || p->device_type == nullptr) {
    return b.library_path + ": kf_collective_plugin_t is too small or lacks its name or "
                            "device_type";
  }
  if (!b.device_type_name.empty() && b.device_type_name != p->device_type) {
    return fmt::format("{}: its manifest {} declares device_type '{}' but the plugin says "
                       "(kf_collective_plugin_t.device_type) it moves '{}' tensors; fix the "
                       "manifest's device_type", b.library_path, b.manifest_path,
                       b.device_type_name, p->device_type);
  }
  return "";
}

}  // namespace

bool check_collective(PluginRecord& b, const kf_collective_plugin_t* p) {
  StepTimer t;
  if (std::string why = collective_problem(b, p); !why.empty()) {
    const bool major = p != nullptr && p->abi_major != KF_COLLECTIVE_ABI_MAJOR;
    return fail_step(b, "abi", b.library_path, KF_BACKEND_REJECTED,
                     major ? KF_ABI_MISMATCH : KF_INVALID_ARGUMENT, std::move(why), t);
  }
  b.collective_plugin = p;
  b.plugin_struct_size = std::min<size_t>(p->struct_size, sizeof(kf_collective_plugin_t));
  if (b.name.empty()) b.name = p->name;
  b.version = p->version != nullptr ? p->version : "";
  if (b.device_type_name.empty()) b.device_type_name = p->device_type;
  step(b, "abi", b.library_path, "ok",
       fmt::format("collective ABI {}.{}", p->abi_major, p->abi_minor), t);
  return true;
}

}  // namespace kf
