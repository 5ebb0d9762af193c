// plugin.cpp — the null backend: a skeleton to copy when writing a new backend.
//
// Every slot of kf_plugin_t (kernforge/plugin.h) is here. What the host needs to load the plugin
// works: init makes a small state, the backend has one device `null:0` with properties and a
// describe() line, and registers no kernel. Every other slot returns KF_UNIMPLEMENTED with a
// message naming the slot and README.md, which walks through turning this into a real backend
// (allocate, copy, one kernel, the conformance suite, packaging). The comment above each slot
// says what a real backend does there.
//
// Threads: init, register_kernels and shutdown run once, on one thread, under the host's loader
// lock; every other slot may be called from any thread at once, so what they share in State must
// be thread-safe. The State lives from init to shutdown.
#include <cstdio>
#include <cstring>
#include <new>

#include "kernforge/plugin.hpp"

#ifndef KF_NULL_VERSION
#define KF_NULL_VERSION "0.0.0"
#endif

namespace kf::null_backend {
namespace {

constexpr const char* kName = "null";  // the backend's name and device type (manifest too)

// What init() sets up and every slot gets as `state`: a real backend keeps its driver handles
// here (a context per device, the default queues, a table of loaded kernel binaries).
struct State {
  int32_t device_count = 1;
};

// Reports "null: <slot> is not implemented: <todo> (backends/null/README.md[, step <n>])" to
// the caller (kf_last_error_message) and returns KF_UNIMPLEMENTED. step 0: an optional slot.
// No allocation: safe in any slot. [[maybe_unused]]: nothing calls it once every slot is done.
[[maybe_unused]] kf_status_t unimplemented(const char* slot, const char* todo, int step) {
  char where[48] = "";
  if (step > 0) std::snprintf(where, sizeof(where), ", step %d", step);
  char message[384];
  std::snprintf(message, sizeof(message),
                "%s: %s is not implemented: %s (backends/null/README.md%s)", kName, slot, todo,
                where);
  if (kf::plugin::host() != nullptr) kf::plugin::host()->set_error(message);
  return KF_UNIMPLEMENTED;
}

// The slots returning nothing are only given what this plugin handed out, which it never does
// yet; a call anyway is logged, not ignored silently.
[[maybe_unused]] void unexpected(const char* slot) {
  char message[160];
  std::snprintf(message, sizeof(message), "%s was called, but nothing was allocated", slot);
  if (kf::plugin::host() != nullptr) kf::plugin::host()->log(KF_LOG_WARN, kName, message);
}

// ------------------------------------------------------------------ bring-up (working)

// score: called before init, must be cheap and start no driver. 0 = cannot run here (e.g. the
// driver library is missing), higher = better among plugins of one device type.
int32_t null_score(void) { return 1; }

// init: loads the driver, finds the devices, makes the state. No device: set_error and return
// KF_UNAVAILABLE (the backend is then listed as unavailable with the reason).
kf_status_t null_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  auto* state = new (std::nothrow) State();
  if (state == nullptr) return KF_OUT_OF_MEMORY;
  *out_state = state;
  return KF_OK;
}

// shutdown: releases what init made (queues, contexts, the driver).
void null_shutdown(void* state) { delete static_cast<State*>(state); }

// device_count: the devices init found; kernforge names them null:0, null:1, ...
int32_t null_device_count(void* state) { return static_cast<State*>(state)->device_count; }

// device_properties: what the driver says of one device.
kf_status_t null_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr || device < 0 || device >= null_device_count(state)) {
    return KF_INVALID_ARGUMENT;
  }
  std::memset(out->name, 0, sizeof(out->name));
  std::snprintf(out->name, sizeof(out->name), "%s device %d", kName, device);
  out->total_memory = 0;   // the device's memory in bytes
  out->compute_units = 1;  // its cores, SMs, EUs...
  return KF_OK;
}

// describe: one line for `kernforge doctor`: driver and library versions, what was found.
kf_status_t null_describe(void* /*state*/, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  std::snprintf(buf, cap, "skeleton backend: loads, runs nothing (backends/null/README.md)");
  return KF_OK;
}

// register_kernels: registers the backend's kernels, one KF_REGISTER_KERNEL per op and dtypes
// (see the README). Ops with no kernel here run on the CPU through the fallback. For example:
//
//   void add_f32(const kf::plugin::ops::add::Args& a) {
//     // a.self, a.other: the inputs, broadcast to the output's shape (contiguous with the
//     // flag below); a.alpha: a kf_scalar_t; a.out: the output, which may be a strided view
//     // (in-place ops, out=). Launch the device's add on the queue a.call.stream (NULL: the
//     // default queue). README step 4 has a complete one.
//   }
//   KF_REGISTER_KERNEL_FLAGS(reg, add, add_f32, kf::plugin::dtypes({KF_FLOAT32}),
//                            KF_KERNEL_NEEDS_CONTIGUOUS);
kf_status_t null_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  if (reg == nullptr || reg->register_kernel == nullptr) return KF_INVALID_ARGUMENT;
  return KF_OK;
}

// ------------------------------------------------------------------ memory (to implement)

// allocate: `bytes` of device memory (bytes may be 0: still a unique pointer). The host caches
// blocks above this, so it is called rarely. Out of memory: set_error, KF_OUT_OF_MEMORY.
kf_status_t null_allocate(void*, int32_t, size_t, void** out_ptr) {
  if (out_ptr != nullptr) *out_ptr = nullptr;
  return unimplemented("allocate", "allocate device memory here", 3);
}

// deallocate: frees what allocate returned.
void null_deallocate(void*, int32_t, void*, size_t) { unexpected("deallocate"); }

// copy: `bytes` between host and device, kinds KF_COPY_HOST_TO_DEVICE, _DEVICE_TO_HOST,
// _DEVICE_TO_DEVICE; done when it returns, after the work queued on the default queue.
kf_status_t null_copy(void*, int32_t, void*, const void*, size_t, int32_t) {
  return unimplemented("copy", "copy between host and device memory here", 3);
}

// memset (optional, NULL: the host copies a filled host buffer): fills device memory.
kf_status_t null_memset(void*, int32_t, void*, int32_t, size_t) {
  return unimplemented("memset", "fill device memory here, or set the slot to nullptr", 0);
}

// manual_seed (optional): reseeds the backend's random generators. kf_manual_seed() calls it
// on every backend, so it succeeds: a backend without random kernels has nothing to seed.
kf_status_t null_manual_seed(void*, uint64_t) { return KF_OK; }

// set_num_threads (optional): the host threads the backend may use. kf_set_num_threads()
// calls it on every backend, so it succeeds: this backend starts no thread.
kf_status_t null_set_num_threads(void*, int32_t) { return KF_OK; }

// host_allocate / host_deallocate (optional, NULL: ordinary host memory): pinned host memory
// for staging copies, where the device copies faster from it.
kf_status_t null_host_allocate(void*, size_t, void** out_ptr) {
  if (out_ptr != nullptr) *out_ptr = nullptr;
  return unimplemented("host_allocate", "allocate pinned host memory, or set the slot to nullptr",
                       0);
}
void null_host_deallocate(void*, void*, size_t) { unexpected("host_deallocate"); }

// ------------------------------------------------------------------ streams and events

// A queued device implements all of these (README step 2). A synchronous one deletes this
// section, down to add_stream_and_event_slots, and its call in make_plugin(): the host then
// treats its streams as one queue and its events as host timestamps.

// synchronize (optional): waits for all work on the device.
kf_status_t null_synchronize(void*, int32_t) {
  return unimplemented("synchronize", "wait for the device's queues here", 2);
}

// stream_create / stream_destroy: one in-order device queue (NULL stands for the default one).
kf_status_t null_stream_create(void*, int32_t, void** out_stream) {
  if (out_stream != nullptr) *out_stream = nullptr;
  return unimplemented("stream_create", "create a device queue", 2);
}
void null_stream_destroy(void*, int32_t, void*) { unexpected("stream_destroy"); }

// stream_synchronize: blocks until the work queued on the stream is done.
kf_status_t null_stream_synchronize(void*, int32_t, void*) {
  return unimplemented("stream_synchronize", "wait for a device queue", 2);
}

// event_create / event_destroy: a marker that can be recorded on a stream.
kf_status_t null_event_create(void*, int32_t, void** out_event) {
  if (out_event != nullptr) *out_event = nullptr;
  return unimplemented("event_create", "create a device event", 2);
}
void null_event_destroy(void*, int32_t, void*) { unexpected("event_destroy"); }

// event_record: marks the point after everything queued on the stream so far.
kf_status_t null_event_record(void*, int32_t, void*, void*) {
  return unimplemented("event_record", "record the event on the queue", 2);
}

// event_wait: makes later work on the stream wait for the event, without blocking the host.
kf_status_t null_event_wait(void*, int32_t, void*, void*) {
  return unimplemented("event_wait", "make the queue wait for the event", 2);
}

// event_synchronize: blocks the host until the event's point is passed.
kf_status_t null_event_synchronize(void*, int32_t, void*) {
  return unimplemented("event_synchronize", "wait for the event", 2);
}

// event_query (optional): *out_done = 1 when passed, 0 when not, without blocking.
kf_status_t null_event_query(void*, int32_t, void*, int32_t* out_done) {
  if (out_done != nullptr) *out_done = 0;
  return unimplemented("event_query", "poll the event, or set the slot to nullptr", 0);
}

// event_elapsed_ms (optional): the device's time between two recorded events.
kf_status_t null_event_elapsed_ms(void*, int32_t, void*, void*, double* out_ms) {
  if (out_ms != nullptr) *out_ms = 0;
  return unimplemented("event_elapsed_ms", "time two events, or set the slot to nullptr", 0);
}

// copy_async (optional, NULL: the host synchronizes the stream, then calls copy): a copy
// ordered on the stream.
kf_status_t null_copy_async(void*, int32_t, void*, const void*, size_t, int32_t, void*) {
  return unimplemented("copy_async", "queue the copy on the stream, or set the slot to nullptr",
                       0);
}

// The slots of a device with queues. A synchronous backend deletes the call to this function.
void add_stream_and_event_slots(kf_plugin_t& p) {
  p.synchronize = null_synchronize;
  p.stream_create = null_stream_create;
  p.stream_destroy = null_stream_destroy;
  p.stream_synchronize = null_stream_synchronize;
  p.event_create = null_event_create;
  p.event_destroy = null_event_destroy;
  p.event_record = null_event_record;
  p.event_wait = null_event_wait;
  p.event_synchronize = null_event_synchronize;
  p.event_query = null_event_query;
  p.event_elapsed_ms = null_event_elapsed_ms;
  p.copy_async = null_copy_async;
}

kf_plugin_t make_plugin() {
  kf_plugin_t p{};
  p.struct_size = sizeof(kf_plugin_t);
  p.abi_major = KF_PLUGIN_ABI_MAJOR;
  p.abi_minor = KF_PLUGIN_ABI_MINOR;
  p.name = kName;
  p.version = KF_NULL_VERSION;
  p.device_type = kName;
  p.score = null_score;
  p.init = null_init;
  p.shutdown = null_shutdown;
  p.device_count = null_device_count;
  p.device_properties = null_device_properties;
  p.describe = null_describe;
  p.register_kernels = null_register_kernels;
  p.allocate = null_allocate;
  p.deallocate = null_deallocate;
  p.copy = null_copy;
  p.memset = null_memset;
  p.manual_seed = null_manual_seed;
  p.set_num_threads = null_set_num_threads;
  p.host_allocate = null_host_allocate;
  p.host_deallocate = null_host_deallocate;
  add_stream_and_event_slots(p);  // README step 2: delete this line for a synchronous device
  return p;
}

}  // namespace
}  // namespace kf::null_backend

// The one exported symbol: the same static table on every call; NULL for another ABI major.
extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(uint32_t major, uint32_t /*minor*/) {
  if (major != KF_PLUGIN_ABI_MAJOR) return nullptr;
  static const kf_plugin_t plugin = kf::null_backend::make_plugin();
  return &plugin;
}
