// testdev_plugin.cpp — the test backends of the dispatch tests, built twice from these sources:
//  - `testdev` (KF_TESTDEV_ASYNC=0): a device type the core does not know, with 2 devices whose
//    memory is plain host memory, synchronous;
//  - `testasync` (KF_TESTDEV_ASYNC=1): the same as an asynchronous device, every stream a worker
//    thread with a queue (testdev_queues.hpp), with pinned host memory, a kernel overriding the
//    composite `linear`, a kernel for an op another plugin defines and a fallback of its own.
// Kernels: testdev_kernels.hpp. Test hooks: testdev_hooks.hpp. Memory: the SDK's host-memory
// slots (kernforge/host_memory.hpp), counted per device for the tests.
#include <atomic>
#include <cstring>
#include <string>

#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"
#include "testdev_hooks.hpp"
#include "testdev_kernels.hpp"
#include "testdev_queues.hpp"

namespace kf::testdev {
namespace {

constexpr int32_t kDevices = 2;

kf_status_t bad_device(int32_t device) {
  kf::plugin::set_error(std::string(KF_TESTDEV_NAME) + ": no device " + std::to_string(device) +
                        " (it has " + std::to_string(kDevices) + ")");
  return KF_INVALID_ARGUMENT;
}

kf_status_t td_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  find_hooks();
  find_fallback_ops(host);
  if (out_state != nullptr) *out_state = nullptr;
  return KF_OK;
}

int32_t td_device_count(void* /*state*/) { return kDevices; }

kf_status_t td_device_properties(void* /*state*/, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr) return KF_INVALID_ARGUMENT;
  if (device < 0 || device >= kDevices) return bad_device(device);
  std::memset(out->name, 0, sizeof(out->name));
  const std::string name = std::string(KF_TESTDEV_NAME) + ":" + std::to_string(device);
  std::strncpy(out->name, name.c_str(), sizeof(out->name) - 1);
  out->total_memory = 1ull << 30;
  out->compute_units = 1;
  return KF_OK;
}

kf_status_t td_allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
  if (device < 0 || device >= kDevices) return bad_device(device);
  const kf_status_t s = kf::plugin::host_memory::allocate(state, device, bytes, out_ptr);
  if (s == KF_OK) hooks().live[device].fetch_add(1, std::memory_order_relaxed);
  return s;
}

void td_deallocate(void* state, int32_t device, void* ptr, size_t bytes) {
  if (ptr == nullptr) return;
  if (device >= 0 && device < kDevices) {
    hooks().live[device].fetch_sub(1, std::memory_order_relaxed);
  }
  kf::plugin::host_memory::deallocate(state, device, ptr, bytes);
}

kf_status_t td_copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                    int32_t kind) {
  if (device < 0 || device >= kDevices) return bad_device(device);
#if KF_TESTDEV_ASYNC
  const kf_status_t s = kf_host_memory_check_copy(kf::plugin::host(), dst, src, bytes, kind);
  if (s != KF_OK || bytes == 0 || dst == src) return s;
  return q_copy(state, device, dst, src, bytes, kind);
#else
  return kf::plugin::host_memory::copy(state, device, dst, src, bytes, kind);
#endif
}

kf_status_t td_memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes) {
  if (device < 0 || device >= kDevices) return bad_device(device);
#if KF_TESTDEV_ASYNC
  if (bytes == 0) return KF_OK;
  return q_memset(state, device, dst, value, bytes);
#else
  return kf::plugin::host_memory::memset(state, device, dst, value, bytes);
#endif
}

kf_status_t td_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  return register_testdev_kernels(reg);
}

#if KF_TESTDEV_ASYNC
void set_async_slots(kf_plugin_t& p) {
  p.synchronize = q_synchronize;
  p.stream_create = q_stream_create;
  p.stream_destroy = q_stream_destroy;
  p.stream_synchronize = q_stream_synchronize;
  p.event_create = q_event_create;
  p.event_destroy = q_event_destroy;
  p.event_record = q_event_record;
  p.event_wait = q_event_wait;
  p.event_synchronize = q_event_synchronize;
  p.event_elapsed_ms = q_event_elapsed_ms;
  p.copy_async = q_copy_async;
  p.host_allocate = q_host_allocate;
  p.host_deallocate = q_host_deallocate;
  p.event_query = q_event_query;
}
#endif

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table(KF_TESTDEV_NAME, "0.0.1");
  p.init = td_init;
  p.device_count = td_device_count;
  p.device_properties = td_device_properties;
  p.allocate = td_allocate;
  p.deallocate = td_deallocate;
  p.copy = td_copy;
  p.memset = td_memset;
  p.register_kernels = td_register_kernels;
#if KF_TESTDEV_ASYNC
  set_async_slots(p);
#endif
  return p;
}

}  // namespace
}  // namespace kf::testdev

KF_PLUGIN_DEFINE(kf::testdev::make_plugin)
