#include "mpi_ops.hpp"

#include <climits>
#include <memory>
#include <string>

#include "mpi_errors.hpp"
#include "mpi_process.hpp"
#include "mpi_types.hpp"
#include "mpi_work.hpp"

namespace kfmpi {
namespace {

MpiComm& comm_of(const kf_collective_call_t& call) {
  return *static_cast<MpiComm*>(call.comm);
}

// MPI's counts are ints.
int count_of(const kf_tensor_view_t& v, const char* what) {
  if (v.numel > INT_MAX) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string(what) + ": " + std::to_string(v.numel) +
                      " elements are more than one MPI call moves (MPI counts are int, at most " +
                      std::to_string(INT_MAX) + "); split the tensor");
  }
  return static_cast<int>(v.numel);
}

// Starts an operation: `post(request)` under the MPI lock, returning MPI's code; the work
// carries `setup`'s post-steps.
template <class Post>
kf_status_t start(const kf_collective_call_t* call, void** work, const char* what,
                  const char* mpi_call, Post&& post) {
  *work = nullptr;
  return guarded(call->error, call->error_cap, [&] {
    MpiComm& c = comm_of(*call);
    check_usable(c, what);
    auto w = std::make_unique<MpiWork>();
    w->comm = &c;
    w->what = what;
    int code = MPI_SUCCESS;
    {
      auto lock = mpi_guard();
      code = post(*w);
    }
    check_mpi(code, mpi_call);
    *work = w.release();
  });
}

void divide_after(MpiWork& w, const kf_collective_call_t& call) {
  if (call.reduce_op != KF_REDUCE_AVG) return;
  w.divide_dtype = call.output.dtype;
  w.data = call.output.data;
  w.numel = call.output.numel;
}

}  // namespace

kf_status_t all_reduce(const kf_collective_call_t* call, void** work) {
  return start(call, work, "all_reduce", "MPI_Iallreduce", [&](MpiWork& w) {
    const kf_tensor_view_t& t = call->output;
    const int n = count_of(t, "all_reduce");
    const MPI_Op op = mpi_op(t.dtype, call->reduce_op);
    divide_after(w, *call);
    return MPI_Iallreduce(MPI_IN_PLACE, t.data, n, mpi_type(t.dtype), op, w.comm->comm,
                          &w.request);
  });
}

kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work) {
  return start(call, work, "reduce_scatter", "MPI_Ireduce_scatter_block", [&](MpiWork& w) {
    const kf_tensor_view_t& out = call->output;
    (void)count_of(call->input, "reduce_scatter");
    const int n = count_of(out, "reduce_scatter");
    const MPI_Op op = mpi_op(out.dtype, call->reduce_op);
    divide_after(w, *call);
    return MPI_Ireduce_scatter_block(call->input.data, out.data, n, mpi_type(out.dtype), op,
                                     w.comm->comm, &w.request);
  });
}

kf_status_t broadcast(const kf_collective_call_t* call, void** work) {
  return start(call, work, "broadcast", "MPI_Ibcast", [&](MpiWork& w) {
    const kf_tensor_view_t& t = call->output;
    return MPI_Ibcast(t.data, count_of(t, "broadcast"), mpi_type(t.dtype), call->peer,
                      w.comm->comm, &w.request);
  });
}

kf_status_t all_gather(const kf_collective_call_t* call, void** work) {
  return start(call, work, "all_gather", "MPI_Iallgather", [&](MpiWork& w) {
    const kf_tensor_view_t& in = call->input;
    const int n = count_of(in, "all_gather");
    (void)count_of(call->output, "all_gather");
    const MPI_Datatype type = mpi_type(in.dtype);
    return MPI_Iallgather(in.data, n, type, call->output.data, n, type, w.comm->comm,
                          &w.request);
  });
}

namespace {

void check_tag(const MpiComm& c, int32_t tag, const char* what) {
  if (tag < 0 || tag > c.tag_ub) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string(what) + ": tag " + std::to_string(tag) +
                      " is outside MPI's tags 0.." + std::to_string(c.tag_ub));
  }
}

}  // namespace

kf_status_t send(const kf_collective_call_t* call, void** work) {
  return start(call, work, "send", "MPI_Isend", [&](MpiWork& w) {
    const kf_tensor_view_t& t = call->input;
    check_tag(*w.comm, call->tag, "send");
    return MPI_Isend(t.data, count_of(t, "send"), mpi_type(t.dtype), call->peer, call->tag,
                     w.comm->comm, &w.request);
  });
}

kf_status_t recv(const kf_collective_call_t* call, void** work) {
  return start(call, work, "recv", "MPI_Irecv", [&](MpiWork& w) {
    const kf_tensor_view_t& t = call->output;
    check_tag(*w.comm, call->tag, "recv");
    w.recv_type = mpi_type(t.dtype);
    w.numel = t.numel;
    return MPI_Irecv(t.data, count_of(t, "recv"), w.recv_type, call->peer, call->tag,
                     w.comm->comm, &w.request);
  });
}

kf_status_t barrier(const kf_collective_call_t* call, void** work) {
  return start(call, work, "barrier", "MPI_Ibarrier", [&](MpiWork& w) {
    return MPI_Ibarrier(w.comm->comm, &w.request);
  });
}

}  // namespace kfmpi
