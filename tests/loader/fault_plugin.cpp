// fault_plugin.cpp — the fault plugins of the loader tests: ONE
// source, built once per case with FAULT_<CASE>=1 and FAULT_NAME="fault_<case>" into
// libkernforge_fault_<case> (tests/loader/CMakeLists.txt).
//
// The plain plugin (FAULT_OK) serves device type "faultdev": one device whose memory is host
// memory (the SDK's kernforge/host_memory.hpp), and one real kernel, float32 `neg`, so a loaded
// fault plugin can be exercised. The table comes from kf::plugin::table and kf_plugin_get from
// KF_PLUGIN_DEFINE, except where a case breaks them on purpose (the ABI, the size, the entry).
// init() `new`s its state and shutdown() `delete`s it: LeakSanitizer (label `loader` runs under
// ASan in CI) catches a loader that forgets shutdown when it rolls a plugin back.
//
// Cases:
//   NO_ENTRY               exports no kf_plugin_get (its entry is misspelt)
//   ABI_MAJOR_NEWER/OLDER  claims the next plugin ABI major (<major + 1>.0) / 1.3, the last
//                          of ABI 1 (a plugin built before the 2.0 break)
//   MINOR_NEWER            claims <major>.99 with a kf_plugin_t grown by slots the host does
//                          not know
//   MINOR_OLDER            a kf_plugin_t that ends before `describe` (struct_size =
//                          offsetof(kf_plugin_t, describe), as a build of a minor without it);
//                          where `describe` would be lies a poison the host must never call
//   INIT_UNAVAILABLE       init: set_error("no faultdev device here"), KF_UNAVAILABLE
//   INIT_FAILS             init: KF_INTERNAL with a message
//   INIT_THROWS            init throws std::runtime_error
//   SCORE_ZERO             score() is 0; init aborts the process if it ever runs
//   DUPLICATE_REGISTRATION add, then neg twice from two lines (FAULT_SITE_1, FAULT_SITE_2)
//   CPU_CONFLICT           device type "cpu" (the CPU plugin's) with score 10, above the CPU
//                          plugin's 1: a third party that would take cpu on score alone
//   UNKNOWN_OP             registers "no_such_op_xyz" before its good kernel
//   NEEDS_DEP              init calls kf_test_dep_answer() from libkf_test_dep (linked, no RPATH)
//   SCHEMA_HASH_MISMATCH   registers add built for another signature (a wrong schema hash)
//   DEFINE_OP              defines fault::twice(Tensor self) -> Tensor (its own meta) and
//                          fault::negate(Tensor self) -> Tensor (core rule "unary"), with kernels
//   DEFINE_CONFLICT        device type "faultdev2"; defines fault::twice with another schema
//   DEFINE_UNNAMESPACED    defines twice(Tensor self) -> Tensor: no namespace
//   DEFINE_BAD_RULE        defines fault::bad(Tensor self, int n) -> Tensor with rule "unary"
//   COMPOSITE_NO_META      registers a kernel for clone, a composite without a meta rule
//   VIEW_KERNEL            registers a kernel for reshape, a view
//   NEEDS_KFX              init calls kfx_touch() from libkfx.so.1 (Linux; linked, no RPATH), so
//                          the copy whose kfx_calls counts 1 is the one the plugin resolved to
//   DEVICE_COUNT_NEGATIVE  device_count() is -1
//   DEVICE_COUNT_HUGE      device_count() is 1 << 20
//   SILENT_KERNEL          neg returns KF_INTERNAL and allocations over 1 MiB KF_OUT_OF_MEMORY,
//                          both without set_error
//   ODD_STATUS             neg returns 1234 without set_error; allocations over 1 MiB return -7
//                          with a message: statuses kf_status_t does not define
//   INIT_ODD_STATUS        init returns 77 without set_error
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#if defined(_WIN32)
#  include <windows.h>
#else
#  include <dlfcn.h>
#endif

#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

#ifndef FAULT_NAME
#  error "build with FAULT_NAME=\"fault_<case>\" (tests/loader/CMakeLists.txt)"
#endif

#if FAULT_NEEDS_DEP
extern "C" int kf_test_dep_answer(void);
#endif
#if FAULT_NEEDS_KFX
extern "C" int kfx_touch(void);
#endif

namespace fault {
namespace {

namespace ops = kf::plugin::ops;

#if FAULT_CPU_CONFLICT
constexpr const char* kDeviceType = "cpu";
#elif FAULT_DEFINE_CONFLICT
constexpr const char* kDeviceType = "faultdev2";
#else
constexpr const char* kDeviceType = "faultdev";
#endif
constexpr uint32_t kF32 = kf::plugin::dtypes({KF_FLOAT32});

/// What init() allocates and shutdown() frees.
struct State {
  int32_t devices = 1;
  char tag[16] = "faultdev";
};

// ------------------------------------------------------------------ kernels

float load_f32(const void* p) {
  float v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

/// Address of element `idx` (in out's shape) of view v, broadcast to out's rank.
const char* address(const kf_tensor_view_t& v, const kf_tensor_view_t& out, const int64_t* idx) {
  int64_t off = 0;
  const int32_t lead = out.ndim - v.ndim;
  for (int32_t d = 0; d < v.ndim; ++d) {
    if (v.shape[d] != 1) off += idx[d + lead] * v.strides[d];
  }
  return static_cast<const char*>(v.data) + off * static_cast<int64_t>(sizeof(float));
}

/// out[i] = f(in...[i]) over out's shape in row-major order (float32 only).
template <class F, class... In>
void elementwise(const kf_tensor_view_t& out, F f, const In&... in) {
  int64_t idx[KF_MAX_NDIM] = {};
  for (int64_t n = 0; n < out.numel; ++n) {
    const float r = f(load_f32(address(in, out, idx))...);
    std::memcpy(const_cast<char*>(address(out, out, idx)), &r, sizeof(r));
    for (int32_t d = out.ndim - 1; d >= 0; --d) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

void neg_f32(const ops::neg::Args& a) {
  elementwise(a.out, [](float x) { return -x; }, a.self);
}

#if FAULT_DUPLICATE_REGISTRATION
void add_f32(const ops::add::Args& a) {
  const float alpha = a.alpha.tag == KF_SCALAR_FLOAT64 ? static_cast<float>(a.alpha.v.f64)
                      : a.alpha.tag == KF_SCALAR_INT64 ? static_cast<float>(a.alpha.v.i64)
                                                       : (a.alpha.v.b ? 1.0f : 0.0f);
  elementwise(a.out, [alpha](float x, float y) { return x + alpha * y; }, a.self, a.other);
}
#endif

// ------------------------------------------------------------ test hooks

#if FAULT_MINOR_OLDER
/// A symbol the test executable exports (kf_fault_poison_calls), or null.
void* find_test_hook(const char* name) {
#  if defined(_WIN32)
  return reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(nullptr), name));
#  else
  return dlsym(RTLD_DEFAULT, name);
#  endif
}

/// Lies where ABI 1.1's `describe` would be, beyond the struct_size of this 1.0 plugin. The host
/// must never call it: it counts the call for the test (or aborts when no test is watching).
kf_status_t poison_describe(void* /*state*/, char* buf, size_t cap) {
  auto* calls = static_cast<std::atomic<int>*>(find_test_hook("kf_fault_poison_calls"));
  if (calls == nullptr) {
    std::fputs(FAULT_NAME ": POISON: the host called `describe` beyond struct_size\n", stderr);
    std::abort();
  }
  calls->fetch_add(1);
  if (buf != nullptr && cap > 0) std::snprintf(buf, cap, "POISON: describe of a 1.0 plugin");
  return KF_OK;
}
#endif

// ------------------------------------------------------------------- plugin

int32_t fd_score(void) {
#if FAULT_SCORE_ZERO
  return 0;
#elif FAULT_CPU_CONFLICT
  return 10;
#else
  return 1;
#endif
}

kf_status_t fd_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
#if FAULT_SCORE_ZERO
  std::fputs(FAULT_NAME ": init ran although score() returned 0\n", stderr);
  std::abort();
#elif FAULT_INIT_UNAVAILABLE
  host->set_error("no faultdev device here");
  return KF_UNAVAILABLE;
#elif FAULT_INIT_FAILS
  host->set_error(FAULT_NAME ": the faultdev firmware did not answer");
  return KF_INTERNAL;
#elif FAULT_INIT_THROWS
  throw std::runtime_error(FAULT_NAME ": init threw on purpose");
#elif FAULT_INIT_ODD_STATUS
  (void)out_state;
  return static_cast<kf_status_t>(77);
#else
#  if FAULT_NEEDS_DEP
  if (kf_test_dep_answer() != 42) {
    host->set_error(FAULT_NAME ": kf_test_dep_answer() is not 42");
    return KF_INTERNAL;
  }
#  endif
#  if FAULT_NEEDS_KFX
  if (kfx_touch() < 1) {
    host->set_error(FAULT_NAME ": kfx_touch() did not count its call");
    return KF_INTERNAL;
  }
#  endif
  if (out_state == nullptr) return KF_INVALID_ARGUMENT;
  *out_state = new State();
  return KF_OK;
#endif
}

void fd_shutdown(void* state) { delete static_cast<State*>(state); }

int32_t fd_device_count(void* state) {
#if FAULT_DEVICE_COUNT_NEGATIVE
  (void)state;
  return -1;
#elif FAULT_DEVICE_COUNT_HUGE
  (void)state;
  return 1 << 20;
#else
  return state != nullptr ? static_cast<State*>(state)->devices : 0;
#endif
}

kf_status_t fd_device_properties(void* /*state*/, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr || device != 0) return KF_INVALID_ARGUMENT;
  std::memset(out->name, 0, sizeof(out->name));
  std::snprintf(out->name, sizeof(out->name), "%s:0", kDeviceType);
  out->total_memory = 1ull << 30;
  out->compute_units = 1;
  return KF_OK;
}

kf_status_t fd_allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
#if FAULT_SILENT_KERNEL
  if (bytes > (size_t{1} << 20)) return KF_OUT_OF_MEMORY;  // no set_error
#elif FAULT_ODD_STATUS
  if (bytes > (size_t{1} << 20)) {
    kf::plugin::set_error(FAULT_NAME ": this allocation returns an odd status");
    return static_cast<kf_status_t>(-7);
  }
#endif
  return kf::plugin::host_memory::allocate(state, device, bytes, out_ptr);
}

kf_status_t fd_describe(void* state, char* buf, size_t cap) {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  std::snprintf(buf, cap, "%s: %d host-memory device(s)", FAULT_NAME, fd_device_count(state));
  return KF_OK;
}

#if FAULT_UNKNOWN_OP
/// An op this host's schema lacks (a plugin built against a newer op set).
kf_status_t register_unknown_op(const kf_registrar_t* reg) {
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = "no_such_op_xyz";
  desc.schema_hash = 0;
  desc.dtype_mask = kF32;
  desc.fn = &kf::plugin::trampoline<ops::neg, &neg_f32>;
  desc.file = __FILE__;
  desc.line = __LINE__;
  return reg->register_kernel(reg->ctx, &desc);
}
#endif

#if FAULT_SCHEMA_HASH_MISMATCH || FAULT_DEFINE_OP || FAULT_COMPOSITE_NO_META || FAULT_VIEW_KERNEL
/// Registers the neg kernel's trampoline under another op name and schema hash.
kf_status_t register_raw(const kf_registrar_t* reg, const char* op, uint64_t hash, int32_t line) {
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = op;
  desc.schema_hash = hash;
  desc.dtype_mask = kF32;
  desc.fn = &kf::plugin::trampoline<ops::neg, &neg_f32>;
  desc.file = __FILE__;
  desc.line = line;
  return reg->register_kernel(reg->ctx, &desc);
}
#endif

#if FAULT_DEFINE_OP || FAULT_DEFINE_CONFLICT || FAULT_DEFINE_UNNAMESPACED || FAULT_DEFINE_BAD_RULE
/// Output 0 has input 0's shape and dtype.
[[maybe_unused]] kf_status_t same_as_input(const kf_meta_call_t* call) {
  const kf_tensor_view_t& in = call->inputs[0];
  call->outputs[0].dtype = in.dtype;
  call->outputs[0].ndim = in.ndim;
  for (int32_t d = 0; d < in.ndim; ++d) call->outputs[0].shape[d] = in.shape[d];
  return KF_OK;
}

kf_status_t define(const kf_registrar_t* reg, const char* schema, kf_meta_fn meta,
                   const char* rule) {
  kf_op_definition_t def{};
  def.struct_size = sizeof(def);
  def.schema = schema;
  def.doc = "A test op of the fault plugin.";
  def.meta = meta;
  def.meta_rule = rule;
  def.file = __FILE__;
  def.line = __LINE__;
  return reg->define_op(reg->ctx, &def);
}
#endif

#if FAULT_DEFINE_OP
/// fault::twice: out = 2 * self (float32), registered through the plain C descriptor.
kf_status_t twice_f32(const kf_kernel_call_t* call) {
  elementwise(call->outputs[0], [](float x) { return 2.0f * x; }, call->inputs[0]);
  return KF_OK;
}

kf_status_t register_defined_ops(const kf_registrar_t* reg) {
  if (reg->struct_size < sizeof(kf_registrar_t)) return KF_ABI_MISMATCH;
  if (kf_status_t s = define(reg, "fault::twice(Tensor self) -> Tensor", same_as_input, nullptr);
      s != KF_OK) {
    return s;
  }
  if (kf_status_t s = define(reg, "fault::negate(Tensor self) -> Tensor", nullptr, "unary");
      s != KF_OK) {
    return s;
  }
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = "fault::twice";
  desc.dtype_mask = kF32;
  desc.fn = twice_f32;
  desc.file = __FILE__;
  desc.line = __LINE__;
  if (kf_status_t s = reg->register_kernel(reg->ctx, &desc); s != KF_OK) return s;
  return register_raw(reg, "fault::negate", 0, __LINE__);
}
#endif

#if FAULT_SILENT_KERNEL || FAULT_ODD_STATUS
/// neg that fails without calling set_error: KF_INTERNAL, or a status no ABI defines.
kf_status_t failing_neg(const kf_kernel_call_t* /*call*/) {
#  if FAULT_SILENT_KERNEL
  return KF_INTERNAL;
#  else
  return static_cast<kf_status_t>(1234);
#  endif
}

kf_status_t register_failing_neg(const kf_registrar_t* reg) {
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = "neg";
  desc.dtype_mask = kF32;
  desc.fn = failing_neg;
  desc.file = __FILE__;
  desc.line = __LINE__;
  return reg->register_kernel(reg->ctx, &desc);
}
#endif

kf_status_t fd_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  if (reg == nullptr || reg->register_kernel == nullptr) return KF_INVALID_ARGUMENT;
#if FAULT_SILENT_KERNEL || FAULT_ODD_STATUS
  return register_failing_neg(reg);
#endif
#if FAULT_DUPLICATE_REGISTRATION
  KF_REGISTER_KERNEL(reg, add, add_f32, kF32);
  KF_REGISTER_KERNEL(reg, neg, neg_f32, kF32);  // FAULT_SITE_1
  KF_REGISTER_KERNEL(reg, neg, neg_f32, kF32);  // FAULT_SITE_2
  return KF_OK;
#else
#  if FAULT_UNKNOWN_OP
  if (const kf_status_t s = register_unknown_op(reg); s != KF_OK) return s;
#  endif
#  if FAULT_SCHEMA_HASH_MISMATCH
  // Warned about and skipped: the plugin still loads with its neg kernel.
  (void)register_raw(reg, "add", 0x0123456789abcdefull, __LINE__);
#  endif
#  if FAULT_DEFINE_OP
  if (const kf_status_t s = register_defined_ops(reg); s != KF_OK) return s;
#  endif
#  if FAULT_DEFINE_CONFLICT
  // The status is ignored on purpose: a definition error must reject the plugin anyway.
  (void)define(reg, "fault::twice(Tensor self, int n) -> Tensor", same_as_input, nullptr);
#  endif
#  if FAULT_DEFINE_UNNAMESPACED
  (void)define(reg, "twice(Tensor self) -> Tensor", same_as_input, nullptr);
#  endif
#  if FAULT_DEFINE_BAD_RULE
  (void)define(reg, "fault::bad(Tensor self, int n) -> Tensor", nullptr, "unary");
#  endif
#  if FAULT_COMPOSITE_NO_META
  (void)register_raw(reg, "clone", 0, __LINE__);
#  endif
#  if FAULT_VIEW_KERNEL
  (void)register_raw(reg, "reshape", 0, __LINE__);
#  endif
  KF_REGISTER_KERNEL(reg, neg, neg_f32, kF32);
  return KF_OK;
#endif
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table(FAULT_NAME, "0.0.1", kDeviceType);
  p.score = fd_score;
  p.init = fd_init;
  p.shutdown = fd_shutdown;
  p.device_count = fd_device_count;
  p.device_properties = fd_device_properties;
  kf::plugin::host_memory::set_slots(p);
  p.allocate = fd_allocate;  // with the allocation faults
  p.register_kernels = fd_register_kernels;
  p.describe = fd_describe;
  // The faults of the header: written over what table() filled.
#if FAULT_ABI_MAJOR_NEWER
  p.abi_major = KF_PLUGIN_ABI_MAJOR + 1;
  p.abi_minor = 0;
#elif FAULT_ABI_MAJOR_OLDER
  p.abi_major = 1;
  p.abi_minor = 3;
#elif FAULT_MINOR_OLDER
  p.abi_minor = 0;
  p.struct_size = offsetof(kf_plugin_t, describe);
  p.describe = poison_describe;
#endif
  return p;
}

#if FAULT_MINOR_NEWER
/// kf_plugin_t of a future minor: the host's struct followed by slots it does not know.
struct FuturePlugin {
  kf_plugin_t base;
  void* future_slots[4];
};

const kf_plugin_t* plugin_object() {
  static const FuturePlugin plugin = [] {
    FuturePlugin f{};
    f.base = make_plugin();
    f.base.struct_size = sizeof(FuturePlugin);
    f.base.abi_minor = 99;
    return f;
  }();
  return &plugin.base;
}
#endif

}  // namespace
}  // namespace fault

// The entry: KF_PLUGIN_DEFINE's, except for the cases whose kf_plugin_get is the fault.
#if FAULT_ABI_MAJOR_NEWER || FAULT_ABI_MAJOR_OLDER
// Returns its object whatever the host asks, so the host can name both versions.
extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(uint32_t /*major*/,
                                                             uint32_t /*minor*/) {
  static const kf_plugin_t plugin = fault::make_plugin();
  return &plugin;
}
#elif FAULT_NO_ENTRY
// Misspelt: the library exports no kf_plugin_get (the version script hides this one too).
extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get_v1(uint32_t major, uint32_t minor);
extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get_v1(uint32_t major, uint32_t minor) {
  (void)minor;
  static const kf_plugin_t plugin = fault::make_plugin();
  return major == KF_PLUGIN_ABI_MAJOR ? &plugin : nullptr;
}
#elif FAULT_MINOR_NEWER
// A table larger than kf_plugin_t: the one whose address plugin_object() returns.
extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(uint32_t major, uint32_t minor) {
  (void)minor;
  return major == KF_PLUGIN_ABI_MAJOR ? fault::plugin_object() : nullptr;
}
#else
KF_PLUGIN_DEFINE(fault::make_plugin)
#endif
