// One rank of distributed.mpi_split (mpi_tests.cmake): the mpi plugin's comm_split slot, called
// through the collective plugin ABI itself (the C ABI has no kf_comm_split yet). Started by
// `run_ranks.py --mpirun` as `mpi_split_worker <plugin library> -1 <world> mpi:// <timeout_ms>`:
// it opens the plugin, joins mpi://, splits the ranks by parity ordered by descending rank,
// and checks the sub-communicators with all_reduce and all_gather (waited and tested); then a
// rank giving a negative color takes no part. Prints what failed and exits 1, or exits 0.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernforge/collective.h"

namespace {

int g_failures = 0;
char g_error[1024];

void expect(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "FAILED: %s (%s)\n", what.c_str(), g_error);
}

kf_comm_init_t init_of(int rank, int world, int64_t timeout_ms) {
  kf_comm_init_t in{};
  in.struct_size = sizeof in;
  in.rendezvous = "mpi://";
  in.prefix = "kf_split_test";
  in.rank = rank;
  in.world_size = world;
  in.timeout_ms = timeout_ms;
  in.error = g_error;
  in.error_cap = sizeof g_error;
  return in;
}

kf_tensor_view_t view_of(std::vector<float>& v) {
  kf_tensor_view_t t{};
  t.data = v.data();
  t.dtype = KF_FLOAT32;
  t.ndim = 1;
  t.device = kf_device_cpu();
  t.numel = static_cast<int64_t>(v.size());
  return t;
}

// Runs a slot and ends its work, by tests and then a wait.
kf_status_t run(const kf_collective_plugin_t& p, kf_collective_fn fn, kf_collective_call_t& call) {
  call.error = g_error;
  call.error_cap = sizeof g_error;
  void* work = nullptr;
  kf_status_t s = fn(&call, &work);
  if (s != KF_OK || work == nullptr) return s;
  int32_t done = 0;
  for (int i = 0; i < 3 && s == KF_OK && done == 0; ++i) s = p.work_test(work, &done, g_error, sizeof g_error);
  if (s == KF_OK) s = p.work_wait(work, call.timeout_ms, g_error, sizeof g_error);
  p.work_release(work);
  return s;
}

// In the sub-communicator of the ranks of `rank`'s parity, ordered by descending rank.
void check_parity(const kf_collective_plugin_t& p, void* sub, int rank, int world) {
  std::vector<int> members;
  for (int r = world - 1; r >= 0; --r) if (r % 2 == rank % 2) members.push_back(r);
  std::vector<float> sum = {static_cast<float>(rank)};
  kf_collective_call_t call{};
  call.struct_size = sizeof call;
  call.comm = sub;
  call.input = call.output = view_of(sum);
  call.reduce_op = KF_REDUCE_SUM;
  call.timeout_ms = 10000;
  expect(run(p, p.all_reduce, call) == KF_OK, "all_reduce on the part");
  float want = 0;
  for (int r : members) want += static_cast<float>(r);
  expect(sum[0] == want, "the part's sum: got " + std::to_string(sum[0]) + ", want " + std::to_string(want));
  std::vector<float> mine = {static_cast<float>(rank)};
  std::vector<float> all(members.size(), -1.0f);
  call.input = view_of(mine);
  call.output = view_of(all);
  expect(run(p, p.all_gather, call) == KF_OK, "all_gather on the part");
  for (size_t i = 0; i < members.size(); ++i) {
    expect(all[i] == static_cast<float>(members[i]), "the part's order by key at " + std::to_string(i));
  }
}

int run_split(const char* library, int world, int64_t timeout_ms) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return std::fprintf(stderr, "dlopen %s: %s\n", library, dlerror()), 1;
  auto get = reinterpret_cast<kf_collective_get_fn>(dlsym(handle, KF_COLLECTIVE_ENTRY_SYMBOL));
  const kf_collective_plugin_t* p = get(KF_COLLECTIVE_ABI_MAJOR, KF_COLLECTIVE_ABI_MINOR);
  const int rank = std::atoi(std::getenv("OMPI_COMM_WORLD_RANK"));
  kf_comm_init_t in = init_of(rank, world, timeout_ms);
  void* comm = nullptr;
  expect(p->comm_init(&in, &comm) == KF_OK, "comm_init");
  void* sub = nullptr;
  expect(p->comm_split(comm, rank % 2, world - rank, &in, &sub) == KF_OK && sub != nullptr, "comm_split");
  if (sub != nullptr) check_parity(*p, sub, rank, world);
  void* rest = nullptr;
  expect(p->comm_split(comm, rank == 0 ? -1 : 0, rank, &in, &rest) == KF_OK, "comm_split, one rank out");
  expect((rest == nullptr) == (rank == 0), "a negative color takes no part");
  p->comm_destroy(rest);
  p->comm_destroy(sub);
  p->comm_destroy(comm);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 || std::getenv("OMPI_COMM_WORLD_RANK") == nullptr) {
    std::fprintf(stderr, "usage (under mpirun): %s <libkernforge_mpi.so> -1 <world> mpi:// "
                 "<timeout_ms>\n", argv[0]);
    return 2;
  }
  const int rc = run_split(argv[1], std::atoi(argv[3]), std::atoll(argv[5]));
  std::printf("mpi_split: %d failed\n", g_failures);
  return g_failures == 0 && rc == 0 ? 0 : 1;
}
