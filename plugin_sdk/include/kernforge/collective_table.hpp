// kernforge/collective_table.hpp — the header of a C++ collective plugin's table and its exported
// kf_collective_get, written once here instead of in every plugin (as plugin_table.hpp is for
// device plugins):
//
//   kf_collective_plugin_t make_table() {
//     kf_collective_plugin_t t = kf::collective::table("gloo", KF_GLOO_VERSION, "cpu");
//     t.describe = &describe;
//     KF_COLLECTIVE_SLOTS(t, kfgloo);  // comm_init ... work_release, from namespace kfgloo
//     return t;                        // comm_split, optional, is set by the plugin that has it
//   }
//   KF_COLLECTIVE_PLUGIN_DEFINE(make_table)  // at file scope: the one exported symbol
//
// table() fills struct_size, this SDK's KF_COLLECTIVE_ABI_MAJOR and _MINOR, the name, the
// version and the device type, and leaves every slot NULL. KF_COLLECTIVE_SLOTS sets the slots
// every engine has, each from the function of that name in the namespace given, so a plugin
// declares them once (its own header) and a missing one is a compile error naming it.
//
// Ownership and lifetime: the strings are the caller's and must have static storage. Thread
// safety: the exported function makes the table on its first call for this SDK's ABI major, as
// a function-local static, and returns that same object on every call; `make` only fills
// fields and must not throw.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernforge/collective.h"

namespace kf::collective {

/// A kf_collective_plugin_t with its header filled for this SDK and every slot NULL.
constexpr kf_collective_plugin_t table(const char* name, const char* version,
                                       const char* device_type) noexcept {
  kf_collective_plugin_t t{};
  t.struct_size = sizeof(kf_collective_plugin_t);
  t.abi_major = KF_COLLECTIVE_ABI_MAJOR;
  t.abi_minor = KF_COLLECTIVE_ABI_MINOR;
  t.name = name;
  t.version = version;
  t.device_type = device_type;
  return t;
}

}  // namespace kf::collective

/// Sets the slots every collective engine has on table `t` from the functions of namespace `ns`.
#define KF_COLLECTIVE_SLOTS(t, ns)             \
  do {                                         \
    (t).comm_init = &ns::comm_init;            \
    (t).comm_destroy = &ns::comm_destroy;      \
    (t).comm_abort = &ns::comm_abort;          \
    (t).all_reduce = &ns::all_reduce;          \
    (t).broadcast = &ns::broadcast;            \
    (t).all_gather = &ns::all_gather;          \
    (t).reduce_scatter = &ns::reduce_scatter;  \
    (t).send = &ns::send;                      \
    (t).recv = &ns::recv;                      \
    (t).barrier = &ns::barrier;                \
    (t).work_wait = &ns::work_wait;            \
    (t).work_test = &ns::work_test;            \
    (t).work_release = &ns::work_release;      \
  } while (0)

/// Defines the exported kf_collective_get over `make`, a function returning the plugin's table:
/// NULL for a host of another ABI major, else the one table make() returned on the first call.
/// Use at file scope, once per plugin.
#define KF_COLLECTIVE_PLUGIN_DEFINE(make)                                                     \
  extern "C" KF_PLUGIN_EXPORT const kf_collective_plugin_t* kf_collective_get(                \
      uint32_t host_abi_major, uint32_t host_abi_minor) {                                     \
    static_assert(std::is_same_v<decltype((make)()), kf_collective_plugin_t>,                 \
                  "KF_COLLECTIVE_PLUGIN_DEFINE(make): make() must return the plugin's table"); \
    (void)host_abi_minor;                                                                     \
    if (host_abi_major != KF_COLLECTIVE_ABI_MAJOR) return nullptr;                            \
    static const kf_collective_plugin_t kf_collective_table_ = (make)();                      \
    return &kf_collective_table_;                                                             \
  }
