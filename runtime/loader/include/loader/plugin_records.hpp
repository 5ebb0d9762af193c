// Every plugin the loader has found, in every state, in the order found. Records are appended
// once their load is over and never change afterwards; reads are lock-free.
//
// Note [A bounded plugin table]
// The table has kMaxRecords entries and a record is never removed (the C ABI hands out its
// strings for the life of the process). So that failures cannot fill it and lock out later
// plugins, a record that is not loaded is kept only when it says something new: a failure
// equal to one listed already (a retried kf_load_plugin) is not listed again, and past
// kMaxFailedRecords failures none is listed. Either way the count of failures left out grows
// (the report's "unlisted_failures") and kf_load_plugin still returns its status and message.
// Loaded records always have room: at most kMaxBackendSlots plugins are ever loaded.
#pragma once

#include <cstdint>
#include <memory>

#include "device/backend_registry.hpp"
#include "loader/plugin_record.hpp"

namespace kf {

constexpr int32_t kMaxRecords = 256;
constexpr int32_t kMaxFailedRecords = kMaxRecords - kMaxBackendSlots;

/// Number of records published (does not initialise the runtime).
int32_t record_count() noexcept;
/// The record at `index`, or nullptr.
const PluginRecord* record_at(int32_t index) noexcept;
/// Publishes a finished record; it lives for the process. A record that is not loaded may be
/// left out (Note [A bounded plugin table]); then it is destroyed and counted.
void publish_record(std::unique_ptr<PluginRecord> record);
/// How many records were left out.
int64_t unlisted_failures() noexcept;
/// Counts one more record left out (a collective failure past its table: collective_records).
void note_unlisted_failure() noexcept;

}  // namespace kf
