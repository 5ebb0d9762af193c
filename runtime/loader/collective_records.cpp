#include "loader/collective_records.hpp"

#include <atomic>
#include <mutex>
#include <new>

#include "core/error.hpp"
#include "loader/plugin_records.hpp"
#include "loader/step_record.hpp"

namespace kf {
namespace {

struct Collectives {
  std::mutex mutex;
  std::atomic<const PluginRecord*> list[kMaxCollectiveRecords] = {};
  std::atomic<int32_t> count{0};
};

Collectives& collectives() noexcept {
  alignas(Collectives) static unsigned char storage[sizeof(Collectives)];
  static Collectives* c = new (storage) Collectives();  // never destroyed, as the backends'
  return *c;
}

bool same_engine(const PluginRecord& a, const PluginRecord& b) {
  return a.name == b.name && a.device_type_name == b.device_type_name;
}

}  // namespace

int32_t collective_count() noexcept {
  return collectives().count.load(std::memory_order_acquire);
}

const PluginRecord* collective_at(int32_t index) noexcept {
  Collectives& c = collectives();
  if (index < 0 || index >= c.count.load(std::memory_order_acquire)) return nullptr;
  return c.list[index].load(std::memory_order_acquire);
}

void publish_collective(std::unique_ptr<PluginRecord> record) {
  Collectives& c = collectives();
  std::lock_guard<std::mutex> lock(c.mutex);
  const int32_t n = c.count.load(std::memory_order_relaxed);
  if (n >= kMaxCollectiveRecords) {
    if (record->state == KF_BACKEND_LOADED) {
      fail(KF_INTERNAL, "the collective plugin table is full ({} records)",
           kMaxCollectiveRecords);
    }
    note_unlisted_failure();
    return;
  }
  c.list[n].store(record.release(), std::memory_order_release);
  c.count.store(n + 1, std::memory_order_release);
}

const PluginRecord* find_collective(const std::string& name, const std::string& device_type) {
  for (int32_t i = 0; i < collective_count(); ++i) {
    const PluginRecord* r = collective_at(i);
    if (r->state == KF_BACKEND_LOADED && r->name == name &&
        (device_type.empty() || r->device_type_name == device_type)) {
      return r;
    }
  }
  return nullptr;
}

void activate_collective(PluginRecord& r, const PluginRecord* const* earlier, size_t count) {
  const PluginRecord* winner = find_collective(r.name, r.device_type_name);
  for (size_t i = 0; winner == nullptr && i < count; ++i) {
    if (earlier[i]->state == KF_BACKEND_LOADED && same_engine(*earlier[i], r)) winner = earlier[i];
  }
  if (winner == nullptr) {
    set_state(r, KF_BACKEND_LOADED, "");
    return;
  }
  set_state(r, KF_BACKEND_SHADOWED, "the collective plugin " + winner->name + " for " +
                                        winner->device_type_name + " is already loaded from " +
                                        winner->library_path + "; the first one found serves",
            KF_ALREADY_EXISTS);
  report_step(ReportStep{"select", r.name, r.library_path, "skipped", r.reason, 0});
}

}  // namespace kf
