// The collectives of the C ABI (2.7, 2.8) with bad input, in one process and without an engine's
// peers: every refusal is an exact status and a message naming the problem, never a crash.
// The calls themselves, across real processes, are tests/distributed's.
#include <cstdlib>
#include <string>

#include "abi_util.hpp"

namespace kfabi {
namespace {

constexpr auto IA = KF_INVALID_ARGUMENT;

kf_comm_options_t options(const char* engine, const char* rendezvous) {
  kf_comm_options_t o{};
  o.struct_size = sizeof o;
  o.engine = engine;
  o.rendezvous = rendezvous;
  o.rank = 0;
  o.world_size = 1;
  o.timeout_ms = 1000;
  return o;
}

kf_status_t create(const kf_comm_options_t& o) {
  kf_comm_t c = nullptr;
  const kf_status_t s = kf_comm_create(&o, &c);
  if (s == KF_OK) kf_comm_destroy(c);
  return s;
}

TEST(AbiCollectives, NullArgumentsAreRefused) {
  kf_comm_t c = nullptr;
  kf_comm_options_t o = options("cpu:gloo", "file:///tmp");
  EXPECT_TRUE(fails_with(kf_comm_create(nullptr, &c), IA, {{"options"}, {}}));
  EXPECT_TRUE(fails_with(kf_comm_create(&o, nullptr), IA, {{"out"}, {}}));
  o.struct_size = 8;
  EXPECT_TRUE(fails_with(kf_comm_create(&o, &c), IA, {{"struct_size"}, {}}));
  o = options(nullptr, "file:///tmp");
  EXPECT_TRUE(fails_with(kf_comm_create(&o, &c), IA, {{"engine"}, {}}));
  EXPECT_EQ(kf_comm_destroy(nullptr), KF_OK);
  EXPECT_EQ(kf_work_release(nullptr), KF_OK);
  EXPECT_TRUE(fails_with(kf_all_reduce(nullptr, nullptr, KF_REDUCE_SUM, nullptr), IA,
                         {{"kf_all_reduce"}, {}}));
  EXPECT_TRUE(fails_with(kf_barrier(nullptr, nullptr), IA, {{"kf_barrier", "communicator"}, {}}));
  EXPECT_TRUE(fails_with(kf_work_wait(nullptr), IA, {{"kf_work_wait", "work"}, {}}));
  int32_t rank = 0;
  EXPECT_TRUE(fails_with(kf_comm_rank(nullptr, &rank), IA, {{"kf_comm_rank"}, {}}));
}

TEST(AbiCollectives, BadRendezvousAndRanksAreNamed) {
  EXPECT_TRUE(fails_with(create(options("cpu:gloo", "tcp://x:1")), IA, {{"tcp://x:1"}, {}}));
  EXPECT_TRUE(fails_with(create(options("cpu:gloo", "file://relative")), IA,
                         {{"absolute folder"}, {}}));
  EXPECT_TRUE(fails_with(create(options("cpu:gloo", "file:///no/such/kf/folder")),
                         KF_NOT_FOUND, {{"/no/such/kf/folder", "does not exist"}, {}}));
#if defined(_WIN32)
  EXPECT_TRUE(fails_with(create(options("cpu:gloo", "env://")), KF_UNIMPLEMENTED,
                         {{"env://", "Windows", "file://"}, {}}));
#else
  if (std::getenv("MASTER_ADDR") == nullptr) {  // env:// names the variable it lacks
    EXPECT_TRUE(fails_with(create(options("cpu:gloo", "env://")), IA,
                           {{"env://", "MASTER_ADDR"}, {}}));
  }
#endif
  kf_comm_options_t o = options("cpu:gloo", "file:///tmp");
  o.rank = 1;
  EXPECT_TRUE(fails_with(create(o), IA, {{"rank 1", "world_size 1"}, {}}));
  o.world_size = 0;
  EXPECT_TRUE(fails_with(create(o), IA, {{"world_size is 0"}, {}}));
}

// mpi:// takes the ranks from mpirun's environment; these tests are not started by mpirun.
TEST(AbiCollectives, MpiRendezvousOutsideMpirunIsNamed) {
  if (std::getenv("OMPI_COMM_WORLD_RANK") != nullptr || std::getenv("PMI_RANK") != nullptr) {
    GTEST_SKIP() << "started by an MPI launcher";
  }
  EXPECT_TRUE(fails_with(create(options("cpu:mpi", "mpi://")), IA,
                         {{"mpi://", "not started by an MPI launcher", "mpirun"}, {}}));
  EXPECT_TRUE(fails_with(create(options("cpu:mpi", "mpi://host:1")), IA,
                         {{"mpi://host:1", "nothing after it"}, {}}));
}

TEST(AbiCollectives, BadEngineChoicesAreNamed) {
  EXPECT_TRUE(fails_with(create(options("cpu:", "file:///tmp")), IA, {{"'cpu:'"}, {}}));
  EXPECT_TRUE(fails_with(create(options("cpu:gloo,,", "file:///tmp")), IA, {{"engine"}, {}}));
  EXPECT_TRUE(fails_with(create(options("cpu:gloo,cpu:mpi", "file:///tmp")), IA,
                         {{"cpu", "twice"}, {}}));
  EXPECT_TRUE(fails_with(create(options("cpu:nosuchengine", "file:///tmp")), KF_NOT_FOUND,
                         {{"nosuchengine", "loaded"}, {}}));
}

TEST(AbiCollectives, SplitAndAbortRefuseBadHandles) {
  kf_comm_t out = nullptr;
  EXPECT_TRUE(fails_with(kf_comm_split(nullptr, 0, 0, &out), IA, {{"kf_comm_split"}, {}}));
  EXPECT_EQ(out, nullptr);
  EXPECT_TRUE(fails_with(kf_comm_abort(nullptr), IA, {{"kf_comm_abort", "communicator"}, {}}));
}

TEST(AbiCollectives, ReduceOpNamesAndTheTimeoutStatus) {
  EXPECT_STREQ(kf_reduce_op_name(KF_REDUCE_SUM), "sum");
  EXPECT_STREQ(kf_reduce_op_name(KF_REDUCE_AVG), "avg");
  EXPECT_STREQ(kf_reduce_op_name(42), "unknown");
  EXPECT_STREQ(kf_status_name(KF_TIMEOUT), "KF_TIMEOUT");
}

}  // namespace
}  // namespace kfabi
