// slots.hpp — the xpu plugin's kf_plugin_t over a Runtime, for any ZeApi table.
//
// make_plugin(init) is the whole slot table; plugin.cpp passes the init that uses the real
// Level Zero loader and the embedded SPIR-V modules, the unit tests one that uses their fake
// driver. Every slot catches what the Runtime throws and returns its status with the host's
// error message set (kf::plugin::set_error), so no exception crosses the ABI.
//
// Thread safety: as plugin.h says (init once; the other slots from any thread at once).
#pragma once

#include "kernforge/plugin.h"
#include "modules.hpp"
#include "ze_api.hpp"

namespace kf::xpu {

/// The plugin's init over `ze` and `library`: discovers, creates the Runtime and stores it in
/// *out_state. `filter` is KERNFORGE_XPU_DEVICE (may be null). KF_UNAVAILABLE, with the reason
/// set, when there is no driver or GPU or the driver refuses the modules.
kf_status_t init_runtime(const ZeApi& ze, ModuleLibrary library, const char* filter,
                         const kf_host_api_t* host, void** out_state) noexcept;

/// The plugin table with `init` as its init slot.
kf_plugin_t make_plugin(kf_status_t (*init)(const kf_host_api_t*, void**)) noexcept;

}  // namespace kf::xpu
