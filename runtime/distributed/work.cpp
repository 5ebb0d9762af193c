#include "distributed/work.hpp"

#include <mutex>
#include <set>

#include "core/error.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf {
namespace {

struct LiveWorks {
  std::mutex mutex;
  std::set<const Work*> live;
};

LiveWorks& live_works() {
  static auto* l = new LiveWorks();  // lives for the process
  return *l;
}

// Records how a work ended, from whatever the engine's slot threw.
void finish(Work& w, kf_status_t status, std::string message) {
  w.done = true;
  w.status = status;
  w.message = std::move(message);
  const auto release = w.engine.slot(KF_COLLECTIVE_SLOT_END(work_release),
                                     w.engine.plugin->work_release);
  if (w.plugin_work != nullptr && release != nullptr) release(w.plugin_work);
  w.plugin_work = nullptr;
}

void end_with_wait(Work& w) {
  const auto wait = w.engine.slot(KF_COLLECTIVE_SLOT_END(work_wait), w.engine.plugin->work_wait);
  try {
    if (wait == nullptr) {
      fail(KF_UNIMPLEMENTED, "collective engine '{}' ({}) handed out a work for {} but has no "
           "work_wait to end it", w.engine.name, w.engine.device_type, w.what);
    }
    engine_status(w.engine, w.what.c_str(), [&](char* error, size_t cap) {
      return wait(w.plugin_work, w.timeout_ms, error, cap);
    });
    finish(w, KF_OK, "");
  } catch (const Error& e) {
    finish(w, e.status(), e.what());
  }
}

}  // namespace

kf_work_t publish_work(Work* w) {
  LiveWorks& l = live_works();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.live.insert(w);
  return reinterpret_cast<kf_work_t>(w);
}

Work& checked_work(kf_work_t handle, const char* what) {
  const auto* w = reinterpret_cast<const Work*>(handle);
  LiveWorks& l = live_works();
  std::lock_guard<std::mutex> lock(l.mutex);
  if (w == nullptr || l.live.count(w) == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: the work is {}", what,
         w == nullptr ? "NULL" : "not a live kf_work_t (released, or never made)");
  }
  return *const_cast<Work*>(w);
}

void wait_work(Work& w) {
  if (!w.done) end_with_wait(w);
  if (w.status != KF_OK) fail(w.status, "{}", w.message);
}

bool test_work(Work& w) {
  if (w.done) return true;
  const auto test = w.engine.slot(KF_COLLECTIVE_SLOT_END(work_test), w.engine.plugin->work_test);
  if (test == nullptr) {
    end_with_wait(w);
    return true;
  }
  int32_t done = 0;
  try {
    engine_status(w.engine, w.what.c_str(), [&](char* error, size_t cap) {
      return test(w.plugin_work, &done, error, cap);
    });
  } catch (const Error& e) {
    finish(w, e.status(), e.what());
    return true;
  }
  if (done != 0) end_with_wait(w);
  return done != 0;
}

void release_work(kf_work_t handle, const char* what) {
  Work& w = checked_work(handle, what);
  {
    LiveWorks& l = live_works();
    std::lock_guard<std::mutex> lock(l.mutex);
    l.live.erase(&w);
  }
  if (!w.done) end_with_wait(w);
  for (TensorImpl* t : w.held) release(t);
  delete &w;
}

}  // namespace kf
