// kf_comm_split: sub-communicators (docs/distributed.md, "Sub-communicators").
//
// Note [How a communicator splits]
// Every rank calls the split. The ranks first agree on the groups: each all-gathers its
// (color, key) through the communicator's cpu engine, so every rank sees every rank's choice and
// computes the same groups, each ranked by (key, old rank). Then each engine makes its part of
// the sub-communicator, under a key prefix of its own (the same serial on every rank, the color
// in it, so that two groups never meet):
//  - an engine whose plugin fills comm_split splits itself (MPI_Comm_split, ncclCommSplit): every
//    rank calls it, a rank of no group with KF_COMM_NO_COLOR, as those engines require;
//  - any other engine joins the parent's rendezvous again with the group's rank and size
//    (comm_init): the ranks of each group meet under their prefix, the others do nothing.
// The sub-communicator keeps the parent's rendezvous and timeout, and lives on its own. Over
// env:// it shares the parent's store (served by the parent's rank 0), and the split ends with a
// barrier of every rank of the parent on it, as kf_comm_create does.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "distributed/collective_call.hpp"
#include "distributed/comm.hpp"
#include "distributed/work.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf {
namespace {

struct Group {
  int32_t rank = -1;  // this rank's place in its group; -1 for KF_COMM_NO_COLOR
  int32_t size = 0;
};

CommEngine& cpu_engine(Comm& c) {
  for (CommEngine& e : c.engines) {
    if (e.device_type == "cpu") return e;
  }
  fail(KF_UNIMPLEMENTED, "kf_comm_split: the communicator has no cpu engine, through which the "
       "ranks agree on the groups; make it with one as well, such as \"cpu:gloo,cuda:nccl\"");
}

// A cpu tensor over `values` (borrowed; it lives shorter than they do).
TensorImpl* host_tensor(std::vector<int32_t>& values) {
  const int64_t shape[1] = {static_cast<int64_t>(values.size())};
  const int64_t strides[1] = {1};
  return new_borrowed(values.data(), shape, strides, 1, KF_INT32, kf_device_cpu(), nullptr,
                      nullptr, "kf_comm_split");
}

// Runs one collective of `c` to its end; throws its failure.
void run_to_end(Comm& c, const CollectiveArgs& a) {
  const kf_work_t handle = publish_work(start_collective(c, a));
  try {
    wait_work(checked_work(handle, "kf_comm_split"));
  } catch (...) {
    release_work(handle, "kf_comm_split");
    throw;
  }
  release_work(handle, "kf_comm_split");
}

// Every rank's (color, key), in rank order: 2 * world_size values.
std::vector<int32_t> gather_choices(Comm& c, int32_t color, int32_t key) {
  cpu_engine(c);  // says why there is no way to agree, before anything is sent
  std::vector<int32_t> mine = {color, key};
  std::vector<int32_t> all(2 * static_cast<size_t>(c.world_size));
  TensorImpl* in = host_tensor(mine);
  TensorImpl* out = nullptr;
  try {
    out = host_tensor(all);
    CollectiveArgs a;
    a.op = CollectiveOp::all_gather;
    a.input = in;
    a.output = out;
    run_to_end(c, a);
  } catch (...) {
    release(in);
    if (out != nullptr) release(out);
    throw;
  }
  release(in);
  release(out);
  return all;
}

// This rank's place in the group of its color, from every rank's choice.
Group group_of(const std::vector<int32_t>& all, int32_t rank) {
  const int32_t color = all[2 * static_cast<size_t>(rank)];
  if (color < 0) return Group{};
  std::vector<std::pair<int32_t, int32_t>> members;  // (key, old rank)
  for (size_t r = 0; r < all.size() / 2; ++r) {
    if (all[2 * r] == color) members.emplace_back(all[2 * r + 1], static_cast<int32_t>(r));
  }
  std::sort(members.begin(), members.end());
  Group g;
  g.size = static_cast<int32_t>(members.size());
  for (int32_t i = 0; i < g.size; ++i) {
    if (members[static_cast<size_t>(i)].second == rank) g.rank = i;
  }
  return g;
}

void check_color(const Comm& c, int32_t color) {
  if (c.aborted.load()) {
    fail(KF_UNAVAILABLE, "kf_comm_split: the communicator was aborted (kf_comm_abort); destroy "
         "it");
  }
  if (color < KF_COMM_NO_COLOR) {
    fail(KF_INVALID_ARGUMENT, "kf_comm_split: color {} is negative; give a color >= 0, or "
         "KF_COMM_NO_COLOR (-1) for a rank that joins no sub-communicator", color);
  }
}

// Engine `e` of the parent makes its part of the sub-communicator (Note [How a communicator
// splits]); `sub` is nullptr on a rank of no group.
void split_engine(const Comm& c, const CommEngine& parent, int32_t color, int32_t key,
                  const Rendezvous& rv, CommEngine* sub) {
  const std::string prefix = next_prefix(parent) + "_split" + std::to_string(color);
  const auto split = parent.slot(KF_COLLECTIVE_SLOT_END(comm_split), parent.plugin->comm_split);
  const auto init = parent.slot(KF_COLLECTIVE_SLOT_END(comm_init), parent.plugin->comm_init);
  if (split == nullptr && sub == nullptr) return;
  void* state = nullptr;
  engine_status(parent, split != nullptr ? "comm_split" : "comm_init",
                [&](char* error, size_t cap) {
    kf_comm_init_t in = engine_init(rv, prefix, c.timeout_ms, c.store.get());
    in.error = error;
    in.error_cap = cap;
    return split != nullptr ? split(parent.state, color, key, &in, &state) : init(&in, &state);
  });
  if (sub != nullptr) sub->state = state;
}

}  // namespace

Comm* split_comm(Comm& parent, int32_t color, int32_t key) {
  check_color(parent, color);
  const Group g = group_of(gather_choices(parent, color, key), parent.rank);
  std::unique_ptr<Comm> sub;
  if (g.rank >= 0) {
    sub = std::make_unique<Comm>();
    sub->rank = g.rank;
    sub->world_size = g.size;
    sub->timeout_ms = parent.timeout_ms;
    sub->rendezvous = parent.rendezvous;
    sub->rendezvous.rank = g.rank;
    sub->rendezvous.world_size = g.size;
    sub->store = parent.store;
  }
  const Rendezvous rv = sub ? sub->rendezvous : parent.rendezvous;
  try {
    for (const CommEngine& e : parent.engines) {
      CommEngine* mine = nullptr;
      if (sub) {
        sub->engines.push_back(e);
        sub->engines.back().state = nullptr;
        mine = &sub->engines.back();
      }
      split_engine(parent, e, color, key, rv, mine);
    }
    // env://: rank 0 serves the store; it stays until every rank is done with it.
    if (parent.store != nullptr) parent.store->barrier(joined_key(), parent.world_size);
  } catch (...) {
    if (sub) destroy_engines(*sub);
    throw;
  }
  return sub ? publish_comm(std::move(sub)) : nullptr;
}

}  // namespace kf
