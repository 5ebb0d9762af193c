// kernforge/plugin.hpp — header-only C++ helpers for kernel authors, over plugin.h.
//
// A kernel is a typed C++ function of the op's generated Args struct (plugin_ops.hpp):
//
//   void add_f32(const kf::plugin::ops::add::Args& a) { ... a.self, a.other, a.alpha, a.out ... }
//
// registered in one line inside register_kernels:
//
//   KF_REGISTER_KERNEL(reg, add, add_f32, kf::plugin::dtypes({KF_FLOAT32}));
//
// The trampoline unpacks kf_kernel_call_t, calls the function, and turns a thrown
// kf::plugin::KernelError (or any other exception) into a status and a host error message, so
// no exception crosses the ABI; std::bad_alloc becomes KF_OUT_OF_MEMORY, and reporting it needs
// no memory. Registration records the file and line (provenance).
//
// Thread safety: host() is set once, by the plugin's init (`kf::plugin::host() = host;`), before
// any kernel or other slot runs, and only read afterwards.
//
// The SDK's other C++ headers, one concept each: plugin_table.hpp (the kf_plugin_t header and
// KF_PLUGIN_DEFINE, the exported kf_plugin_get), plugin_families.hpp (register_kernels over op
// families), host_memory.hpp (memory slots over host memory), philox.hpp (random bits).
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>

#include "kernforge/dtypes.hpp"
#include "kernforge/plugin.h"
#include "kernforge/plugin_ops.hpp"

namespace kf::plugin {

/// The host API the plugin got in init(); nullptr before.
inline const kf_host_api_t*& host() {
  static const kf_host_api_t* h = nullptr;
  return h;
}

/// Thrown by kernels; becomes `status` with `message` at the C ABI.
class KernelError : public std::exception {
 public:
  KernelError(kf_status_t status, std::string message)
      : status_(status), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  kf_status_t status() const noexcept { return status_; }

 private:
  kf_status_t status_;
  std::string message_;
};

/// Reports `message` to the host (the caller sees it in kf_last_error_message).
inline void set_error(const std::string& message) {
  if (host() != nullptr && host()->set_error != nullptr) host()->set_error(message.c_str());
}

/// Reports "<op>: <what><detail>" to the host without allocating (a stack buffer; long texts
/// are cut), so it works when memory has run out, e.g. in a handler of std::bad_alloc.
inline void set_error_noalloc(const char* op, const char* what, const char* detail) noexcept {
  if (host() == nullptr || host()->set_error == nullptr) return;
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%s: %s%s", op, what, detail != nullptr ? detail : "");
  host()->set_error(buf);
}

/// Logs through the host's logger.
inline void log(kf_log_level_t level, const char* plugin, const std::string& message) {
  if (host() != nullptr && host()->log != nullptr) host()->log(level, plugin, message.c_str());
}

/// A dtype mask from a list of dtypes.
constexpr uint32_t dtypes(std::initializer_list<kf_dtype_t> list) {
  uint32_t mask = 0;
  for (kf_dtype_t d : list) mask |= dtype_bit(d);
  return mask;
}

/// Every dtype (kernforge/dtypes.hpp has the masks by kind).
using ::kf::kAllDtypes;

/// The C trampoline of a typed kernel `Fn` for op `Op`.
template <class Op, void (*Fn)(const typename Op::Args&)>
kf_status_t trampoline(const kf_kernel_call_t* call) noexcept {
  try {
    Fn(Op::unpack(call));
    return KF_OK;
  } catch (const KernelError& e) {
    set_error_noalloc(Op::kName, "", e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    set_error_noalloc(Op::kName, "out of memory in the kernel", nullptr);
    return KF_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_error_noalloc(Op::kName, "kernel threw: ", e.what());
    return KF_INTERNAL;
  } catch (...) {
    set_error_noalloc(Op::kName, "kernel threw an unknown exception", nullptr);
    return KF_INTERNAL;
  }
}

/// Registers `Fn` as the kernel of `Op` for the dtypes in `dtype_mask`.
template <class Op, void (*Fn)(const typename Op::Args&)>
kf_status_t register_kernel(const kf_registrar_t* reg, uint32_t dtype_mask, uint32_t flags,
                            const char* file, int32_t line) {
  kf_kernel_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.op_name = Op::kName;
  desc.schema_hash = Op::kSchemaHash;
  desc.dtype_mask = dtype_mask;
  desc.flags = flags;
  desc.fn = &trampoline<Op, Fn>;
  desc.file = file;
  desc.line = line;
  return reg->register_kernel(reg->ctx, &desc);
}

}  // namespace kf::plugin

/// Registers typed kernel `fn` for op `op` (a name from ops.yaml) and returns from the
/// enclosing function on failure. Use inside register_kernels.
#define KF_REGISTER_KERNEL_FLAGS(reg, op, fn, dtype_mask, flags)                              \
  do {                                                                                         \
    kf_status_t kf_reg_status_ = ::kf::plugin::register_kernel<::kf::plugin::ops::op, &fn>(    \
        (reg), (dtype_mask), (flags), __FILE__, __LINE__);                                     \
    if (kf_reg_status_ != KF_OK) return kf_reg_status_;                                        \
  } while (0)
#define KF_REGISTER_KERNEL(reg, op, fn, dtype_mask) \
  KF_REGISTER_KERNEL_FLAGS(reg, op, fn, dtype_mask, 0u)
