// The ABI check of a collective plugin (kernforge/collective.h), the step after its library is
// opened: the same major as the host's, the fields every 1.x struct has, the manifest's device
// type. Nothing of the plugin runs here: it starts a communicator only when one is made.
#pragma once

#include "kernforge/collective.h"
#include "loader/plugin_record.hpp"

namespace kf {

/// False (with the record failed) when `p`, what kf_collective_get returned, cannot be used.
bool check_collective(PluginRecord& r, const kf_collective_plugin_t* p);

}  // namespace kf
