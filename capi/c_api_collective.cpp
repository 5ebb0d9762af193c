// The collectives of the C ABI (ABI 2.7; kf_comm_split and kf_comm_abort 2.8). Semantics:
// runtime/distributed (comm.hpp, work.hpp, collective_call.hpp) and docs/distributed.md.
#include "capi/startup.hpp"
#include "core/error.hpp"
#include "distributed/collective_call.hpp"
#include "distributed/comm.hpp"
#include "distributed/work.hpp"
#include "tensor/tensor_impl.hpp"

namespace {

// Starts a call; with `out` NULL waits for it and returns its status.
kf_status_t run(kf_comm_t comm, const kf::CollectiveArgs& args, kf_work_t* out) {
  return kf::guard([&] {
    const char* fn = kf::collective_function(args.op);
    kf::CollectiveArgs a = args;
    a.blocking = out == nullptr;
    kf::Work* w = kf::start_collective(kf::checked_comm(comm, fn), a);
    const kf_work_t handle = kf::publish_work(w);
    if (out != nullptr) {
      *out = handle;
      return;
    }
    try {
      kf::wait_work(*w);
    } catch (...) {
      kf::release_work(handle, fn);
      throw;
    }
    kf::release_work(handle, fn);
  });
}

// The arguments of a call on one tensor.
kf::CollectiveArgs one_tensor(kf::CollectiveOp op, kf_tensor_t t, const char* fn) {
  kf::CollectiveArgs a;
  a.op = op;
  a.input = &kf::checked(t, fn);
  a.output = a.input;
  return a;
}

kf::CollectiveArgs two_tensors(kf::CollectiveOp op, kf_tensor_t output, kf_tensor_t input,
                               const char* fn) {
  kf::CollectiveArgs a;
  a.op = op;
  a.input = &kf::checked(input, fn);
  a.output = &kf::checked(output, fn);
  return a;
}

// guard() for the calls whose arguments may throw while they are read.
template <class F>
kf_status_t start(kf_comm_t comm, kf_work_t* out, F&& args) {
  if (out != nullptr) *out = nullptr;
  kf::CollectiveArgs a;
  const kf_status_t s = kf::guard([&] { a = args(); });
  return s != KF_OK ? s : run(comm, a, out);
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_comm_create(const kf_comm_options_t* options, kf_comm_t* out) {
  return kf::guard([&] {
    if (options == nullptr || out == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_comm_create: options and out must not be NULL");
    }
    if (options->struct_size < sizeof(kf_comm_options_t)) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_comm_create: options.struct_size is {}, less than the "
               "{} of kf_comm_options_t; set it to sizeof(kf_comm_options_t)",
               options->struct_size, sizeof(kf_comm_options_t));
    }
    *out = nullptr;
    kf::ensure_initialized();
    *out = reinterpret_cast<kf_comm_t>(kf::create_comm(*options));
  });
}

KF_API kf_status_t kf_comm_destroy(kf_comm_t comm) {
  if (comm == nullptr) return KF_OK;
  return kf::guard([&] { kf::destroy_comm(kf::take_comm(comm, "kf_comm_destroy")); });
}

KF_API kf_status_t kf_comm_rank(kf_comm_t comm, int32_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_comm_rank: out must not be NULL");
    *out = kf::checked_comm(comm, "kf_comm_rank").rank;
  });
}

KF_API kf_status_t kf_comm_world_size(kf_comm_t comm, int32_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_comm_world_size: out must not be NULL");
    *out = kf::checked_comm(comm, "kf_comm_world_size").world_size;
  });
}

KF_API kf_status_t kf_comm_split(kf_comm_t comm, int32_t color, int32_t key, kf_comm_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_comm_split: out must not be NULL");
    *out = nullptr;
    kf::Comm& parent = kf::checked_comm(comm, "kf_comm_split");
    *out = reinterpret_cast<kf_comm_t>(kf::split_comm(parent, color, key));
  });
}

KF_API kf_status_t kf_comm_abort(kf_comm_t comm) {
  return kf::guard([&] { kf::abort_comm(kf::checked_comm(comm, "kf_comm_abort")); });
}

KF_API kf_status_t kf_all_reduce(kf_comm_t comm, kf_tensor_t tensor, kf_reduce_op_t op,
                                 kf_work_t* out) {
  return start(comm, out, [&] {
    kf::CollectiveArgs a = one_tensor(kf::CollectiveOp::all_reduce, tensor, "kf_all_reduce");
    a.reduce_op = op;
    return a;
  });
}

KF_API kf_status_t kf_broadcast(kf_comm_t comm, kf_tensor_t tensor, int32_t root,
                                kf_work_t* out) {
  return start(comm, out, [&] {
    kf::CollectiveArgs a = one_tensor(kf::CollectiveOp::broadcast, tensor, "kf_broadcast");
    a.peer = root;
    return a;
  });
}

KF_API kf_status_t kf_all_gather(kf_comm_t comm, kf_tensor_t output, kf_tensor_t input,
                                 kf_work_t* out) {
  return start(comm, out, [&] {
    return two_tensors(kf::CollectiveOp::all_gather, output, input, "kf_all_gather");
  });
}

KF_API kf_status_t kf_reduce_scatter(kf_comm_t comm, kf_tensor_t output, kf_tensor_t input,
                                     kf_reduce_op_t op, kf_work_t* out) {
  return start(comm, out, [&] {
    kf::CollectiveArgs a =
        two_tensors(kf::CollectiveOp::reduce_scatter, output, input, "kf_reduce_scatter");
    a.reduce_op = op;
    return a;
  });
}

KF_API kf_status_t kf_send(kf_comm_t comm, kf_tensor_t tensor, int32_t peer, int32_t tag,
                           kf_work_t* out) {
  return start(comm, out, [&] {
    kf::CollectiveArgs a = one_tensor(kf::CollectiveOp::send, tensor, "kf_send");
    a.peer = peer;
    a.tag = tag;
    return a;
  });
}

KF_API kf_status_t kf_recv(kf_comm_t comm, kf_tensor_t tensor, int32_t peer, int32_t tag,
                           kf_work_t* out) {
  return start(comm, out, [&] {
    kf::CollectiveArgs a = one_tensor(kf::CollectiveOp::recv, tensor, "kf_recv");
    a.peer = peer;
    a.tag = tag;
    return a;
  });
}

KF_API kf_status_t kf_barrier(kf_comm_t comm, kf_work_t* out) {
  return start(comm, out, [] {
    kf::CollectiveArgs a;
    a.op = kf::CollectiveOp::barrier;
    return a;
  });
}

KF_API kf_status_t kf_work_wait(kf_work_t work) {
  return kf::guard([&] { kf::wait_work(kf::checked_work(work, "kf_work_wait")); });
}

KF_API kf_status_t kf_work_test(kf_work_t work, bool* out_done) {
  return kf::guard([&] {
    if (out_done == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_work_test: out_done must not be NULL");
    *out_done = kf::test_work(kf::checked_work(work, "kf_work_test"));
  });
}

KF_API kf_status_t kf_work_release(kf_work_t work) {
  if (work == nullptr) return KF_OK;
  return kf::guard([&] { kf::release_work(work, "kf_work_release"); });
}

KF_API const char* kf_reduce_op_name(int32_t op) {
  switch (op) {
    case KF_REDUCE_SUM: return "sum";
    case KF_REDUCE_PROD: return "prod";
    case KF_REDUCE_MIN: return "min";
    case KF_REDUCE_MAX: return "max";
    case KF_REDUCE_AVG: return "avg";
    default: return "unknown";
  }
}

}  // extern "C"
