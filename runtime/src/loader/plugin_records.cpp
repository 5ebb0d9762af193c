#include "loader/plugin_records.hpp"

#include <atomic>
#include <mutex>
#include <new>

#include "core/error.hpp"

namespace kf {
namespace {

constexpr int32_t kMaxRecords = 256;

struct Records {
  std::mutex mutex;
  std::atomic<const PluginRecord*> list[kMaxRecords] = {};
  std::atomic<int32_t> count{0};
};

// Made in static storage, not on the heap: record_count() is noexcept and may be the first to
// ask (its construction must not be able to run out of memory). Never destroyed: records live
// for the process.
Records& records() noexcept {
  alignas(Records) static unsigned char storage[sizeof(Records)];
  static Records* r = new (storage) Records();
  return *r;
}

}  // namespace

int32_t record_count() noexcept { return records().count.load(std::memory_order_acquire); }

const PluginRecord* record_at(int32_t index) noexcept {
  Records& r = records();
  if (index < 0 || index >= r.count.load(std::memory_order_acquire)) return nullptr;
  return r.list[index].load(std::memory_order_acquire);
}

const PluginRecord& publish_record(std::unique_ptr<PluginRecord> record) {
  Records& r = records();
  std::lock_guard<std::mutex> lock(r.mutex);
  const int32_t n = r.count.load(std::memory_order_relaxed);
  if (n >= kMaxRecords) fail(KF_OUT_OF_RANGE, "too many plugins (max {})", kMaxRecords);
  const PluginRecord* p = record.release();
  r.list[n].store(p, std::memory_order_release);
  r.count.store(n + 1, std::memory_order_release);
  return *p;
}

}  // namespace kf
