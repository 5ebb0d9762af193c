// The collective plugins the loader has found (kernforge/collective.h), in every state, in the
// order found: a table of their own beside the backends' (plugin_records.hpp), since a collective
// plugin serves no device and is no backend. Records are appended once their load is over and
// never change afterwards; reads are lock-free. At most kMaxCollectiveRecords are kept; a
// failure past that is counted in the backends' unlisted failures.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "loader/plugin_record.hpp"

namespace kf {

constexpr int32_t kMaxCollectiveRecords = 64;

/// Number of collective records published (does not initialise the runtime).
int32_t collective_count() noexcept;
/// The collective record at `index`, or nullptr.
const PluginRecord* collective_at(int32_t index) noexcept;
/// Publishes a finished collective record; it lives for the process.
void publish_collective(std::unique_ptr<PluginRecord> record);
/// The loaded collective plugin `name` that moves `device_type` tensors ("": any), or nullptr.
const PluginRecord* find_collective(const std::string& name, const std::string& device_type);
/// Marks a collective record that is ready loaded, or shadowed by a loaded one of the same name
/// and device type (published, or among `earlier` of its batch).
void activate_collective(PluginRecord& r, const PluginRecord* const* earlier, size_t count);

}  // namespace kf
