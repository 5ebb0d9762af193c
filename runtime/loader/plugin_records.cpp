// Note [A bounded plugin table] is in plugin_records.hpp.
#include "loader/plugin_records.hpp"

#include <atomic>
#include <mutex>
#include <new>

#include "core/error.hpp"
#include "loader/device_type_hints.hpp"

namespace kf {
namespace {

struct Records {
  std::mutex mutex;
  std::atomic<const PluginRecord*> list[kMaxRecords] = {};
  std::atomic<int32_t> count{0};
  int32_t failed = 0;  // records listed that are not loaded; under `mutex`
  std::atomic<int64_t> unlisted{0};
};

// Made in static storage, not on the heap: record_count() is noexcept and may be the first to
// ask (its construction must not be able to run out of memory). Never destroyed: records live
// for the process.
Records& records() noexcept {
  alignas(Records) static unsigned char storage[sizeof(Records)];
  static Records* r = new (storage) Records();
  return *r;
}

bool same_failure(const PluginRecord& a, const PluginRecord& b) {
  return a.state == b.state && a.failure == b.failure && a.name == b.name &&
         a.library_path == b.library_path && a.manifest_path == b.manifest_path &&
         a.reason == b.reason;
}

// Whether a record that is not loaded says something the table does not (caller holds the lock).
bool worth_listing(const Records& r, const PluginRecord& record, int32_t n) {
  if (r.failed >= kMaxFailedRecords) return false;
  for (int32_t i = 0; i < n; ++i) {
    if (same_failure(*r.list[i].load(std::memory_order_relaxed), record)) return false;
  }
  return true;
}

}  // namespace

int32_t record_count() noexcept { return records().count.load(std::memory_order_acquire); }

const PluginRecord* record_at(int32_t index) noexcept {
  Records& r = records();
  if (index < 0 || index >= r.count.load(std::memory_order_acquire)) return nullptr;
  return r.list[index].load(std::memory_order_acquire);
}

void publish_record(std::unique_ptr<PluginRecord> record) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.mutex);
  const int32_t n = r.count.load(std::memory_order_relaxed);
  const bool loaded = record->state == KF_BACKEND_LOADED;
  if (!loaded && !worth_listing(r, *record, n)) {
    r.unlisted.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (n >= kMaxRecords) fail(KF_INTERNAL, "the plugin table is full ({} records)", kMaxRecords);
  r.failed += loaded ? 0 : 1;
  r.list[n].store(record.release(), std::memory_order_release);
  r.count.store(n + 1, std::memory_order_release);
  if (!loaded) install_device_type_hints();  // "unknown device 'x'" can then say why
}

int64_t unlisted_failures() noexcept {
  return records().unlisted.load(std::memory_order_relaxed);
}

void note_unlisted_failure() noexcept {
  records().unlisted.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace kf
