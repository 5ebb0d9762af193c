// The one place the dispatcher calls a kernel or a backend's boxed fallback (a kf_kernel_fn):
// the call is marked first, so a kernel that fails without set_error gets a message naming the
// op, the backend and the status, and a status the ABI does not know becomes KF_INTERNAL (Note
// [Plugin statuses and messages], core/plugin_call.hpp). Costs one thread-local read.
#pragma once

#include <fmt/format.h>

#include "core/plugin_call.hpp"
#include "device/backend.hpp"
#include "kernforge/plugin.h"
#include "registry/op_def.hpp"

namespace kf {

[[noreturn]] KF_COLD inline void fail_kernel(const PluginCall& call, kf_status_t status,
                                             const OpDef& def, const Backend& backend) {
  call.fail(status, fmt::format("{} on backend '{}'", def.name, backend.name));
}

/// Runs `fn` on `call`; throws kf::Error when it fails.
inline void invoke_kernel(kf_kernel_fn fn, const kf_kernel_call_t& call, const OpDef& def,
                          const Backend& backend) {
  const PluginCall mark;
  const kf_status_t s = fn(&call);
  if (s != KF_OK) fail_kernel(mark, s, def, backend);
}

}  // namespace kf
