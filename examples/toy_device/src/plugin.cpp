// plugin.cpp — the toy device's kf_plugin_t and kf_plugin_get, the one symbol the plugin
// exports.
//
// The toy device is a pretend accelerator: it has memory of its own, a fixed-size arena per
// device (arena.hpp), that the core reaches only through the plugin's slots, a few kernels of
// its own (kernels.cpp), an op of its own (scale_op.cpp), and the CPU backend for the rest.
// It is synchronous, so it leaves the stream and event slots of plugin.h NULL.
//
// The life of the plugin, as the core drives it:
//   kf_plugin_get  -> the kf_plugin_t of make_plugin, made once (called when the library is
//                     opened; KF_PLUGIN_DEFINE of kernforge/plugin_table.hpp writes it)
//   score          -> may it run here? (cheap, no driver work)
//   init           -> reads the settings and reserves the arenas; the State is ours until...
//   describe       -> one line for `kernforge doctor`
//   register_kernels -> the kernels and toy::scale
//   ...allocate, copy, kernels, from any thread...
//   shutdown       -> frees the State (the arenas), only if the core rolls the plugin back
//                     after init (a rejected registration, say); a loaded plugin's State lives
//                     for the process
#include <cstdint>
#include <cstdio>
#include <new>
#include <string>

#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"
#include "toy.hpp"

#ifndef TOY_VERSION
#define TOY_VERSION "0.1.0"
#endif

namespace toy {
namespace {

int32_t toy_score(void) { return 1; }  // the toy device runs wherever the host does

// Fills the State: the settings, then one arena per device. Throws std::bad_alloc.
kf_status_t make_state(State* s) {
  std::string error;
  if (read_config(&s->config, &error) != KF_OK) {
    return fail(KF_INVALID_ARGUMENT, "%s", error.c_str());
  }
  if (s->config.memory_mb > (SIZE_MAX >> 20)) {
    return fail(KF_INVALID_ARGUMENT, "KERNFORGE_TOY_MEMORY_MB=%llu is beyond this machine's "
                "address space", static_cast<unsigned long long>(s->config.memory_mb));
  }
  const size_t bytes = static_cast<size_t>(s->config.memory_mb) << 20;
  for (int32_t d = 0; d < s->config.devices; ++d) {
    s->arenas.push_back(std::make_unique<Arena>(bytes));
  }
  return KF_OK;
}

kf_status_t toy_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;  // kf::plugin::set_error and the kernels' trampolines use it
  if (out_state == nullptr) return fail(KF_INVALID_ARGUMENT, "init: out_state is NULL");
  *out_state = nullptr;
  std::unique_ptr<State> state(new (std::nothrow) State());
  if (state == nullptr) return fail(KF_OUT_OF_MEMORY, "init: out of host memory");
  try {
    if (const kf_status_t s = make_state(state.get()); s != KF_OK) return s;
  } catch (const std::bad_alloc&) {  // no exception may cross the plugin ABI
    return fail(KF_OUT_OF_MEMORY,
                "init: cannot reserve %llu MiB of host memory for each of %d device arenas; "
                "set KERNFORGE_TOY_MEMORY_MB or KERNFORGE_TOY_DEVICES lower",
                static_cast<unsigned long long>(state->config.memory_mb), state->config.devices);
  }
  *out_state = state.release();  // the core hands it to every slot, and to shutdown at the end
  return KF_OK;
}

void toy_shutdown(void* state) { delete static_cast<State*>(state); }

int32_t toy_device_count(void* state) {
  return static_cast<int32_t>(static_cast<State*>(state)->arenas.size());
}

kf_status_t toy_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
  const Arena* arena = arena_of(state, device, "device_properties");
  if (arena == nullptr) return KF_INVALID_ARGUMENT;
  if (out == nullptr) return fail(KF_INVALID_ARGUMENT, "device_properties: out is NULL");
  std::snprintf(out->name, sizeof out->name, "toy device %d (host memory arena)", device);
  out->total_memory = arena->capacity();
  out->compute_units = 1;
  return KF_OK;
}

// One line: "2 devices, 256 MiB arena each (first fit, 64-byte aligned); in use: 0: 1.5 MiB, ..."
kf_status_t toy_describe(void* state, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  const State& s = *static_cast<State*>(state);
  int n = std::snprintf(buf, cap, "%zu device%s, %llu MiB arena each (first fit, %zu-byte "
                        "aligned); in use:", s.arenas.size(), s.arenas.size() == 1 ? "" : "s",
                        static_cast<unsigned long long>(s.config.memory_mb), Arena::kAlignment);
  for (size_t d = 0; d < s.arenas.size() && n > 0 && static_cast<size_t>(n) < cap; ++d) {
    n += std::snprintf(buf + n, cap - static_cast<size_t>(n), "%s toy:%zu %.1f MiB",
                       d == 0 ? "" : ",", d, static_cast<double>(s.arenas[d]->used()) / 1048576.0);
  }
  return KF_OK;  // snprintf cuts a line longer than cap, as the slot asks
}

kf_status_t toy_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  if (reg == nullptr) return fail(KF_INVALID_ARGUMENT, "register_kernels: no registrar");
  const kf_status_t s = register_builtin_kernels(reg);
  return s != KF_OK ? s : define_scale_op(reg);
}

kf_plugin_t make_plugin() {
  // The header (struct size, the SDK's plugin ABI, name, version, device type "toy": a new
  // device type, which the core gives a number when it loads); every slot not set below is
  // NULL: optional, the core's default.
  kf_plugin_t p = kf::plugin::table("toy", TOY_VERSION);
  p.score = toy_score;
  p.init = toy_init;
  p.shutdown = toy_shutdown;
  p.device_count = toy_device_count;
  p.device_properties = toy_device_properties;
  p.allocate = allocate;
  p.deallocate = deallocate;
  p.copy = copy;
  p.memset = memset;
  p.register_kernels = toy_register_kernels;
  p.describe = toy_describe;
  return p;
}

}  // namespace
}  // namespace toy

// The one exported symbol. A host of another ABI major gets NULL (the core then reports the
// mismatch); a host of a newer minor is fine: it reads only the slots of our minor.
KF_PLUGIN_DEFINE(toy::make_plugin)
