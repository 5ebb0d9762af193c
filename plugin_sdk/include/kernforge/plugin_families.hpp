// kernforge/plugin_families.hpp — register_kernels over a backend's op families.
//
// A backend with many kernels splits their registration by family (one function per source
// file: register_binary_kernels, register_reduce_kernels, ...). register_families calls them in
// order and stops at the first failure:
//
//   kf_status_t mydev_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
//     return kf::plugin::register_families(reg, {register_copy_ops, register_binary_ops});
//   }
//
// Families may take arguments after the registrar, the same for each (a dtype mask, say):
//
//   return kf::plugin::register_families(reg, {register_copy_ops, register_fill_ops}, mask);
//
// Thread safety: none of its own; register_kernels runs once, on one thread, under the host's
// loader lock (plugin.h). Families must not throw (they return statuses, as C slots do).
#pragma once

#include <cstddef>

#include "kernforge/plugin.h"
#include "kernforge/plugin.hpp"

namespace kf::plugin {

/// A family's registrations: KF_OK, or the status of the first registration that failed.
template <class... Extra>
using FamilyFn = kf_status_t (*)(const kf_registrar_t* reg, Extra... extra);

namespace detail {
template <class T>
struct NotDeduced {
  using type = T;
};
}  // namespace detail

/// Calls each of `families` with `reg` (and `extra`) in order and returns the first status that
/// is not KF_OK, or KF_OK. A NULL registrar, or one without register_kernel, calls no family:
/// KF_INVALID_ARGUMENT with the host's error set.
template <std::size_t N, class... Extra>
kf_status_t register_families(const kf_registrar_t* reg, const FamilyFn<Extra...> (&families)[N],
                              typename detail::NotDeduced<Extra>::type... extra) {
  if (reg == nullptr || reg->register_kernel == nullptr) {
    set_error_noalloc("register_kernels", "the host's registrar is NULL or has no "
                      "register_kernel", nullptr);
    return KF_INVALID_ARGUMENT;
  }
  for (const FamilyFn<Extra...> family : families) {
    const kf_status_t s = family(reg, extra...);
    if (s != KF_OK) return s;
  }
  return KF_OK;
}

}  // namespace kf::plugin
