// fake_ze.hpp — a fake Level Zero driver behind the xpu backend's ZeApi table, so its host
// logic runs here without hardware.
//
// The fake keeps one global State (the ze* functions are plain C function pointers, with no
// context of their own): the drivers and devices it reports, failures to inject per function,
// what the driver says about modules, and a record of what the backend did (calls, objects
// alive, memory, launches). Command lists run their commands at once, or, with
// State::deferred, only when the host waits for an event queued after them
// (zeEventHostSynchronize) or a test calls run_all(): then event queries, waits and
// synchronous copies can be told apart from work that has run.
//
// Thread safety: one mutex around everything (tests that use threads stay correct). reset()
// must not race with the backend.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ze_api.hpp"

namespace fake {

struct DeviceSpec {
  ze_device_type_t type = ZE_DEVICE_TYPE_GPU;
  std::string name = "Fake Arc";
  uint32_t device_id = 0x56a0;
  uint64_t memory = uint64_t{8} << 30;
  uint64_t max_alloc = uint64_t{4} << 30;
  uint32_t slices = 2, subslices = 4, eus = 8;  // 64 EUs
  bool fp64 = true;
  bool fp16 = true;
  uint32_t max_group = 512;
  uint32_t local_memory = 65536;
  bool compute_group = true;  // false: only a copy queue group
  uint32_t spirv = ZE_MAKE_VERSION(1, 2);
  uint64_t timer_ns = 2;
  uint32_t timestamp_bits = 64;
};

struct DriverSpec {
  uint32_t version = (1u << 24) | (3u << 16) | 26241u;  // "1.3.26241"
  ze_api_version_t api = ZE_API_VERSION_1_3;
  std::vector<DeviceSpec> devices{DeviceSpec{}};
};

/// One kernel launch as appended: the kernel's state at that moment.
struct LaunchRecord {
  std::string kernel;
  uint32_t group[3] = {0, 0, 0};
  ze_group_count_t count{};
  std::map<uint32_t, std::vector<unsigned char>> args;  // value bytes (a pointer's value too)
  std::map<uint32_t, size_t> local_args;                // local memory sizes
  void* list = nullptr;
};

struct State {
  // ---- what the driver reports and does
  ze_result_t init_result = ZE_RESULT_SUCCESS;
  std::vector<DriverSpec> drivers{DriverSpec{}};
  std::map<std::string, ze_result_t> fail;  // ze function name -> the result it returns
  ze_result_t module_result = ZE_RESULT_SUCCESS;
  std::string build_log;
  std::set<std::string> missing_kernels;
  bool deferred = false;
  // ---- what the backend did
  std::vector<std::string> calls;  // every ze function called, in order
  int contexts = 0, lists = 0, pools = 0, events = 0, modules = 0, kernels = 0, logs = 0;
  int modules_created = 0;
  std::vector<uint32_t> list_ordinals;  // the queue group ordinal of every list created
  std::map<void*, size_t> device_memory, host_memory;
  int bad_frees = 0;
  int waits_on_unsignalled = 0;  // a queued wait ran before its event was signalled
  std::vector<LaunchRecord> launches;
  std::vector<std::string> list_ops;  // per command appended: "barrier", "copy", "launch", ...
  uint64_t clock = 1000;  // the global timestamp: +1000 per timestamp written
  std::vector<std::function<void()>> queue;  // deferred commands, in append order
};

/// The fake's state; reset() puts back the defaults and frees what the backend left.
State& state();
void reset();
/// Runs every deferred command.
void run_all();
/// How many ze objects are alive (contexts, lists, pools, events, modules, kernels, logs,
/// allocations): 0 after a clean shutdown.
int live_objects();

/// The table of the fake driver.
const kf::xpu::ZeApi& api();

/// A few bytes that start like SPIR-V (the magic number), for tests' module libraries.
const unsigned char* fake_module(size_t* size);

}  // namespace fake
