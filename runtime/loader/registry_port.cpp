#include "loader/registry_port.hpp"

#include <atomic>

#include "core/error.hpp"

namespace kf {
namespace {

std::atomic<const RegistryPort*> g_port{nullptr};

}  // namespace

const RegistryPort& registry_port() {
  const RegistryPort* port = g_port.load(std::memory_order_acquire);
  if (port == nullptr) {
    fail(KF_INTERNAL, "the plugin loader ran before start-up gave it the op registry");
  }
  return *port;
}

void keep_registry_port(const RegistryPort& port) noexcept {
  g_port.store(&port, std::memory_order_release);
}

}  // namespace kf
