#include "core/device_type_hint.hpp"

#include <atomic>

namespace kf {
namespace {

std::atomic<DeviceTypeHint> g_hint{nullptr};

}  // namespace

void set_device_type_hint(DeviceTypeHint hint) noexcept {
  g_hint.store(hint, std::memory_order_release);
}

std::string device_type_hint(const std::string& type_name) {
  const DeviceTypeHint hint = g_hint.load(std::memory_order_acquire);
  return hint != nullptr ? hint(type_name) : std::string();
}

}  // namespace kf
