// Activating an opened plugin: init, describe, then its registrations as one transaction and
// the publication of its Backend to dispatch.
#pragma once

#include "loader/plugin_record.hpp"

namespace kf {

/// True when the plugin ends up loaded; otherwise the record says why.
bool activate(PluginRecord& r);

}  // namespace kf
