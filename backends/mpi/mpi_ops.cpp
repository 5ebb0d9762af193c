#include "mpi_ops.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "mpi_errors.hpp"
#include "mpi_process.hpp"
#include "mpi_types.hpp"
#include "mpi_work.hpp"

namespace kfmpi {
namespace {

// From this many bytes on, a collective waits for the ranks' arrival (MPI_Ibarrier) and then
// runs MPI's blocking call (mpi_work.hpp): from 256 KiB Open MPI's blocking algorithms
// (coll/tuned) are 1.5 to 2.8 times as fast as its nonblocking ones (coll/libnbc) on 2 ranks
// (up to 1.6 on 4), more than the barrier costs; below, it costs more than it saves
// (docs/benchmarks.md, measured on a quiet machine). KF_MPI_BLOCKING_BYTES sets another threshold (0: every
// collective so; a huge value: none).
constexpr int64_t kBlockingBytes = int64_t{256} << 10;

int64_t blocking_bytes() {
  static const int64_t bytes = [] {
    const char* text = std::getenv("KF_MPI_BLOCKING_BYTES");
    if (text == nullptr || text[0] == '\0') return kBlockingBytes;
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    return *end == '\0' && value >= 0 ? static_cast<int64_t>(value) : kBlockingBytes;
  }();
  return bytes;
}

// What a slot started: MPI's code and the name of the call.
struct Posted {
  int code;
  const char* name;
};

MpiComm& comm_of(const kf_collective_call_t& call) {
  return *static_cast<MpiComm*>(call.comm);
}

int64_t bytes_of(const kf_tensor_view_t& v) {
  return v.ndim < 0 ? 0 : v.numel * static_cast<int64_t>(kf_dtype_itemsize(v.dtype));
}

bool is_large(const kf_collective_call_t& call) {
  return std::max(bytes_of(call.input), bytes_of(call.output)) >= blocking_bytes();
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

// The arrival of a large collective; `blocking` runs once every rank is there.
template <class Blocking>
Posted defer(MpiWork& w, const char* name, Blocking&& blocking) {
  w.then = std::forward<Blocking>(blocking);
  w.then_name = name;
  return {MPI_Ibarrier(w.comm->comm, &w.request), "MPI_Ibarrier"};
}

// Starts a call, `post(work, large)` under the MPI lock. A collective finishes the
// communicator's deferred work first, so that every rank issues its collectives in the same
// order; sends and receives are matched by tag, not order, and do not wait for it.
template <class Post>
kf_status_t post_work(const kf_collective_call_t* call, void** work, const char* what,
                      bool collective, Post&& post) {
  *work = nullptr;
  return guarded(call->error, call->error_cap, [&] {
    MpiComm& c = comm_of(*call);
    check_usable(c, what);
    if (collective) settle(c);
    const bool large = collective && is_large(*call);
    auto w = std::make_unique<MpiWork>();
    w->comm = &c;
    w->what = what;
    Posted posted{MPI_SUCCESS, ""};
    {
      auto lock = mpi_guard();
      posted = post(*w, large);
    }
    check_mpi(posted.code, posted.name);
    if (w->then) c.deferred = w.get();
    *work = w.release();
  });
}

// Starts a call and hands back its work; with `work` NULL (collective ABI 1.1: the host waits
// at once) waits for it here, inside the call's timeout, and releases it.
template <class Post>
kf_status_t start(const kf_collective_call_t* call, void** work, const char* what,
                  bool collective, Post&& post) {
  if (work != nullptr) return post_work(call, work, what, collective, std::forward<Post>(post));
  void* mine = nullptr;
  kf_status_t s = post_work(call, &mine, what, collective, std::forward<Post>(post));
  if (s != KF_OK || mine == nullptr) return s;
  s = work_wait(mine, call->timeout_ms, call->error, call->error_cap);
  work_release(mine);
  return s;
}

void divide_after(MpiWork& w, const kf_collective_call_t& call) {
  if (call.reduce_op != KF_REDUCE_AVG) return;
  w.divide_dtype = call.output.dtype;
  w.data = call.output.data;
  w.numel = call.output.numel;
}

void check_tag(const MpiComm& c, int32_t tag, const char* what) {
  if (tag < 0 || tag > c.tag_ub) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string(what) + ": tag " + std::to_string(tag) +
                      " is outside MPI's tags 0.." + std::to_string(c.tag_ub));
  }
}

}  // namespace

kf_status_t all_reduce(const kf_collective_call_t* call, void** work) {
  return start(call, work, "all_reduce", true, [&](MpiWork& w, bool large) {
    void* data = call->output.data;
    const int n = count_of(call->output, "all_reduce");
    const MPI_Op op = mpi_op(call->output.dtype, call->reduce_op);
    const MPI_Datatype type = mpi_type(call->output.dtype);
    const MPI_Comm comm = w.comm->comm;
    divide_after(w, *call);
    if (large) {
      return defer(w, "MPI_Allreduce", [=] {
        return MPI_Allreduce(MPI_IN_PLACE, data, n, type, op, comm);
      });
    }
    return Posted{MPI_Iallreduce(MPI_IN_PLACE, data, n, type, op, comm, &w.request),
                  "MPI_Iallreduce"};
  });
}

kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work) {
  return start(call, work, "reduce_scatter", true, [&](MpiWork& w, bool large) {
    const void* in = call->input.data;
    void* out = call->output.data;
    (void)count_of(call->input, "reduce_scatter");
    const int n = count_of(call->output, "reduce_scatter");
    const MPI_Op op = mpi_op(call->output.dtype, call->reduce_op);
    const MPI_Datatype type = mpi_type(call->output.dtype);
    const MPI_Comm comm = w.comm->comm;
    divide_after(w, *call);
    if (large) {
      return defer(w, "MPI_Reduce_scatter_block", [=] {
        return MPI_Reduce_scatter_block(in, out, n, type, op, comm);
      });
    }
    return Posted{MPI_Ireduce_scatter_block(in, out, n, type, op, comm, &w.request),
                  "MPI_Ireduce_scatter_block"};
  });
}

kf_status_t broadcast(const kf_collective_call_t* call, void** work) {
  return start(call, work, "broadcast", true, [&](MpiWork& w, bool large) {
    void* data = call->output.data;
    const int n = count_of(call->output, "broadcast");
    const MPI_Datatype type = mpi_type(call->output.dtype);
    const int root = call->peer;
    const MPI_Comm comm = w.comm->comm;
    if (large) {
      return defer(w, "MPI_Bcast", [=] { return MPI_Bcast(data, n, type, root, comm); });
    }
    return Posted{MPI_Ibcast(data, n, type, root, comm, &w.request), "MPI_Ibcast"};
  });
}

kf_status_t all_gather(const kf_collective_call_t* call, void** work) {
  return start(call, work, "all_gather", true, [&](MpiWork& w, bool large) {
    const void* in = call->input.data;
    void* out = call->output.data;
    const int n = count_of(call->input, "all_gather");
    (void)count_of(call->output, "all_gather");
    const MPI_Datatype type = mpi_type(call->input.dtype);
    const MPI_Comm comm = w.comm->comm;
    if (large) {
      return defer(w, "MPI_Allgather", [=] {
        return MPI_Allgather(in, n, type, out, n, type, comm);
      });
    }
    return Posted{MPI_Iallgather(in, n, type, out, n, type, comm, &w.request), "MPI_Iallgather"};
  });
}

kf_status_t send(const kf_collective_call_t* call, void** work) {
  return start(call, work, "send", false, [&](MpiWork& w, bool) {
    const kf_tensor_view_t& t = call->input;
    check_tag(*w.comm, call->tag, "send");
    return Posted{MPI_Isend(t.data, count_of(t, "send"), mpi_type(t.dtype), call->peer,
                            call->tag, w.comm->comm, &w.request), "MPI_Isend"};
  });
}

kf_status_t recv(const kf_collective_call_t* call, void** work) {
  return start(call, work, "recv", false, [&](MpiWork& w, bool) {
    const kf_tensor_view_t& t = call->output;
    check_tag(*w.comm, call->tag, "recv");
    w.recv_type = mpi_type(t.dtype);
    w.numel = t.numel;
    return Posted{MPI_Irecv(t.data, count_of(t, "recv"), w.recv_type, call->peer, call->tag,
                            w.comm->comm, &w.request), "MPI_Irecv"};
  });
}

kf_status_t barrier(const kf_collective_call_t* call, void** work) {
  return start(call, work, "barrier", true, [&](MpiWork& w, bool) {
    return Posted{MPI_Ibarrier(w.comm->comm, &w.request), "MPI_Ibarrier"};
  });
}

}  // namespace kfmpi
