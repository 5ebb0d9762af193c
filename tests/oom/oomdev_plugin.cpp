// oomdev_plugin.cpp — the devices of the allocation-failure sweep (tests/oom), one source built
// twice (tests/oom/CMakeLists.txt):
//  - oomdev (OOMDEV_ASYNC=0): device type "oomdev", one device whose memory is host memory
//    (malloc), a float32 `add` and `neg`, and an op it defines itself (oomdev::twice, with its
//    own meta function), so a load of it goes through every part of the registrar's transaction;
//  - oomasync (OOMDEV_ASYNC=1): the same device declared asynchronous, with streams and events,
//    so the core keeps blocks per stream and pending blocks for kf_tensor_record_stream. Its
//    queues run everything at once (a queue that is always done), so no thread is involved and a
//    forked child can use it; its streams and events come from malloc, not operator new, so
//    only the core's allocations are made to fail.
//
// Its allocate slot asks the test executable whether this device allocation must fail
// (kf_oomtest_fail_device_allocation, found with dlsym: alloc_fault.hpp) and then returns
// KF_OUT_OF_MEMORY as a real device would; its memory is the SDK's host memory
// (kernforge/host_memory.hpp). init() `new`s its state and shutdown() `delete`s it,
// so LeakSanitizer catches a loader that rolls the plugin back without shutting it down; when
// that `new` fails, init reports KF_OUT_OF_MEMORY, as a plugin must (no exception crosses the
// plugin ABI).
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

#ifndef OOMDEV_NAME
#  error "build with OOMDEV_NAME and OOMDEV_ASYNC (tests/oom/CMakeLists.txt)"
#endif

namespace oomdev {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kF32 = kf::plugin::dtypes({KF_FLOAT32});

struct State {
  int32_t devices = 1;
};

using FailFn = bool (*)(void);

// The test's hook, or null when the plugin runs outside the sweep.
FailFn fail_hook() {
  static const FailFn fn =
      reinterpret_cast<FailFn>(dlsym(RTLD_DEFAULT, "kf_oomtest_fail_device_allocation"));
  return fn;
}

// ------------------------------------------------------------------ kernels

float load(const kf_tensor_view_t& v, const int64_t* idx, int32_t out_ndim) {
  int64_t off = 0;
  const int32_t lead = out_ndim - v.ndim;
  for (int32_t d = 0; d < v.ndim; ++d) {
    if (v.shape[d] != 1) off += idx[d + lead] * v.strides[d];
  }
  float x;
  std::memcpy(&x, static_cast<const float*>(v.data) + off, sizeof(x));
  return x;
}

void store(const kf_tensor_view_t& out, const int64_t* idx, float x) {
  int64_t off = 0;
  for (int32_t d = 0; d < out.ndim; ++d) off += idx[d] * out.strides[d];
  std::memcpy(static_cast<float*>(out.data) + off, &x, sizeof(x));
}

/// out[i] = f(i) over out's shape in row-major order.
template <class F>
void for_each_index(const kf_tensor_view_t& out, F f) {
  int64_t idx[KF_MAX_NDIM] = {};
  for (int64_t n = 0; n < out.numel; ++n) {
    store(out, idx, f(idx));
    for (int32_t d = out.ndim - 1; d >= 0; --d) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

float scalar_value(const kf_scalar_t& s) {
  return s.tag == KF_SCALAR_FLOAT64 ? static_cast<float>(s.v.f64)
         : s.tag == KF_SCALAR_INT64 ? static_cast<float>(s.v.i64)
                                    : (s.v.b ? 1.0f : 0.0f);
}

void add_f32(const ops::add::Args& a) {
  const float alpha = scalar_value(a.alpha);
  for_each_index(a.out, [&](const int64_t* i) {
    return load(a.self, i, a.out.ndim) + alpha * load(a.other, i, a.out.ndim);
  });
}

void neg_f32(const ops::neg::Args& a) {
  for_each_index(a.out, [&](const int64_t* i) { return -load(a.self, i, a.out.ndim); });
}

kf_status_t twice_meta(const kf_meta_call_t* call) {
  const kf_tensor_view_t& in = call->inputs[0];
  call->outputs[0].dtype = in.dtype;
  call->outputs[0].ndim = in.ndim;
  for (int32_t d = 0; d < in.ndim; ++d) call->outputs[0].shape[d] = in.shape[d];
  return KF_OK;
}

kf_status_t twice_f32(const kf_kernel_call_t* call) {
  const kf_tensor_view_t& in = call->inputs[0];
  for_each_index(call->outputs[0],
                 [&](const int64_t* i) { return 2.0f * load(in, i, call->outputs[0].ndim); });
  return KF_OK;
}

kf_status_t define_twice(const kf_registrar_t* reg) {
  kf_op_definition_t def{};
  def.struct_size = sizeof(def);
  def.schema = "oomdev::twice(Tensor self) -> Tensor";
  def.doc = "2 * self, an op the sweep's device defines.";
  def.meta = twice_meta;
  def.file = __FILE__;
  def.line = __LINE__;
  if (kf_status_t s = reg->define_op(reg->ctx, &def); s != KF_OK) return s;
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = "oomdev::twice";
  desc.dtype_mask = kF32;
  desc.fn = twice_f32;
  desc.file = __FILE__;
  desc.line = __LINE__;
  return reg->register_kernel(reg->ctx, &desc);
}

// ------------------------------------------------------------------- plugin

int32_t od_score(void) { return 1; }

kf_status_t od_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = new (std::nothrow) State();
  if (*out_state == nullptr) {
    host->set_error(OOMDEV_NAME ": out of host memory for the device state");
    return KF_OUT_OF_MEMORY;  // the plugin's own word: the loader records it as failed
  }
  return KF_OK;
}

void od_shutdown(void* state) { delete static_cast<State*>(state); }

int32_t od_device_count(void* state) {
  return state != nullptr ? static_cast<State*>(state)->devices : 0;
}

kf_status_t od_device_properties(void* /*state*/, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr || device != 0) return KF_INVALID_ARGUMENT;
  std::memset(out->name, 0, sizeof(out->name));
  std::snprintf(out->name, sizeof(out->name), "%s:0", OOMDEV_NAME);
  out->total_memory = 1ull << 30;
  out->compute_units = 1;
  return KF_OK;
}

kf_status_t od_allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
  const FailFn fail = fail_hook();
  if (fail != nullptr && fail()) {
    if (out_ptr != nullptr) *out_ptr = nullptr;
    kf::plugin::host()->set_error(OOMDEV_NAME ": out of device memory (the sweep's failure)");
    return KF_OUT_OF_MEMORY;
  }
  return kf::plugin::host_memory::allocate(state, device, bytes, out_ptr);
}

kf_status_t od_describe(void* state, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  std::snprintf(buf, cap, "%s: %d host-memory device(s)", OOMDEV_NAME, od_device_count(state));
  return KF_OK;
}

kf_status_t od_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  if (reg == nullptr || reg->struct_size < sizeof(kf_registrar_t)) return KF_ABI_MISMATCH;
  KF_REGISTER_KERNEL(reg, add, add_f32, kF32);
  KF_REGISTER_KERNEL(reg, neg, neg_f32, kF32);
  return OOMDEV_ASYNC ? KF_OK : define_twice(reg);
}

#if OOMDEV_ASYNC
// Streams and events of a device whose queued work is always done: a kernel runs when it is
// queued, so an event's point is passed as soon as it is recorded.
struct Token {
  int32_t device;
};

kf_status_t make_token(int32_t device, void** out) {
  if (out == nullptr || device != 0) return KF_INVALID_ARGUMENT;
  *out = std::malloc(sizeof(Token));
  if (*out == nullptr) return KF_OUT_OF_MEMORY;
  static_cast<Token*>(*out)->device = device;
  return KF_OK;
}

kf_status_t oa_stream_create(void*, int32_t device, void** out) { return make_token(device, out); }
void oa_stream_destroy(void*, int32_t, void* stream) { std::free(stream); }
kf_status_t oa_stream_synchronize(void*, int32_t, void*) { return KF_OK; }
kf_status_t oa_event_create(void*, int32_t device, void** out) { return make_token(device, out); }
void oa_event_destroy(void*, int32_t, void* event) { std::free(event); }
kf_status_t oa_event_record(void*, int32_t, void*, void*) { return KF_OK; }
kf_status_t oa_event_wait(void*, int32_t, void*, void*) { return KF_OK; }
kf_status_t oa_event_synchronize(void*, int32_t, void*) { return KF_OK; }
kf_status_t oa_event_query(void*, int32_t, void*, int32_t* out_done) {
  if (out_done != nullptr) *out_done = 1;
  return KF_OK;
}
kf_status_t oa_synchronize(void*, int32_t) { return KF_OK; }

void add_streams(kf_plugin_t& p) {
  p.synchronize = oa_synchronize;
  p.stream_create = oa_stream_create;
  p.stream_destroy = oa_stream_destroy;
  p.stream_synchronize = oa_stream_synchronize;
  p.event_create = oa_event_create;
  p.event_destroy = oa_event_destroy;
  p.event_record = oa_event_record;
  p.event_wait = oa_event_wait;
  p.event_synchronize = oa_event_synchronize;
  p.event_query = oa_event_query;
}
#endif

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table(OOMDEV_NAME, "0.0.1");
  p.score = od_score;
  p.init = od_init;
  p.shutdown = od_shutdown;
  p.device_count = od_device_count;
  p.device_properties = od_device_properties;
  kf::plugin::host_memory::set_slots(p);
  p.allocate = od_allocate;  // the sweep's failures first
  p.register_kernels = od_register_kernels;
  p.describe = od_describe;
#if OOMDEV_ASYNC
  add_streams(p);
#endif
  return p;
}

}  // namespace
}  // namespace oomdev

KF_PLUGIN_DEFINE(oomdev::make_plugin)
