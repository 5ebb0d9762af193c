#include "testdev_queues.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "testdev_hooks.hpp"

namespace kf::testdev {
namespace {

constexpr int32_t kDevices = 2;

// A worker thread running its tasks in order.
class Queue {
 public:
  explicit Queue(int32_t device) : device_(device), thread_([this] { run(); }) {}
  ~Queue() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  int32_t device() const { return device_; }

  void push(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(m_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_all();
  }

  /// Waits until every task queued so far ran; the first error a task reported, if any.
  kf_status_t wait_idle() {
    std::unique_lock<std::mutex> lock(m_);
    idle_.wait(lock, [this] { return tasks_.empty() && !busy_; });
    if (error_.empty()) return KF_OK;
    kf::plugin::set_error(error_);
    error_.clear();
    return KF_INTERNAL;
  }

  void fail(const std::string& message) {
    std::lock_guard<std::mutex> lock(m_);
    if (error_.empty()) error_ = message;
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, and drained
      while (hooks().hold->load()) {
        lock.unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        lock.lock();
      }
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      busy_ = true;
      lock.unlock();
      task();
      lock.lock();
      busy_ = false;
      if (tasks_.empty()) idle_.notify_all();
    }
  }

  int32_t device_;
  std::mutex m_;
  std::condition_variable cv_, idle_;
  std::deque<std::function<void()>> tasks_;
  bool busy_ = false;
  bool stop_ = false;
  std::string error_;
  std::thread thread_;  // last: starts once the rest is built
};

// The default queue of each device (made on first use, never destroyed: its thread waits on
// when the process exits) and the streams made by stream_create.
struct Queues {
  std::mutex m;
  Queue* defaults[kDevices] = {};
  std::vector<Queue*> streams;
};

Queues& queues() {
  static Queues* q = new Queues();
  return *q;
}

Queue& default_queue(int32_t device) {
  Queues& q = queues();
  std::lock_guard<std::mutex> lock(q.m);
  if (q.defaults[device] == nullptr) q.defaults[device] = new Queue(device);
  return *q.defaults[device];
}

Queue& queue_of(void* stream, int32_t device) {
  return stream != nullptr ? *static_cast<Queue*>(stream) : default_queue(device);
}

// A point in a queue: record bumps `recorded`; the queue sets `completed` when it passes it.
struct Event {
  std::mutex m;
  std::condition_variable cv;
  uint64_t recorded = 0;
  uint64_t completed = 0;
  std::chrono::steady_clock::time_point at{};
};
using EventRef = std::shared_ptr<Event>;  // queued tasks keep the event alive

EventRef& event_of(void* handle) { return *static_cast<EventRef*>(handle); }

// When the queue passed the event's last mark; false when it has not (or it was never recorded).
bool passed_at(const EventRef& e, std::chrono::steady_clock::time_point* at) {
  std::lock_guard<std::mutex> lock(e->m);
  *at = e->at;
  return e->recorded > 0 && e->completed >= e->recorded;
}

// A kernel call with every array it points to copied.
struct CallCopy {
  std::vector<kf_tensor_view_t> inputs, outputs;
  std::vector<std::vector<int64_t>> dims;   // shape then strides of each view
  std::vector<kf_arg_t> args;
  std::vector<std::vector<int64_t>> lists;  // int-list arguments
  kf_kernel_call_t call{};

  explicit CallCopy(const kf_kernel_call_t& c)
      : inputs(c.inputs, c.inputs + c.ninputs), outputs(c.outputs, c.outputs + c.noutputs),
        args(c.args, c.args + c.nargs) {
    dims.reserve(2 * (inputs.size() + outputs.size()));
    for (auto* views : {&inputs, &outputs}) {
      for (kf_tensor_view_t& v : *views) own_dims(v);
    }
    lists.reserve(args.size());
    for (kf_arg_t& a : args) {
      if (a.tag != KF_ARG_INT_LIST) continue;
      lists.emplace_back(a.v.ints.data, a.v.ints.data + a.v.ints.len);
      a.v.ints.data = lists.back().data();
    }
    call = c;
    call.inputs = inputs.data();
    call.outputs = outputs.data();
    call.args = args.data();
  }

 private:
  void own_dims(kf_tensor_view_t& v) {
    if (v.ndim < 0) return;  // a None tensor
    dims.emplace_back(v.shape, v.shape + v.ndim);
    v.shape = dims.back().data();
    dims.emplace_back(v.strides, v.strides + v.ndim);
    v.strides = dims.back().data();
  }
};

int32_t device_of(const kf_kernel_call_t& call) {
  if (call.noutputs > 0) return call.outputs[0].device.index;
  return call.ninputs > 0 ? call.inputs[0].device.index : 0;
}

}  // namespace

kf_status_t queue_kernel(const kf_kernel_call_t* call, kf_kernel_fn fn) {
  auto copy = std::make_shared<CallCopy>(*call);
  const int delay_ms = hooks().kernel_delay_ms->load();
  Queue& q = queue_of(call->stream, device_of(*call));
  hooks().last_kernel_stream->store(call->stream);
  q.push([copy, fn, delay_ms, &q] {
    if (delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    if (fn(&copy->call) != KF_OK) q.fail("testasync: a queued kernel failed");
  });
  return KF_OK;
}

kf_status_t q_copy(void*, int32_t device, void* dst, const void* src, size_t bytes, int32_t) {
  Queue& q = default_queue(device);
  q.push([dst, src, bytes] { std::memmove(dst, src, bytes); });
  return q.wait_idle();
}

kf_status_t q_copy_async(void*, int32_t device, void* dst, const void* src, size_t bytes,
                         int32_t, void* stream) {
  queue_of(stream, device).push([dst, src, bytes] { std::memmove(dst, src, bytes); });
  return KF_OK;
}

kf_status_t q_memset(void*, int32_t device, void* dst, int32_t value, size_t bytes) {
  Queue& q = default_queue(device);
  q.push([dst, value, bytes] { std::memset(dst, value, bytes); });
  return q.wait_idle();
}

kf_status_t q_synchronize(void*, int32_t device) {
  kf_status_t first = default_queue(device).wait_idle();
  Queues& qs = queues();
  std::lock_guard<std::mutex> lock(qs.m);
  for (Queue* q : qs.streams) {
    if (q->device() != device) continue;
    const kf_status_t s = q->wait_idle();
    if (first == KF_OK) first = s;
  }
  return first;
}

kf_status_t q_stream_create(void*, int32_t device, void** out_stream) {
  auto* q = new Queue(device);
  Queues& qs = queues();
  std::lock_guard<std::mutex> lock(qs.m);
  qs.streams.push_back(q);
  *out_stream = q;
  return KF_OK;
}

void q_stream_destroy(void*, int32_t, void* stream) {
  auto* q = static_cast<Queue*>(stream);
  {
    Queues& qs = queues();
    std::lock_guard<std::mutex> lock(qs.m);
    qs.streams.erase(std::remove(qs.streams.begin(), qs.streams.end(), q), qs.streams.end());
  }
  delete q;  // runs what is queued, then joins
}

kf_status_t q_stream_synchronize(void*, int32_t device, void* stream) {
  return queue_of(stream, device).wait_idle();
}

kf_status_t q_event_create(void*, int32_t, void** out_event) {
  *out_event = new EventRef(std::make_shared<Event>());
  return KF_OK;
}

void q_event_destroy(void*, int32_t, void* event) { delete static_cast<EventRef*>(event); }

kf_status_t q_event_record(void*, int32_t device, void* event, void* stream) {
  EventRef e = event_of(event);
  uint64_t mark = 0;
  {
    std::lock_guard<std::mutex> lock(e->m);
    mark = ++e->recorded;
  }
  queue_of(stream, device).push([e, mark] {
    std::lock_guard<std::mutex> lock(e->m);
    e->at = std::chrono::steady_clock::now();
    e->completed = std::max(e->completed, mark);
    e->cv.notify_all();
  });
  return KF_OK;
}

kf_status_t q_event_wait(void*, int32_t device, void* stream, void* event) {
  EventRef e = event_of(event);
  uint64_t mark = 0;
  {
    std::lock_guard<std::mutex> lock(e->m);
    mark = e->recorded;
  }
  if (mark == 0) return KF_OK;  // never recorded: nothing to wait for
  queue_of(stream, device).push([e, mark] {
    std::unique_lock<std::mutex> lock(e->m);
    e->cv.wait(lock, [&] { return e->completed >= mark; });
  });
  return KF_OK;
}

kf_status_t q_event_synchronize(void*, int32_t, void* event) {
  EventRef e = event_of(event);
  std::unique_lock<std::mutex> lock(e->m);
  const uint64_t mark = e->recorded;
  e->cv.wait(lock, [&] { return e->completed >= mark; });
  return KF_OK;
}

kf_status_t q_event_query(void*, int32_t, void* event, int32_t* out_done) {
  EventRef e = event_of(event);
  std::lock_guard<std::mutex> lock(e->m);
  *out_done = e->completed >= e->recorded ? 1 : 0;
  return KF_OK;
}

kf_status_t q_event_elapsed_ms(void*, int32_t, void* start, void* end, double* out_ms) {
  std::chrono::steady_clock::time_point a{}, b{};
  if (!passed_at(event_of(start), &a) || !passed_at(event_of(end), &b)) {
    kf::plugin::set_error("testasync: both events must be recorded and passed");
    return KF_FAILED_PRECONDITION;
  }
  *out_ms = std::chrono::duration<double, std::milli>(b - a).count();
  return KF_OK;
}

kf_status_t q_host_allocate(void* state, size_t bytes, void** out_ptr) {
  const kf_status_t s = kf::plugin::host_memory::host_allocate(state, bytes, out_ptr);
  if (s != KF_OK) return s;
  hooks().pinned_live->fetch_add(1);
  hooks().pinned_total->fetch_add(1);
  return KF_OK;
}

void q_host_deallocate(void* state, void* ptr, size_t bytes) {
  if (ptr == nullptr) return;
  hooks().pinned_live->fetch_sub(1);
  kf::plugin::host_memory::host_deallocate(state, ptr, bytes);
}

}  // namespace kf::testdev
