// kernforge/plugin_table.hpp — the header of a C++ plugin's kf_plugin_t and its exported
// kf_plugin_get, written once here instead of in every plugin.
//
//   kf_plugin_t make_plugin() {
//     kf_plugin_t p = kf::plugin::table("mydev", MYDEV_VERSION);  // the header; slots NULL
//     p.init = mydev_init;
//     p.device_count = mydev_device_count;
//     ...
//     return p;
//   }
//   KF_PLUGIN_DEFINE(make_plugin)  // at file scope: the one exported symbol
//
// table() fills struct_size, this SDK's KF_PLUGIN_ABI_MAJOR and _MINOR, the name, the version
// and the device type, and leaves every slot NULL (the optional ones then mean the core's
// default). The result is a plain value: a plugin that must declare another ABI or size (the
// loader's fault plugins) changes those fields after table(), and one whose kf_plugin_get must
// behave otherwise writes its own.
//
// Ownership and lifetime: the strings are the caller's and must have static storage (string
// literals, a version macro); the table KF_PLUGIN_DEFINE keeps lives for the process.
// Thread safety: KF_PLUGIN_DEFINE's kf_plugin_get makes the table on its first call for this
// SDK's ABI major, as a function-local static (C++ guarantees one initialisation when threads
// race), and returns that same object on every call; nothing runs when the library is opened
// (no static constructor). `make` only fills fields: it must not throw.
//
// C plugins (no designated initializers in C++17, none of this in C): KF_PLUGIN_HEADER and
// KF_PLUGIN_ENTRY of kernforge/plugin.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernforge/plugin.h"

namespace kf::plugin {

/// A kf_plugin_t with its header filled for this SDK and every slot NULL.
constexpr kf_plugin_t table(const char* name, const char* version,
                            const char* device_type) noexcept {
  kf_plugin_t p{};
  p.struct_size = sizeof(kf_plugin_t);
  p.abi_major = KF_PLUGIN_ABI_MAJOR;
  p.abi_minor = KF_PLUGIN_ABI_MINOR;
  p.name = name;
  p.version = version;
  p.device_type = device_type;
  return p;
}

/// The same with the device type named as the plugin.
constexpr kf_plugin_t table(const char* name, const char* version) noexcept {
  return table(name, version, name);
}

}  // namespace kf::plugin

/// Defines the exported kf_plugin_get over `make`, a function returning the plugin's
/// kf_plugin_t: NULL for a host of another ABI major, else the one table make() returned on the
/// first call (a host of a newer minor is served: it reads only the slots of our minor). Use at
/// file scope, once per plugin.
#define KF_PLUGIN_DEFINE(make)                                                               \
  extern "C" KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(uint32_t host_abi_major,       \
                                                               uint32_t host_abi_minor) {     \
    static_assert(std::is_same_v<decltype((make)()), kf_plugin_t>,                           \
                  "KF_PLUGIN_DEFINE(make): make() must return the plugin's kf_plugin_t");    \
    (void)host_abi_minor;                                                                    \
    if (host_abi_major != KF_PLUGIN_ABI_MAJOR) return nullptr;                               \
    static const kf_plugin_t kf_plugin_table_ = (make)();                                    \
    return &kf_plugin_table_;                                                                \
  }
