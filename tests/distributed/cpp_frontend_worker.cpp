// One rank of distributed.cpp_frontend_<world> (run by run_ranks.py): kf::distributed, the C++
// frontend's collectives (kernforge/distributed.hpp), on gloo through file://.
//
//   kernforge_cpp_frontend_worker frontend <rank> <world> <folder> <timeout_ms>
//
// Checks every call, synchronous and _async, against values every rank computes itself, the
// errors as kf::Error with their status (a tensor that is not contiguous, a root out of range),
// that a Work outlives its Communicator, and split and abort. Exits 0 when every check held.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "kernforge/distributed.hpp"

namespace {

namespace kd = kf::distributed;

int g_failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++g_failures;
    std::printf("FAILED: %s\n", what.c_str());
  }
}

std::vector<float> values(const kf::Tensor& t) { return t.to_vector<float>(); }

// Sums over ranks are rounded in the engine's order: equal within float32's rounding.
bool near(float got, float want) { return std::fabs(got - want) <= 1e-5f * (1 + std::fabs(want)); }

// Rank r's input of n elements: r + 1 + i / 10.
kf::Tensor input(int32_t rank, int64_t n) {
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<float>(rank + 1) + i / 10.0f);
  return kf::from_vector(v);
}

void check_all_reduce(const kd::Communicator& comm, int32_t world) {
  const float sum_ranks = world * (world + 1) / 2.0f;
  kf::Tensor t = input(comm.rank(), 3);
  comm.all_reduce(t);
  const std::vector<float> got = values(t);
  for (int i = 0; i < 3; ++i) {
    expect(near(got[i], sum_ranks + world * (i / 10.0f)),
           "all_reduce sum element " + std::to_string(i));
  }
  kf::Tensor m = input(comm.rank(), 2);
  kd::Work w = comm.all_reduce_async(m, kd::ReduceOp::Max);
  w.wait();
  expect(w.is_completed(), "all_reduce_async is completed after wait()");
  expect(values(m)[0] == static_cast<float>(world), "all_reduce max");
  kf::Tensor a = input(comm.rank(), 1);
  comm.all_reduce(a, kd::ReduceOp::Avg);
  expect(near(values(a)[0], sum_ranks / world), "all_reduce avg");
}

void check_broadcast_and_gather(const kd::Communicator& comm, int32_t world) {
  const int32_t root = world - 1;
  kf::Tensor b = input(comm.rank(), 4);
  comm.broadcast_async(b, root).wait();
  expect(values(b) == values(input(root, 4)), "broadcast from the last rank");
  kf::Tensor out = kf::zeros({world * 2});
  comm.all_gather(out, input(comm.rank(), 2));
  std::vector<float> want;
  for (int32_t r = 0; r < world; ++r) {
    for (float x : values(input(r, 2))) want.push_back(x);
  }
  expect(values(out) == want, "all_gather in rank order");
}

void check_reduce_scatter(const kd::Communicator& comm, int32_t world) {
  kf::Tensor in = input(comm.rank(), 2 * world);
  kf::Tensor out = kf::zeros({2});
  comm.reduce_scatter_async(out, in, kd::ReduceOp::Sum).wait();
  const float sum_ranks = world * (world + 1) / 2.0f;
  const int r = comm.rank();
  expect(near(values(out)[0], sum_ranks + world * ((2 * r) / 10.0f)), "reduce_scatter slice");
}

void check_send_recv(const kd::Communicator& comm, int32_t world) {
  const int32_t rank = comm.rank(), next = (rank + 1) % world, prev = (rank + world - 1) % world;
  kf::Tensor got = kf::zeros({3});
  // Even ranks send first, odd ones receive first: a ring without a deadlock on blocking engines.
  if (rank % 2 == 0) {
    comm.send(input(rank, 3), next, 7);
    comm.recv_async(got, prev, 7).wait();
  } else {
    comm.recv(got, prev, 7);
    comm.send_async(input(rank, 3), next, 7).wait();
  }
  expect(values(got) == values(input(prev, 3)), "recv from the previous rank");
}

void check_errors(const kd::Communicator& comm) {
  kf::Tensor strided = kf::zeros({4, 2}).transpose(0, 1);
  try {
    comm.all_reduce(strided);
    expect(false, "all_reduce of a tensor that is not contiguous throws");
  } catch (const kf::Error& e) {
    expect(e.status() == KF_INVALID_ARGUMENT, std::string("not contiguous: ") + e.status_name());
  }
  try {
    comm.broadcast(kf::zeros({1}), comm.world_size());
    expect(false, "broadcast from a root out of range throws");
  } catch (const kf::Error& e) {
    expect(e.status() == KF_INVALID_ARGUMENT, std::string("bad root: ") + e.status_name());
  }
}

// A Work started on a Communicator that is then destroyed: the handle lives until the Work goes.
void check_work_outlives_communicator(const kd::Options& o, int32_t world) {
  kd::Work w;
  kf::Tensor t = kf::ones({2});
  {
    kd::Communicator second(o);
    w = second.all_reduce_async(t);
  }
  w.wait();
  expect(values(t)[1] == static_cast<float>(world), "a Work outliving its Communicator");
}

// split: every rank but the last (where there are more than 2) makes one communicator, ranked
// in reverse by key; the last joins none. Then abort: a communicator aborted on this rank
// refuses later calls at once.
void check_split_and_abort(const kd::Communicator& comm, int32_t world) {
  const int32_t rank = comm.rank();
  const int32_t size = world > 2 ? world - 1 : world;
  const bool member = rank < size;
  std::optional<kd::Communicator> sub = comm.split(member ? 0 : kd::Communicator::kNoColor, -rank);
  expect(sub.has_value() == member, "split: a rank without a color gets none");
  if (!sub) return;
  expect(sub->world_size() == size, "split: the sub-communicator's size");
  expect(sub->rank() == size - 1 - rank, "split: ranked by key, in reverse");
  kf::Tensor t = input(rank, 2);
  sub->all_reduce(t);
  float want = 0;
  for (int32_t r = 0; r < size; ++r) want += values(input(r, 1))[0];
  expect(near(values(t)[0], want), "split: all_reduce over the sub-communicator");
  sub->abort();
  try {
    sub->all_reduce(t);
    expect(false, "a call after abort() throws");
  } catch (const kf::Error& e) {
    expect(e.status() == KF_UNAVAILABLE, std::string("after abort: ") + e.status_name());
  }
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 6 || std::string(argv[1]) != "frontend") {
    std::fprintf(stderr, "usage: %s frontend <rank> <world> <folder> <timeout_ms>\n", argv[0]);
    return 2;
  }
  kd::Options o;
  o.rank = std::atoi(argv[2]);
  o.world_size = std::atoi(argv[3]);
  o.rendezvous = std::string("file://") + argv[4];
  o.timeout = std::chrono::milliseconds(std::atoll(argv[5]));
  const kd::Communicator comm(o);
  expect(comm.rank() == o.rank && comm.world_size() == o.world_size, "rank and world size");
  check_all_reduce(comm, o.world_size);
  check_broadcast_and_gather(comm, o.world_size);
  check_reduce_scatter(comm, o.world_size);
  check_send_recv(comm, o.world_size);
  check_errors(comm);
  comm.barrier_async().wait();
  check_work_outlives_communicator(o, o.world_size);
  comm.barrier();
  check_split_and_abort(comm, o.world_size);
  comm.barrier();
  std::printf("rank %d: %d failures\n", o.rank, g_failures);
  return g_failures == 0 ? 0 : 1;
} catch (const kf::Error& e) {
  std::printf("kf::Error %s: %s\n", e.status_name(), e.what());
  return 1;
}
