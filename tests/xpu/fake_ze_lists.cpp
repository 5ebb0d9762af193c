// fake_ze_lists.cpp — the fake driver's command lists, events, modules and kernels, and the
// table (fake_ze.hpp).
#include <cstring>
#include <functional>
#include <mutex>

#include "fake_ze_internal.hpp"

namespace fake {
namespace {

#define FAKE_ENTER(name)                                 \
  std::lock_guard<std::recursive_mutex> guard(lock());  \
  if (ze_result_t injected = enter(name)) return injected

Event* as_event(ze_event_handle_t h) { return reinterpret_cast<Event*>(h); }
Kernel* as_kernel(ze_kernel_handle_t h) { return reinterpret_cast<Kernel*>(h); }

/// Runs `command` now, or queues it (State::deferred), and signals `signal` after it.
void submit(const char* op, ze_event_handle_t signal, std::function<void()> command) {
  state().list_ops.push_back(op);
  auto run = [command = std::move(command), signal] {
    command();
    if (signal != nullptr) as_event(signal)->signalled = true;
  };
  if (state().deferred) {
    state().queue.push_back(std::move(run));
  } else {
    run();
  }
}

ze_result_t list_create(ze_context_handle_t, ze_device_handle_t,
                        const ze_command_queue_desc_t* desc, ze_command_list_handle_t* list) {
  FAKE_ENTER("zeCommandListCreateImmediate");
  *list = reinterpret_cast<ze_command_list_handle_t>(new List{desc->ordinal});
  ++state().lists;
  state().list_ordinals.push_back(desc->ordinal);
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_destroy(ze_command_list_handle_t list) {
  FAKE_ENTER("zeCommandListDestroy");
  delete reinterpret_cast<List*>(list);
  --state().lists;
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_copy(ze_command_list_handle_t, void* dst, const void* src, size_t size,
                        ze_event_handle_t signal, uint32_t, ze_event_handle_t*) {
  FAKE_ENTER("zeCommandListAppendMemoryCopy");
  submit("copy", signal, [=] { std::memmove(dst, src, size); });
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_fill(ze_command_list_handle_t, void* ptr, const void* pattern,
                        size_t pattern_size, size_t size, ze_event_handle_t signal, uint32_t,
                        ze_event_handle_t*) {
  FAKE_ENTER("zeCommandListAppendMemoryFill");
  if (pattern_size != 1) return ZE_RESULT_ERROR_INVALID_SIZE;
  const unsigned char value = *static_cast<const unsigned char*>(pattern);  // read at append
  submit("fill", signal, [=] { std::memset(ptr, value, size); });
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_barrier(ze_command_list_handle_t, ze_event_handle_t signal, uint32_t,
                           ze_event_handle_t*) {
  FAKE_ENTER("zeCommandListAppendBarrier");
  submit("barrier", signal, [] {});
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_wait(ze_command_list_handle_t, uint32_t count, ze_event_handle_t* events) {
  FAKE_ENTER("zeCommandListAppendWaitOnEvents");
  std::vector<ze_event_handle_t> waited(events, events + count);
  submit("wait", nullptr, [waited] {
    for (ze_event_handle_t e : waited) {
      if (!as_event(e)->signalled) ++state().waits_on_unsignalled;
    }
  });
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_timestamp(ze_command_list_handle_t, uint64_t* dst, ze_event_handle_t signal,
                             uint32_t, ze_event_handle_t*) {
  FAKE_ENTER("zeCommandListAppendWriteGlobalTimestamp");
  if (state().host_memory.count(dst) == 0) {
    bool inside = false;  // the word must lie in host memory the fake handed out
    for (auto& [p, n] : state().host_memory) {
      inside = inside || (dst >= p && reinterpret_cast<char*>(dst) <
                                          static_cast<char*>(p) + static_cast<ptrdiff_t>(n));
    }
    if (!inside) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  submit("timestamp", signal, [dst] {
    *dst = state().clock;
    state().clock += 1000;
  });
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_launch(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                          const ze_group_count_t* groups, ze_event_handle_t signal, uint32_t,
                          ze_event_handle_t*) {
  FAKE_ENTER("zeCommandListAppendLaunchKernel");
  const Kernel* k = as_kernel(kernel);
  LaunchRecord record;  // the kernel's state at append time, as Level Zero captures it
  record.kernel = k->name;
  std::memcpy(record.group, k->group, sizeof(record.group));
  record.count = *groups;
  record.args = k->args;
  record.local_args = k->local_args;
  record.list = list;
  state().launches.push_back(record);
  submit("launch", signal, [] {});
  return ZE_RESULT_SUCCESS;
}

ze_result_t pool_create(ze_context_handle_t, const ze_event_pool_desc_t* desc, uint32_t,
                        ze_device_handle_t*, ze_event_pool_handle_t* pool) {
  FAKE_ENTER("zeEventPoolCreate");
  if ((desc->flags & ZE_EVENT_POOL_FLAG_HOST_VISIBLE) == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  auto* p = new Pool{desc->count, std::vector<bool>(desc->count, false)};
  *pool = reinterpret_cast<ze_event_pool_handle_t>(p);
  ++state().pools;
  return ZE_RESULT_SUCCESS;
}

ze_result_t pool_destroy(ze_event_pool_handle_t pool) {
  FAKE_ENTER("zeEventPoolDestroy");
  delete reinterpret_cast<Pool*>(pool);
  --state().pools;
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_create(ze_event_pool_handle_t pool, const ze_event_desc_t* desc,
                         ze_event_handle_t* event) {
  FAKE_ENTER("zeEventCreate");
  Pool* p = reinterpret_cast<Pool*>(pool);
  if (desc->index >= p->count || p->used[desc->index]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->used[desc->index] = true;
  *event = reinterpret_cast<ze_event_handle_t>(new Event{p, desc->index, false});
  ++state().events;
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_destroy(ze_event_handle_t event) {
  FAKE_ENTER("zeEventDestroy");
  Event* e = as_event(event);
  e->pool->used[e->index] = false;
  delete e;
  --state().events;
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_sync(ze_event_handle_t event, uint64_t) {
  FAKE_ENTER("zeEventHostSynchronize");
  State& s = state();
  while (!as_event(event)->signalled && !s.queue.empty()) {
    auto command = std::move(s.queue.front());
    s.queue.erase(s.queue.begin());
    command();
  }
  // A real driver would wait forever; the fake says so instead of hanging the test.
  return as_event(event)->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t event_query(ze_event_handle_t event) {
  FAKE_ENTER("zeEventQueryStatus");
  return as_event(event)->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t module_create(ze_context_handle_t, ze_device_handle_t, const ze_module_desc_t* desc,
                          ze_module_handle_t* module, ze_module_build_log_handle_t* log) {
  FAKE_ENTER("zeModuleCreate");
  if (log != nullptr) {
    *log = reinterpret_cast<ze_module_build_log_handle_t>(new Log{state().build_log});
    ++state().logs;
  }
  const auto* il = static_cast<const unsigned char*>(desc->pInputModule);
  const bool spirv = desc->format == ZE_MODULE_FORMAT_IL_SPIRV && desc->inputSize >= 20 &&
                     il[0] == 0x03 && il[1] == 0x02 && il[2] == 0x23 && il[3] == 0x07;
  if (!spirv) return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  if (state().module_result != ZE_RESULT_SUCCESS) return state().module_result;
  *module = reinterpret_cast<ze_module_handle_t>(new Module{desc->inputSize});
  ++state().modules;
  ++state().modules_created;
  return ZE_RESULT_SUCCESS;
}

ze_result_t module_destroy(ze_module_handle_t module) {
  FAKE_ENTER("zeModuleDestroy");
  delete reinterpret_cast<Module*>(module);
  --state().modules;
  return ZE_RESULT_SUCCESS;
}

ze_result_t log_string(ze_module_build_log_handle_t log, size_t* size, char* text) {
  FAKE_ENTER("zeModuleBuildLogGetString");
  const std::string& s = reinterpret_cast<Log*>(log)->text;
  if (text == nullptr) {
    *size = s.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  std::memcpy(text, s.c_str(), std::min(*size, s.size() + 1));
  return ZE_RESULT_SUCCESS;
}

ze_result_t log_destroy(ze_module_build_log_handle_t log) {
  FAKE_ENTER("zeModuleBuildLogDestroy");
  delete reinterpret_cast<Log*>(log);
  --state().logs;
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_create(ze_module_handle_t, const ze_kernel_desc_t* desc,
                          ze_kernel_handle_t* kernel) {
  FAKE_ENTER("zeKernelCreate");
  if (state().missing_kernels.count(desc->pKernelName) != 0) {
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  }
  auto* k = new Kernel;
  k->name = desc->pKernelName;
  *kernel = reinterpret_cast<ze_kernel_handle_t>(k);
  ++state().kernels;
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_destroy(ze_kernel_handle_t kernel) {
  FAKE_ENTER("zeKernelDestroy");
  delete as_kernel(kernel);
  --state().kernels;
  return ZE_RESULT_SUCCESS;
}

ze_result_t group_size(ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z) {
  FAKE_ENTER("zeKernelSetGroupSize");
  Kernel* k = as_kernel(kernel);
  k->group[0] = x;
  k->group[1] = y;
  k->group[2] = z;
  return ZE_RESULT_SUCCESS;
}

ze_result_t set_argument(ze_kernel_handle_t kernel, uint32_t index, size_t size,
                         const void* value) {
  FAKE_ENTER("zeKernelSetArgumentValue");
  Kernel* k = as_kernel(kernel);
  if (value == nullptr) {
    k->local_args[index] = size;
    k->args.erase(index);
  } else {
    const auto* bytes = static_cast<const unsigned char*>(value);
    k->args[index].assign(bytes, bytes + size);
    k->local_args.erase(index);
  }
  return ZE_RESULT_SUCCESS;
}

}  // namespace

void fill_list_functions(kf::xpu::ZeApi& api) {
  api.zeCommandListCreateImmediate = list_create;
  api.zeCommandListDestroy = list_destroy;
  api.zeCommandListAppendMemoryCopy = append_copy;
  api.zeCommandListAppendMemoryFill = append_fill;
  api.zeCommandListAppendBarrier = append_barrier;
  api.zeCommandListAppendWaitOnEvents = append_wait;
  api.zeCommandListAppendWriteGlobalTimestamp = append_timestamp;
  api.zeCommandListAppendLaunchKernel = append_launch;
  api.zeEventPoolCreate = pool_create;
  api.zeEventPoolDestroy = pool_destroy;
  api.zeEventCreate = event_create;
  api.zeEventDestroy = event_destroy;
  api.zeEventHostSynchronize = event_host_sync;
  api.zeEventQueryStatus = event_query;
  api.zeModuleCreate = module_create;
  api.zeModuleDestroy = module_destroy;
  api.zeModuleBuildLogGetString = log_string;
  api.zeModuleBuildLogDestroy = log_destroy;
  api.zeKernelCreate = kernel_create;
  api.zeKernelDestroy = kernel_destroy;
  api.zeKernelSetGroupSize = group_size;
  api.zeKernelSetArgumentValue = set_argument;
}

const kf::xpu::ZeApi& api() {
  static const kf::xpu::ZeApi table = [] {
    kf::xpu::ZeApi t;
    fill_device_functions(t);
    fill_list_functions(t);
    return t;
  }();
  return table;
}

}  // namespace fake
