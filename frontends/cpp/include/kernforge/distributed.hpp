// kernforge/distributed.hpp — collectives from C++ (kf::distributed), over the C ABI's
// communicators and works (2.7; docs/distributed.md). Include it instead of (or beside)
// kernforge.hpp, which it includes.
//
//   kf::distributed::Options o;
//   o.rendezvous = "file:///tmp/job42";  // a folder every rank can write; it must exist
//   o.rank = rank;
//   o.world_size = 2;
//   o.timeout = std::chrono::seconds(60);
//   kf::distributed::Communicator comm(o);              // every rank, same engine and rendezvous
//   comm.all_reduce(grads, kf::distributed::ReduceOp::Avg);   // waits here
//   kf::distributed::Work w = comm.broadcast_async(weights, 0);
//   /* ... other work ... */
//   w.wait();                                           // throws kf::Error on failure
//
// Errors are kf::Error with the C status: KF_TIMEOUT when not every rank arrived inside the
// communicator's timeout, KF_INVALID_ARGUMENT for a tensor that is not contiguous or a rank out of
// range, KF_UNAVAILABLE when the engine lost a peer. After a failed call the ranks may be out of
// step: destroy the communicator.
//
// Ownership: Communicator and Work are move-only. A Work holds its tensors and its communicator's
// handle until it is destroyed, so the kf_comm_t is destroyed only after the Communicator and
// every Work started on it are gone (the C ABI wants a communicator's works released before
// it). Destroying an unfinished Work waits for it (its error, if any, is lost: call wait()).
#ifndef KERNFORGE_DISTRIBUTED_HPP_
#define KERNFORGE_DISTRIBUTED_HPP_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernforge/kernforge.hpp"

namespace kf {
namespace distributed {

/// How all_reduce and reduce_scatter combine: Avg is the sum divided by the world size (integers
/// divide toward zero).
enum class ReduceOp : int32_t {
  Sum = KF_REDUCE_SUM,
  Product = KF_REDUCE_PROD,
  Min = KF_REDUCE_MIN,
  Max = KF_REDUCE_MAX,
  Avg = KF_REDUCE_AVG,
};

inline const char* reduce_op_name(ReduceOp op) {
  return kf_reduce_op_name(static_cast<int32_t>(op));
}

/// What every rank passes to make a communicator (kf_comm_options_t).
struct Options {
  /// Which engine serves which device type: "cpu:gloo", "cpu:gloo,cuda:nccl", or a plugin name.
  std::string engine = "cpu:gloo";
  /// "file://<absolute folder>" or "env://" (torchrun's RANK, WORLD_SIZE, MASTER_ADDR, ...).
  std::string rendezvous = "env://";
  int32_t rank = -1;        ///< -1: from the rendezvous (env://)
  int32_t world_size = -1;  ///< -1: from the rendezvous (env://)
  /// The limit of the rendezvous and of every call; zero: 30 minutes.
  std::chrono::milliseconds timeout{0};
};

namespace detail {
/// Owns the kf_comm_t; shared by the Communicator and its Works.
struct CommHandle {
  kf_comm_t h = nullptr;
  explicit CommHandle(kf_comm_t c) : h(c) {}
  CommHandle(const CommHandle&) = delete;
  CommHandle& operator=(const CommHandle&) = delete;
  ~CommHandle() { kf_comm_destroy(h); }
};
}  // namespace detail

/// A started collective: wait() for it (throwing its failure), or poll is_completed().
class Work {
 public:
  Work() = default;
  Work(Work&& o) noexcept
      : comm_(std::move(o.comm_)), tensors_(std::move(o.tensors_)),
        h_(std::exchange(o.h_, nullptr)) {}
  Work& operator=(Work&& o) noexcept {
    if (this != &o) {
      kf_work_release(h_);
      comm_ = std::move(o.comm_);
      tensors_ = std::move(o.tensors_);
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;
  ~Work() { kf_work_release(h_); }

  /// Waits for the work (at most the communicator's timeout); throws kf::Error when it failed.
  /// Waiting again gives the same result. A default-constructed Work is done.
  void wait() const {
    if (h_ != nullptr) kf::detail::check(kf_work_wait(h_));
  }
  /// Whether the work has ended (then wait() returns at once, or throws its failure).
  bool is_completed() const {
    bool done = true;
    if (h_ != nullptr) kf::detail::check(kf_work_test(h_, &done));
    return done;
  }
  kf_work_t handle() const { return h_; }

 private:
  friend class Communicator;
  Work(std::shared_ptr<detail::CommHandle> comm, std::vector<Tensor> tensors, kf_work_t h)
      : comm_(std::move(comm)), tensors_(std::move(tensors)), h_(h) {}

  std::shared_ptr<detail::CommHandle> comm_;  // destroyed after h_ is released
  std::vector<Tensor> tensors_;               // alive while the engine may use them
  kf_work_t h_ = nullptr;
};

/// One process's membership of a communicator. Each call has a synchronous form (waits, throws
/// kf::Error) and an _async form returning a Work. Every rank makes the same calls in the same
/// order with the same dtypes and element counts; tensors must be contiguous.
class Communicator {
 public:
  /// Joins: returns once every rank arrived (KF_TIMEOUT when not all did inside the timeout).
  explicit Communicator(const Options& options) {
    kf_comm_options_t o{};
    o.struct_size = sizeof o;
    o.engine = options.engine.c_str();
    o.rendezvous = options.rendezvous.c_str();
    o.rank = options.rank;
    o.world_size = options.world_size;
    o.timeout_ms = static_cast<int64_t>(options.timeout.count());
    kf_comm_t c = nullptr;
    kf::detail::check(kf_comm_create(&o, &c));
    comm_ = std::make_shared<detail::CommHandle>(c);
  }
  Communicator(Communicator&&) noexcept = default;
  Communicator& operator=(Communicator&&) noexcept = default;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int32_t rank() const {
    int32_t r = 0;
    kf::detail::check(kf_comm_rank(c(), &r));
    return r;
  }
  int32_t world_size() const {
    int32_t n = 0;
    kf::detail::check(kf_comm_world_size(c(), &n));
    return n;
  }
  kf_comm_t handle() const { return comm_ ? comm_->h : nullptr; }

  /// The color of a rank that joins no sub-communicator in split().
  static constexpr int32_t kNoColor = KF_COMM_NO_COLOR;
  /// Splits (kf_comm_split; every rank calls it, in the same order as its other calls): the
  /// ranks giving the same `color` (>= 0) make one communicator, ranked by `key` (ties: by
  /// their rank here); a rank giving kNoColor joins none and gets std::nullopt. The new one has
  /// this one's engines, rendezvous and timeout, and lives on its own (before or after this).
  std::optional<Communicator> split(int32_t color, int32_t key) const {
    kf_comm_t sub = nullptr;
    kf::detail::check(kf_comm_split(c(), color, key, &sub));
    if (sub == nullptr) return std::nullopt;
    return Communicator(std::make_shared<detail::CommHandle>(sub));
  }
  /// Aborts on this rank (kf_comm_abort), from any thread: its queued calls and every later one
  /// fail at once with KF_UNAVAILABLE (gloo closes its connections, so the peers' calls fail
  /// too). Destroy it after.
  void abort() const { kf::detail::check(kf_comm_abort(c())); }

  /// Combines `t` over every rank, in place.
  void all_reduce(const Tensor& t, ReduceOp op = ReduceOp::Sum) const {
    kf::detail::check(kf_all_reduce(c(), t.handle(), c_op(op), nullptr));
  }
  Work all_reduce_async(const Tensor& t, ReduceOp op = ReduceOp::Sum) const {
    return start({t}, [&](kf_work_t* w) { return kf_all_reduce(c(), t.handle(), c_op(op), w); });
  }
  /// Rank `root`'s `t` into every rank's `t`.
  void broadcast(const Tensor& t, int32_t root) const {
    kf::detail::check(kf_broadcast(c(), t.handle(), root, nullptr));
  }
  Work broadcast_async(const Tensor& t, int32_t root) const {
    return start({t}, [&](kf_work_t* w) { return kf_broadcast(c(), t.handle(), root, w); });
  }
  /// `output` (world size times input's elements) gets every rank's `input` in rank order.
  void all_gather(const Tensor& output, const Tensor& input) const {
    kf::detail::check(kf_all_gather(c(), output.handle(), input.handle(), nullptr));
  }
  Work all_gather_async(const Tensor& output, const Tensor& input) const {
    return start({output, input}, [&](kf_work_t* w) {
      return kf_all_gather(c(), output.handle(), input.handle(), w);
    });
  }
  /// Combines `input` (world size times output's elements); rank r's `output` gets slice r.
  void reduce_scatter(const Tensor& output, const Tensor& input,
                      ReduceOp op = ReduceOp::Sum) const {
    kf::detail::check(kf_reduce_scatter(c(), output.handle(), input.handle(), c_op(op), nullptr));
  }
  Work reduce_scatter_async(const Tensor& output, const Tensor& input,
                            ReduceOp op = ReduceOp::Sum) const {
    return start({output, input}, [&](kf_work_t* w) {
      return kf_reduce_scatter(c(), output.handle(), input.handle(), c_op(op), w);
    });
  }
  /// `t` to rank `peer`, matched by that rank's recv with the same tag.
  void send(const Tensor& t, int32_t peer, int32_t tag = 0) const {
    kf::detail::check(kf_send(c(), t.handle(), peer, tag, nullptr));
  }
  Work send_async(const Tensor& t, int32_t peer, int32_t tag = 0) const {
    return start({t}, [&](kf_work_t* w) { return kf_send(c(), t.handle(), peer, tag, w); });
  }
  /// Into `t`, what rank `peer` sent with `tag`.
  void recv(const Tensor& t, int32_t peer, int32_t tag = 0) const {
    kf::detail::check(kf_recv(c(), t.handle(), peer, tag, nullptr));
  }
  Work recv_async(const Tensor& t, int32_t peer, int32_t tag = 0) const {
    return start({t}, [&](kf_work_t* w) { return kf_recv(c(), t.handle(), peer, tag, w); });
  }
  /// Returns once every rank entered it.
  void barrier() const { kf::detail::check(kf_barrier(c(), nullptr)); }
  Work barrier_async() const {
    return start({}, [&](kf_work_t* w) { return kf_barrier(c(), w); });
  }

 private:
  explicit Communicator(std::shared_ptr<detail::CommHandle> comm) : comm_(std::move(comm)) {}
  // A moved-from Communicator has no handle: the C ABI's check names it as not live.
  kf_comm_t c() const { return handle(); }
  static kf_reduce_op_t c_op(ReduceOp op) { return static_cast<kf_reduce_op_t>(op); }
  // Starts a call that hands back a work; `keep` (the call's tensors) lives as long as it.
  template <typename F>
  Work start(std::vector<Tensor> keep, F&& call) const {
    kf_work_t w = nullptr;
    kf::detail::check(call(&w));
    return Work(comm_, std::move(keep), w);
  }

  std::shared_ptr<detail::CommHandle> comm_;
};

}  // namespace distributed
}  // namespace kf

#endif  // KERNFORGE_DISTRIBUTED_HPP_
