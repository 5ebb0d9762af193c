// Opening a plugin library: one load per real path, file security, dlopen RTLD_NOW |
// RTLD_LOCAL, kf_plugin_get, ABI negotiation, score.
#pragma once

#include "loader/plugin_record.hpp"

namespace kf {

/// False (with the record failed) when the plugin cannot be activated.
bool open_plugin(PluginRecord& r);

/// Undoes "its library is loaded" for a record whose load is rolled back (plugin_loader.cpp,
/// Note [Out of memory while loading]): the library stays mapped, and the next load of the same
/// file opens and initialises it again instead of calling it a duplicate.
void forget_opened_library(const PluginRecord& r) noexcept;

}  // namespace kf
