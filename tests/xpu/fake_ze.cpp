// fake_ze.cpp — the fake driver's state, drivers, devices, contexts and memory (fake_ze.hpp).
// Command lists, events, modules and the table: fake_ze_lists.cpp.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "fake_ze_internal.hpp"

namespace fake {

std::recursive_mutex& lock() {
  static std::recursive_mutex m;
  return m;
}

State& state() {
  static State s;
  return s;
}

ze_result_t enter(const char* call) {
  State& s = state();
  s.calls.push_back(call);
  auto found = s.fail.find(call);
  return found == s.fail.end() ? ZE_RESULT_SUCCESS : found->second;
}

void reset() {
  std::lock_guard<std::recursive_mutex> guard(lock());
  State& s = state();
  for (auto& [p, n] : s.device_memory) std::free(p);
  for (auto& [p, n] : s.host_memory) std::free(p);
  s = State{};
}

void run_all() {
  std::lock_guard<std::recursive_mutex> guard(lock());
  State& s = state();
  while (!s.queue.empty()) {
    auto command = std::move(s.queue.front());
    s.queue.erase(s.queue.begin());
    command();
  }
}

int live_objects() {
  std::lock_guard<std::recursive_mutex> guard(lock());
  const State& s = state();
  return s.contexts + s.lists + s.pools + s.events + s.modules + s.kernels + s.logs +
         static_cast<int>(s.device_memory.size() + s.host_memory.size());
}

const unsigned char* fake_module(size_t* size) {
  alignas(4) static const unsigned char bytes[] = {0x03, 0x02, 0x23, 0x07, 0x00, 0x00, 0x01, 0x00,
                                                   0x0e, 0x00, 0x06, 0x00, 0x10, 0x00, 0x00, 0x00,
                                                   0x00, 0x00, 0x00, 0x00};
  *size = sizeof(bytes);
  return bytes;
}

namespace {

#define FAKE_ENTER(name)                                 \
  std::lock_guard<std::recursive_mutex> guard(lock());  \
  if (ze_result_t injected = enter(name)) return injected

ze_result_t fake_init(ze_init_flags_t flags) {
  FAKE_ENTER("zeInit");
  if (flags != ZE_INIT_FLAG_GPU_ONLY) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return state().init_result;
}

ze_result_t fake_driver_get(uint32_t* count, ze_driver_handle_t* drivers) {
  FAKE_ENTER("zeDriverGet");
  static Driver handles[8];
  const auto n = static_cast<uint32_t>(state().drivers.size());
  if (drivers == nullptr) {
    *count = n;
    return ZE_RESULT_SUCCESS;
  }
  for (uint32_t i = 0; i < *count && i < n; ++i) {
    handles[i].index = i;
    drivers[i] = reinterpret_cast<ze_driver_handle_t>(&handles[i]);
  }
  *count = std::min(*count, n);
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_driver_api(ze_driver_handle_t driver, ze_api_version_t* version) {
  FAKE_ENTER("zeDriverGetApiVersion");
  *version = state().drivers.at(as_driver(driver)->index).api;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_driver_props(ze_driver_handle_t driver, ze_driver_properties_t* props) {
  FAKE_ENTER("zeDriverGetProperties");
  if (props->stype != ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES) {
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  props->driverVersion = state().drivers.at(as_driver(driver)->index).version;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_device_get(ze_driver_handle_t driver, uint32_t* count,
                            ze_device_handle_t* devices) {
  FAKE_ENTER("zeDeviceGet");
  static Device handles[8][8];
  const uint32_t d = as_driver(driver)->index;
  const auto n = static_cast<uint32_t>(state().drivers.at(d).devices.size());
  if (devices == nullptr) {
    *count = n;
    return ZE_RESULT_SUCCESS;
  }
  for (uint32_t i = 0; i < *count && i < n; ++i) {
    handles[d][i].driver = d;
    handles[d][i].index = i;
    devices[i] = reinterpret_cast<ze_device_handle_t>(&handles[d][i]);
  }
  *count = std::min(*count, n);
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_device_props(ze_device_handle_t device, ze_device_properties_t* p) {
  FAKE_ENTER("zeDeviceGetProperties");
  if (p->stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  const DeviceSpec& spec = spec_of(device);
  p->type = spec.type;
  p->deviceId = spec.device_id;
  p->maxMemAllocSize = spec.max_alloc;
  p->numSlices = spec.slices;
  p->numSubslicesPerSlice = spec.subslices;
  p->numEUsPerSubslice = spec.eus;
  p->timerResolution = spec.timer_ns;
  p->timestampValidBits = spec.timestamp_bits;
  std::memset(p->name, 0, sizeof(p->name));
  std::strncpy(p->name, spec.name.c_str(), sizeof(p->name) - 1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_compute_props(ze_device_handle_t device, ze_device_compute_properties_t* p) {
  FAKE_ENTER("zeDeviceGetComputeProperties");
  p->maxTotalGroupSize = spec_of(device).max_group;
  p->maxSharedLocalMemory = spec_of(device).local_memory;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_module_props(ze_device_handle_t device, ze_device_module_properties_t* p) {
  FAKE_ENTER("zeDeviceGetModuleProperties");
  const DeviceSpec& spec = spec_of(device);
  p->spirvVersionSupported = spec.spirv;
  p->flags = (spec.fp64 ? ZE_DEVICE_MODULE_FLAG_FP64 : 0) |
             (spec.fp16 ? ZE_DEVICE_MODULE_FLAG_FP16 : 0);
  return ZE_RESULT_SUCCESS;
}

// Two memory ordinals, the device's memory split in halves: the backend must add them up.
ze_result_t fake_memory_props(ze_device_handle_t device, uint32_t* count,
                              ze_device_memory_properties_t* p) {
  FAKE_ENTER("zeDeviceGetMemoryProperties");
  if (p == nullptr) {
    *count = 2;
    return ZE_RESULT_SUCCESS;
  }
  for (uint32_t i = 0; i < *count && i < 2; ++i) p[i].totalSize = spec_of(device).memory / 2;
  return ZE_RESULT_SUCCESS;
}

// A copy-only group first, then (unless the spec says not) the compute group: ordinal 1.
ze_result_t fake_queue_groups(ze_device_handle_t device, uint32_t* count,
                              ze_command_queue_group_properties_t* p) {
  FAKE_ENTER("zeDeviceGetCommandQueueGroupProperties");
  const uint32_t n = spec_of(device).compute_group ? 2 : 1;
  if (p == nullptr) {
    *count = n;
    return ZE_RESULT_SUCCESS;
  }
  if (*count >= 1) p[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  if (*count >= 2 && n == 2) {
    p[1].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                 ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  }
  *count = std::min(*count, n);
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_context_create(ze_driver_handle_t driver, const ze_context_desc_t*,
                                ze_context_handle_t* context) {
  FAKE_ENTER("zeContextCreate");
  *context = reinterpret_cast<ze_context_handle_t>(new Context{as_driver(driver)->index});
  ++state().contexts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_context_destroy(ze_context_handle_t context) {
  FAKE_ENTER("zeContextDestroy");
  delete reinterpret_cast<Context*>(context);
  --state().contexts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_alloc_device(ze_context_handle_t, const ze_device_mem_alloc_desc_t*, size_t size,
                              size_t alignment, ze_device_handle_t device, void** ptr) {
  FAKE_ENTER("zeMemAllocDevice");
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (size > spec_of(device).max_alloc) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  size_t used = 0;
  for (auto& [p, n] : state().device_memory) used += n;
  if (used + size > spec_of(device).memory) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  const size_t align = alignment == 0 ? 64 : alignment;
  *ptr = std::aligned_alloc(align, (size + align - 1) / align * align);
  state().device_memory[*ptr] = size;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_alloc_host(ze_context_handle_t, const ze_host_mem_alloc_desc_t*, size_t size,
                            size_t alignment, void** ptr) {
  FAKE_ENTER("zeMemAllocHost");
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  const size_t align = alignment == 0 ? 64 : alignment;
  *ptr = std::aligned_alloc(align, (size + align - 1) / align * align);
  state().host_memory[*ptr] = size;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fake_free(ze_context_handle_t, void* ptr) {
  FAKE_ENTER("zeMemFree");
  State& s = state();
  if (s.device_memory.erase(ptr) == 0 && s.host_memory.erase(ptr) == 0) {
    ++s.bad_frees;
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  std::free(ptr);
  return ZE_RESULT_SUCCESS;
}

}  // namespace

void fill_device_functions(kf::xpu::ZeApi& api) {
  api.zeInit = fake_init;
  api.zeDriverGet = fake_driver_get;
  api.zeDriverGetApiVersion = fake_driver_api;
  api.zeDriverGetProperties = fake_driver_props;
  api.zeDeviceGet = fake_device_get;
  api.zeDeviceGetProperties = fake_device_props;
  api.zeDeviceGetComputeProperties = fake_compute_props;
  api.zeDeviceGetModuleProperties = fake_module_props;
  api.zeDeviceGetMemoryProperties = fake_memory_props;
  api.zeDeviceGetCommandQueueGroupProperties = fake_queue_groups;
  api.zeContextCreate = fake_context_create;
  api.zeContextDestroy = fake_context_destroy;
  api.zeMemAllocDevice = fake_alloc_device;
  api.zeMemAllocHost = fake_alloc_host;
  api.zeMemFree = fake_free;
}

}  // namespace fake
