// fake_ze_internal.hpp — what the two files of the fake driver share (fake_ze.hpp).
#pragma once

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "fake_ze.hpp"

namespace fake {

struct Driver {
  uint32_t index = 0;
};
struct Device {
  uint32_t driver = 0;
  uint32_t index = 0;
};
struct Context {
  uint32_t driver = 0;
};
struct List {
  uint32_t ordinal = 0;
};
struct Pool {
  uint32_t count = 0;
  std::vector<bool> used;
};
struct Event {
  Pool* pool = nullptr;
  uint32_t index = 0;
  bool signalled = false;
};
struct Module {
  size_t size = 0;
};
struct Kernel {
  std::string name;
  uint32_t group[3] = {0, 0, 0};
  std::map<uint32_t, std::vector<unsigned char>> args;
  std::map<uint32_t, size_t> local_args;
};
struct Log {
  std::string text;
};

std::recursive_mutex& lock();
/// Records the call; the result injected for it (State::fail), or ZE_RESULT_SUCCESS.
ze_result_t enter(const char* call);

inline Driver* as_driver(ze_driver_handle_t h) { return reinterpret_cast<Driver*>(h); }
inline const DeviceSpec& spec_of(ze_device_handle_t h) {
  const Device* d = reinterpret_cast<const Device*>(h);
  return state().drivers.at(d->driver).devices.at(d->index);
}

void fill_device_functions(kf::xpu::ZeApi& api);
void fill_list_functions(kf::xpu::ZeApi& api);

}  // namespace fake
