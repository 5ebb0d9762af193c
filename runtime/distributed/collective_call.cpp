#include "distributed/collective_call.hpp"

#include <memory>

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "device/stream.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf {
namespace {

struct OpInfo {
  const char* name;      // the slot's
  const char* function;  // the C ABI's
  size_t end;            // KF_COLLECTIVE_SLOT_END of the slot
  kf_collective_fn kf_collective_plugin_t::*slot;
  bool writes;           // whether the output is written
};

#define KF_OP_INFO(op, writes) \
  {#op, "kf_" #op, KF_COLLECTIVE_SLOT_END(op), &kf_collective_plugin_t::op, writes}

const OpInfo& info(CollectiveOp op) noexcept {
  static const OpInfo table[] = {
      KF_OP_INFO(all_reduce, true), KF_OP_INFO(broadcast, true),
      KF_OP_INFO(all_gather, true), KF_OP_INFO(reduce_scatter, true),
      KF_OP_INFO(send, false),      KF_OP_INFO(recv, true),
      KF_OP_INFO(barrier, false)};
  return table[static_cast<int>(op)];
}

#undef KF_OP_INFO

void check_tensor(const TensorImpl& t, const char* fn, const char* role) {
  if (!is_contiguous(t)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} is not contiguous; pass a contiguous tensor (copy it with "
         "kf_contiguous first)", fn, role);
  }
}

void check_sizes(const Comm& c, const CollectiveArgs& a, const char* fn) {
  const TensorImpl& in = *a.input;
  const TensorImpl& out = *a.output;
  if (in.dtype != out.dtype || in.device != out.device) {
    fail(KF_INVALID_ARGUMENT, "{}: output is {} on {} but input is {} on {}; give both the same "
         "dtype and device", fn, dtype_name(out.dtype), device_string(out.device),
         dtype_name(in.dtype), device_string(in.device));
  }
  const bool gather = a.op == CollectiveOp::all_gather;
  const int64_t small = gather ? in.numel : out.numel;
  const int64_t large = gather ? out.numel : in.numel;
  if (large != small * c.world_size) {
    fail(KF_INVALID_ARGUMENT, "{}: {} has {} elements and {} {}; it must have world_size ({}) "
         "times as many", fn, gather ? "output" : "input", large, gather ? "input" : "output",
         small, c.world_size);
  }
}

void check_rank_argument(const Comm& c, const CollectiveArgs& a, const char* fn) {
  const bool point = a.op == CollectiveOp::send || a.op == CollectiveOp::recv;
  if (a.op != CollectiveOp::broadcast && !point) return;
  if (a.peer < 0 || a.peer >= c.world_size || (point && a.peer == c.rank)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} {} is not another rank of 0..{}", fn,
         point ? "peer" : "root", a.peer, c.world_size - 1);
  }
}

void check_args(const Comm& c, const CollectiveArgs& a, const char* fn) {
  if (a.op == CollectiveOp::barrier) return;
  check_tensor(*a.input, fn, a.output == a.input ? "the tensor" : "input");
  check_tensor(*a.output, fn, "output");
  if (a.op == CollectiveOp::all_gather || a.op == CollectiveOp::reduce_scatter) {
    check_sizes(c, a, fn);
  }
  const bool reduces = a.op == CollectiveOp::all_reduce || a.op == CollectiveOp::reduce_scatter;
  if (reduces && (a.reduce_op < KF_REDUCE_SUM || a.reduce_op > KF_REDUCE_AVG)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} is not a kf_reduce_op_t (sum, prod, min, max, avg)", fn,
         a.reduce_op);
  }
  check_rank_argument(c, a, fn);
}

CommEngine& engine_of(Comm& c, const CollectiveArgs& a) {
  if (a.input == nullptr) return c.engines.front();  // a barrier: the first engine named
  return c.engine_for(device_type_name(a.input->device.type));
}

kf_collective_call_t call_struct(const Comm& c, const CommEngine& e, const CollectiveArgs& a) {
  kf_collective_call_t call{};
  call.struct_size = sizeof call;
  call.comm = e.state;
  call.input.ndim = -1;
  call.output.ndim = -1;
  if (a.input != nullptr) call.input = kernel_view(*a.input);
  if (a.output != nullptr) call.output = kernel_view(*a.output);
  call.reduce_op = a.reduce_op;
  call.peer = a.peer;
  call.tag = a.tag;
  call.timeout_ms = c.timeout_ms;
  if (a.input != nullptr) call.stream = native_stream(current_stream(a.input->device));
  return call;
}

// The work, holding the call's tensors.
std::unique_ptr<Work> new_work(const Comm& c, const CommEngine& e, const CollectiveArgs& a) {
  auto w = std::make_unique<Work>();
  w->engine = e;
  w->what = info(a.op).name;
  w->timeout_ms = c.timeout_ms;
  for (TensorImpl* t : {a.input, a.output}) {
    if (t == nullptr || (t == a.output && a.output == a.input)) continue;
    retain(t);
    w->held.push_back(t);
  }
  return w;
}

// Where the engine puts its work: NULL tells an engine of collective ABI 1.1 or later that the
// host waits at once, so it may run the call to its end on this thread (kernforge/collective.h).
void** work_slot(const CommEngine& e, const CollectiveArgs& a, Work& w) {
  return a.blocking && e.plugin->abi_minor >= 1 ? nullptr : &w.plugin_work;
}

}  // namespace

const char* collective_function(CollectiveOp op) noexcept { return info(op).function; }

Work* start_collective(Comm& c, const CollectiveArgs& a) {
  const OpInfo& op = info(a.op);
  if (c.aborted.load()) {
    fail(KF_UNAVAILABLE, "{}: the communicator was aborted (kf_comm_abort); destroy it and make "
         "another", op.function);
  }
  check_args(c, a, op.function);
  CommEngine& e = engine_of(c, a);
  std::unique_ptr<Work> w = new_work(c, e, a);
  if (a.input != nullptr && a.input->numel == 0 && a.output->numel == 0) {
    w->done = true;  // nothing to move: the ranks agree on the size
    return w.release();
  }
  const kf_collective_fn fn = e.slot(op.end, e.plugin->*op.slot);
  if (fn == nullptr) {
    fail(KF_UNIMPLEMENTED, "{}: collective engine '{}' ({}) does not implement {} (its plugin "
         "leaves the slot empty); choose another engine for {} tensors", op.function, e.name,
         e.device_type, op.name, e.device_type);
  }
  if (op.writes) bump_version(*a.output);
  engine_status(e, op.name, [&](char* error, size_t cap) {
    kf_collective_call_t call = call_struct(c, e, a);
    call.error = error;
    call.error_cap = cap;
    return fn(&call, work_slot(e, a, *w));
  });
  w->done = w->plugin_work == nullptr;
  return w.release();
}

}  // namespace kf
