// Every plugin the loader has found, in every state, in the order found. Records are appended
// once their load is over and never change afterwards; reads are lock-free.
#pragma once

#include <cstdint>
#include <memory>

#include "loader/plugin_record.hpp"

namespace kf {

/// Number of records published (does not initialise the runtime).
int32_t record_count() noexcept;
/// The record at `index`, or nullptr.
const PluginRecord* record_at(int32_t index) noexcept;
/// Publishes a finished record; it lives for the process.
const PluginRecord& publish_record(std::unique_ptr<PluginRecord> record);

}  // namespace kf
