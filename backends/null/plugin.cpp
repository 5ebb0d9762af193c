// plugin.cpp — the null backend: a skeleton to copy when writing a new backend (README.md).
//
// Every slot of kf_plugin_t (kernforge/plugin.h) is here, with a line on what a real backend
// does there. What loading needs works: init makes a small State, the backend has one device
// `null:0` with properties and a describe() line, and registers no kernel; manual_seed and
// set_num_threads succeed. Every other slot returns KF_UNIMPLEMENTED with a message naming the
// slot, what to do and the README's step. The table's header and the exported kf_plugin_get
// come from the SDK (kernforge/plugin_table.hpp).
//
// Threads: init and register_kernels run once, on one thread, under the host's loader lock;
// shutdown only if the host rolls the plugin back after init (plugin.h). Every other slot may
// be called from any thread at once: what they share in State must be thread-safe. The State
// lives from init on (for the process, once the backend is loaded).
#include <cstdio>
#include <new>

#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

#ifndef KF_NULL_VERSION
#define KF_NULL_VERSION "0.0.0"
#endif

namespace kf::null_backend {
namespace {

constexpr const char* kName = "null";  // the backend's name and device type (manifest too)

// What init() makes and every slot gets as `state`: a real backend keeps its driver handles
// here (a context per device, the default queues, a table of loaded kernel binaries).
struct State {
  int32_t device_count = 1;
};

// Clears *out (when given), reports "null: <slot> is not implemented: <todo>
// (backends/null/README.md[, step <n>])" to the caller and returns KF_UNIMPLEMENTED; step 0:
// an optional slot. Allocates nothing. Delete it once every slot is done.
template <class Out = void*>
kf_status_t unimplemented(const char* slot, const char* todo, int step, Out* out = nullptr) {
  if (out != nullptr) *out = Out{};
  char where[32] = "";
  if (step > 0) std::snprintf(where, sizeof(where), ", step %d", step);
  char message[384];
  std::snprintf(message, sizeof(message), "%s: %s is not implemented: %s (%s%s)", kName, slot,
                todo, "backends/null/README.md", where);
  if (kf::plugin::host() != nullptr) kf::plugin::host()->set_error(message);
  return KF_UNIMPLEMENTED;
}

// The slots that return nothing only get what this plugin handed out, which it never does yet:
// a call anyway is logged, not ignored silently. ([[maybe_unused]]: unused once they are done.)
[[maybe_unused]] void unexpected(const char* slot) {
  char message[160];
  std::snprintf(message, sizeof(message), "%s was called, but nothing was allocated", slot);
  if (kf::plugin::host() != nullptr) kf::plugin::host()->log(KF_LOG_WARN, kName, message);
}

// ------------------------------------------------------------------ bring-up (working)

// score: before init, cheap, no driver: 0 = cannot run here, higher wins among one device type.
int32_t null_score(void) { return 1; }

// init: loads the driver, finds the devices, makes the state; none: set_error, KF_UNAVAILABLE.
kf_status_t null_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  *out_state = new (std::nothrow) State();
  return *out_state != nullptr ? KF_OK : KF_OUT_OF_MEMORY;
}

// shutdown: releases what init made (queues, contexts, the driver) when the host rolls back.
void null_shutdown(void* state) { delete static_cast<State*>(state); }

// device_count: the devices init found; kernforge names them null:0, null:1, ...
int32_t null_device_count(void* state) { return static_cast<State*>(state)->device_count; }

// device_properties: what the driver says of one device (name, memory in bytes, cores).
kf_status_t null_device_properties(void* state, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr || device < 0 || device >= null_device_count(state)) {
    return KF_INVALID_ARGUMENT;
  }
  std::snprintf(out->name, sizeof(out->name), "%s device %d", kName, device);
  out->total_memory = 0;
  out->compute_units = 1;
  return KF_OK;
}

// describe: one line for `kernforge doctor`: driver and library versions, what was found.
kf_status_t null_describe(void* /*state*/, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  std::snprintf(buf, cap, "skeleton backend: loads, runs nothing (backends/null/README.md)");
  return KF_OK;
}

// register_kernels: one KF_REGISTER_KERNEL per op and dtypes (README step 4); ops without a
// kernel here run on the CPU through the fallback. Many families: kf::plugin::register_families.
kf_status_t null_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  return reg != nullptr && reg->register_kernel != nullptr ? KF_OK : KF_INVALID_ARGUMENT;
}

// manual_seed (optional): reseeds the random generators; kf_manual_seed calls every backend.
kf_status_t null_manual_seed(void*, uint64_t) { return KF_OK; }

// set_num_threads (optional): the host threads it may use; kf_set_num_threads calls every one.
kf_status_t null_set_num_threads(void*, int32_t) { return KF_OK; }

// ------------------------------------------------------------------ memory (README step 3)

// allocate: `bytes` of device memory (0: still a unique pointer); full: KF_OUT_OF_MEMORY.
kf_status_t null_allocate(void*, int32_t, size_t, void** out_ptr) {
  return unimplemented("allocate", "allocate device memory here", 3, out_ptr);
}

// deallocate: frees what allocate returned.
void null_deallocate(void*, int32_t, void*, size_t) { unexpected("deallocate"); }

// copy: kf_copy_kind_t between host and device; done when it returns, after the default queue.
kf_status_t null_copy(void*, int32_t, void*, const void*, size_t, int32_t) {
  return unimplemented("copy", "copy between host and device memory here", 3);
}

// memset (optional, NULL: the host copies a filled host buffer): fills device memory.
kf_status_t null_memset(void*, int32_t, void*, int32_t, size_t) {
  return unimplemented("memset", "fill device memory here, or set the slot to nullptr", 0);
}

// host_allocate / host_deallocate (optional, NULL: ordinary memory): pinned staging memory.
kf_status_t null_host_allocate(void*, size_t, void** out_ptr) {
  return unimplemented("host_allocate", "pin host memory, or set the slot to nullptr", 0,
                       out_ptr);
}
void null_host_deallocate(void*, void*, size_t) { unexpected("host_deallocate"); }

// ------------------------------------------------------------------ streams and events

// A queued device implements these (README step 2); a synchronous one deletes them, down to
// add_stream_and_event_slots and its call: its streams are then one queue, events timestamps.

// synchronize (optional): waits for all work on the device.
kf_status_t null_synchronize(void*, int32_t) {
  return unimplemented("synchronize", "wait for the device's queues here", 2);
}
// stream_create / stream_destroy: one in-order device queue (NULL stands for the default one).
kf_status_t null_stream_create(void*, int32_t, void** out_stream) {
  return unimplemented("stream_create", "create a device queue", 2, out_stream);
}
void null_stream_destroy(void*, int32_t, void*) { unexpected("stream_destroy"); }
// stream_synchronize: blocks until the work queued on the stream is done.
kf_status_t null_stream_synchronize(void*, int32_t, void*) {
  return unimplemented("stream_synchronize", "wait for a device queue", 2);
}
// event_create / event_destroy: a marker that can be recorded on a stream.
kf_status_t null_event_create(void*, int32_t, void** out_event) {
  return unimplemented("event_create", "create a device event", 2, out_event);
}
void null_event_destroy(void*, int32_t, void*) { unexpected("event_destroy"); }
// event_record: marks the point after everything queued on the stream so far.
kf_status_t null_event_record(void*, int32_t, void*, void*) {
  return unimplemented("event_record", "record the event on the queue", 2);
}
// event_wait: later work on the stream waits for the event; the host does not block.
kf_status_t null_event_wait(void*, int32_t, void*, void*) {
  return unimplemented("event_wait", "make the queue wait for the event", 2);
}
// event_synchronize: blocks the host until the event's point is passed.
kf_status_t null_event_synchronize(void*, int32_t, void*) {
  return unimplemented("event_synchronize", "wait for the event", 2);
}
// event_query (optional): *out_done = 1 when passed, 0 when not, without blocking.
kf_status_t null_event_query(void*, int32_t, void*, int32_t* out_done) {
  return unimplemented("event_query", "poll the event, or set the slot to nullptr", 0, out_done);
}
// event_elapsed_ms (optional): the device's milliseconds between two recorded events.
kf_status_t null_event_elapsed_ms(void*, int32_t, void*, void*, double* out_ms) {
  return unimplemented("event_elapsed_ms", "time two events, or set the slot to nullptr", 0,
                       out_ms);
}
// copy_async (optional, NULL: the host synchronizes the stream, then copies): on the stream.
kf_status_t null_copy_async(void*, int32_t, void*, const void*, size_t, int32_t, void*) {
  return unimplemented("copy_async", "queue the copy, or set the slot to nullptr", 0);
}

// The slots of a device with queues. A synchronous backend deletes this and its call.
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
  kf_plugin_t p = kf::plugin::table(kName, KF_NULL_VERSION);  // the header; every slot NULL
  p.score = null_score;
  p.init = null_init;
  p.shutdown = null_shutdown;
  p.device_count = null_device_count;
  p.device_properties = null_device_properties;
  p.describe = null_describe;
  p.register_kernels = null_register_kernels;
  p.manual_seed = null_manual_seed;
  p.set_num_threads = null_set_num_threads;
  p.allocate = null_allocate;  // README step 3 (host memory: host_memory::set_slots(p))
  p.deallocate = null_deallocate;
  p.copy = null_copy;
  p.memset = null_memset;
  p.host_allocate = null_host_allocate;
  p.host_deallocate = null_host_deallocate;
  add_stream_and_event_slots(p);  // README step 2: delete this line for a synchronous device
  return p;
}

}  // namespace
}  // namespace kf::null_backend

// The one exported symbol: the same table on every call; NULL for another ABI major.
KF_PLUGIN_DEFINE(kf::null_backend::make_plugin)
