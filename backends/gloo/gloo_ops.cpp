#include "gloo_ops.hpp"

#include <cstring>
#include <string>
#include <vector>

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/math.h>
#include <gloo/transport/unbound_buffer.h>

#include "gloo_comm.hpp"
#include "gloo_errors.hpp"
#include "gloo_worker.hpp"
#include "kernforge/dtypes.hpp"

namespace kfgloo {
namespace {

using ReduceFn = void (*)(void*, const void*, const void*, size_t);

// What gloo's reduction functions take: the real dtypes, not the 16-bit floats.
constexpr uint32_t kReducible = kf::kRealDtypes & ~kf::kHalfDtypes;

GlooComm& comm_of(const kf_collective_call_t& call) { return *static_cast<GlooComm*>(call.comm); }

size_t bytes_of(const kf_tensor_view_t& v) {
  return static_cast<size_t>(v.numel) * kf_dtype_itemsize(v.dtype);
}

template <class T>
ReduceFn reduce_fn(int32_t op) {
  switch (op) {
    case KF_REDUCE_PROD: return &gloo::product<T>;
    case KF_REDUCE_MIN: return &gloo::min<T>;
    case KF_REDUCE_MAX: return &gloo::max<T>;
    default: return &gloo::sum<T>;  // sum, and avg before its division
  }
}

// Calls f(T{}) with the element type of a dtype gloo reduces; throws for another.
template <class F>
void visit_reducible(int32_t dtype, F&& f) {
  bool found = false;
  kf::for_each_dtype([&](auto tag) {
    using Tag = decltype(tag);
    if constexpr ((kReducible & kf::dtype_bit(Tag::kDtype)) != 0) {
      if (Tag::kDtype == dtype) {
        f(typename Tag::type{});
        found = true;
      }
    }
  });
  if (!found) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string("gloo does not reduce ") +
                      kf_dtype_string(dtype) + " tensors; it reduces the real dtypes but "
                      "float16 and bfloat16");
  }
}

template <class T>
void divide(T* data, int64_t n, int world) {
  for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(data[i] / static_cast<T>(world));
}

// gloo::allreduce of `data` (n elements of T) in place.
template <class T>
void allreduce_typed(GlooComm& c, const kf_collective_call_t& call, T* data, int64_t n) {
  gloo::AllreduceOptions opts(c.context);
  opts.setOutput(data, static_cast<size_t>(n));
  opts.setReduceFunction(reduce_fn<T>(call.reduce_op));
  opts.setTag(c.tag());
  opts.setTimeout(timeout_of(c, call));
  gloo::allreduce(opts);
  if (call.reduce_op == KF_REDUCE_AVG) divide(data, n, c.context->size);
}

void run_all_reduce(const kf_collective_call_t& call) {
  visit_reducible(call.input.dtype, [&](auto t) {
    using T = decltype(t);
    allreduce_typed(comm_of(call), call, static_cast<T*>(call.output.data), call.output.numel);
  });
}

// gloo has no reduce-scatter of unbound buffers: its all-reduce over a copy of the input, of
// which this rank keeps its slice.
void run_reduce_scatter(const kf_collective_call_t& call) {
  visit_reducible(call.input.dtype, [&](auto t) {
    using T = decltype(t);
    const T* in = static_cast<const T*>(call.input.data);
    std::vector<T> all(in, in + call.input.numel);
    GlooComm& c = comm_of(call);
    allreduce_typed(c, call, all.data(), call.input.numel);
    const int64_t n = call.output.numel;
    std::memcpy(call.output.data, all.data() + n * c.context->rank, bytes_of(call.output));
  });
}

void run_broadcast(const kf_collective_call_t& call) {
  GlooComm& c = comm_of(call);
  gloo::BroadcastOptions opts(c.context);
  opts.setOutput(static_cast<uint8_t*>(call.output.data), bytes_of(call.output));
  opts.setRoot(call.peer);
  opts.setTag(c.tag());
  opts.setTimeout(timeout_of(c, call));
  gloo::broadcast(opts);
}

void run_all_gather(const kf_collective_call_t& call) {
  GlooComm& c = comm_of(call);
  gloo::AllgatherOptions opts(c.context);
  opts.setInput(static_cast<uint8_t*>(call.input.data), bytes_of(call.input));
  opts.setOutput(static_cast<uint8_t*>(call.output.data), bytes_of(call.output));
  opts.setTag(c.tag());
  opts.setTimeout(timeout_of(c, call));
  gloo::allgather(opts);
}

// Point to point: gloo's unbound buffers, the caller's tag as the slot (the collectives' slots
// carry a prefix, so they never meet these).
void run_point(const kf_collective_call_t& call, bool sending) {
  GlooComm& c = comm_of(call);
  auto buffer = c.context->createUnboundBuffer(call.input.data, bytes_of(call.input));
  const uint64_t slot = static_cast<uint32_t>(call.tag);
  const auto timeout = timeout_of(c, call);
  bool done = false;
  if (sending) {
    buffer->send(call.peer, slot);
    done = buffer->waitSend(nullptr, timeout);
  } else {
    buffer->recv(call.peer, slot);
    done = buffer->waitRecv(nullptr, timeout);
  }
  if (!done) throw PluginError(KF_UNAVAILABLE, "the gloo transfer was aborted");
}

void run_barrier(const kf_collective_call_t& call) {
  GlooComm& c = comm_of(call);
  gloo::BarrierOptions opts(c.context);
  opts.setTag(c.tag());
  opts.setTimeout(timeout_of(c, call));
  gloo::barrier(opts);
}

using RunFn = void (*)(const kf_collective_call_t&);

// A dtype gloo cannot reduce is refused when the call starts, before anything is queued.
void check_reducible(const kf_collective_call_t& call) {
  visit_reducible(call.input.dtype, [](auto) {});
}

// Starts `fn` on the communicator's worker (gloo_worker.hpp): queued, with the work handed back,
// or run to its end at once when the host waits for it (`work` NULL).
kf_status_t start(const kf_collective_call_t* call, void** work, RunFn fn, bool reduces) {
  if (work != nullptr) *work = nullptr;
  if (reduces) {
    const kf_status_t s = guarded(call->error, call->error_cap, [&] { check_reducible(*call); });
    if (s != KF_OK) return s;
  }
  kf_collective_call_t copy = *call;  // the buffers it names live until the work is released
  copy.error = nullptr;
  copy.error_cap = 0;
  GlooComm& c = comm_of(copy);
  auto run = [copy, fn] { fn(copy); };
  if (work == nullptr) {
    std::string error;
    const kf_status_t s = c.worker.run_now(run, &error);
    write_error(call->error, call->error_cap, error);
    return s;
  }
  return guarded(call->error, call->error_cap,
                 [&] { *work = new std::shared_ptr<GlooTask>(c.worker.post(run)); });
}

void run_send(const kf_collective_call_t& call) { run_point(call, true); }
void run_recv(const kf_collective_call_t& call) { run_point(call, false); }

std::shared_ptr<GlooTask>& task_of(void* work) {
  return *static_cast<std::shared_ptr<GlooTask>*>(work);
}

}  // namespace

kf_status_t all_reduce(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_all_reduce, true);
}

kf_status_t broadcast(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_broadcast, false);
}

kf_status_t all_gather(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_all_gather, false);
}

kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_reduce_scatter, true);
}

kf_status_t send(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_send, false);
}

kf_status_t recv(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_recv, false);
}

kf_status_t barrier(const kf_collective_call_t* call, void** work) {
  return start(call, work, run_barrier, false);
}

kf_status_t work_wait(void* work, int64_t timeout_ms, char* error, size_t error_cap) {
  GlooTask& t = *task_of(work);
  if (!t.wait_for(timeout_ms)) {
    write_error(error, error_cap, "the gloo call did not finish within " +
                std::to_string(timeout_ms) + " ms");
    return KF_TIMEOUT;
  }
  write_error(error, error_cap, t.error);
  return t.status;
}

kf_status_t work_test(void* work, int32_t* done, char* error, size_t error_cap) {
  (void)error;
  (void)error_cap;
  GlooTask& t = *task_of(work);
  std::lock_guard<std::mutex> lock(t.mutex);
  *done = t.done ? 1 : 0;
  return KF_OK;
}

void work_release(void* work) {
  auto* holder = static_cast<std::shared_ptr<GlooTask>*>(work);
  (*holder)->wait_for(0);  // the call reads the host's buffers until it ends (its own timeout)
  delete holder;
}

}  // namespace kfgloo
