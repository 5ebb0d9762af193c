// kernel_catalogue.hpp — what an unavailable plugin would run (plugin ABI 2.2). A device plugin
// whose init returned KF_UNAVAILABLE (no device here) is asked, when its ABI minor is 2 or more,
// to list its kernels: register_kernels with state NULL and a registrar that records what it is
// given and runs nothing. `kernforge ops` shows the list in the backend's column (the load
// report's "catalogue"), so a machine without the device still tells what the backend would run
// natively. A plugin that cannot list without its state answers other than KF_OK and the list
// stays empty. Nothing of it reaches dispatch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernforge/plugin.h"

namespace kf {

/// One op of the list: the dtypes of the kernel the plugin would register, or of its own boxed
/// fallback (`fallback`, op "*").
struct CatalogueEntry {
  std::string op;
  uint32_t dtype_mask = 0;
  bool fallback = false;
};

/// The plugin's list, by calling its register_kernels(NULL, ...); empty when its ABI minor is
/// below 2, when it answers other than KF_OK (KF_OUT_OF_MEMORY too: host memory ran out while
/// recording), or when it throws (swallowed: the plugin is unavailable anyway, and the list is
/// best effort).
std::vector<CatalogueEntry> list_catalogue(const kf_plugin_t& plugin);

}  // namespace kf
