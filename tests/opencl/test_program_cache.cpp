// The opencl backend's program cache at work (backends/opencl/program_cache.hpp), each case in
// child processes of this binary with a cache folder of its own: a second process loads what
// the first built; a binary whose file no longer matches its entry's digest (tampered: another
// program's binary put in its place) is rebuilt, not run; a binary the driver refuses is
// rebuilt and replaced; two processes building at once leave a valid cache and no temporary
// file. CacheChild.RunsOps is the child (it skips unless run as one).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "cache_util.hpp"
#include "opencl_util.hpp"

namespace opencl_test {
namespace {

/// a * b on the device in `dtype` (a = [1, 2, 3], b = [3, 3, 3]); the values as floats.
std::vector<float> mul_on(kf_device_t dev, kf_dtype_t dtype) {
  T a, b, a_t, b_t, c, c32;
  const int64_t shape[1] = {3};
  const float x[3] = {1, 2, 3}, y[3] = {3, 3, 3};
  if (kf_tensor_from_data(x, shape, 1, KF_FLOAT32, dev, a.out()) != KF_OK ||
      kf_tensor_from_data(y, shape, 1, KF_FLOAT32, dev, b.out()) != KF_OK ||
      kf_to_dtype(a, dtype, a_t.out()) != KF_OK || kf_to_dtype(b, dtype, b_t.out()) != KF_OK ||
      kf_mul(a_t, b_t, c.out()) != KF_OK || kf_to_dtype(c, KF_FLOAT32, c32.out()) != KF_OK) {
    ADD_FAILURE() << last_error();
    return {};
  }
  return host(c32);
}

// The child: 3 * [1, 2, 3] in float32 and float16 on opencl (kernels/binary.cl for each).
TEST(CacheChild, RunsOps) {
  if (std::getenv("KF_TEST_CACHE_CHILD") == nullptr) GTEST_SKIP() << "run by the cache tests";
  if (const char* cwd = std::getenv("KF_TEST_CHILD_CWD")) {
    ASSERT_EQ(chdir(cwd), 0) << cwd;
  }
  const std::string why = why_not_loaded("opencl");
  if (!why.empty()) {
    kf_device_t none{};
    const kf_status_t parsed = kf_device_parse("opencl:0", &none);
    std::printf("kf-child: unavailable: %s\nkf-child: parse: %d %s\n", why.c_str(),
                static_cast<int>(parsed), last_error().c_str());
    return;
  }
  kf_device_t dev{};
  ASSERT_EQ(kf_device_parse("opencl:0", &dev), KF_OK) << last_error();
  const std::vector<float> f32 = mul_on(dev, KF_FLOAT32), f16 = mul_on(dev, KF_FLOAT16);
  EXPECT_EQ(f32, (std::vector<float>{3, 6, 9})) << "float32";
  EXPECT_EQ(f16, (std::vector<float>{3, 6, 9})) << "float16";
  if (!HasFailure()) std::printf("kf-child: ops right\n");
  std::fflush(stdout);
}

TEST(ProgramCache, ASecondProcessLoadsWhatTheFirstBuilt) {
  const fs::path dir = fresh_folder();
  const std::map<std::string, std::string> env{{"KERNFORGE_CACHE_DIR", dir.string()},
                                               {"KERNFORGE_LOG_LEVEL", "debug"}};
  const ChildRun first = run_child(env);
  SKIP_WITHOUT_OPENCL(first);
  ASSERT_TRUE(first.ops_right()) << first.output;
  EXPECT_GE(first.count("program cache: built from source, kept as"), 3u) << first.output;
  EXPECT_EQ(first.count("program cache: loaded"), 0u) << first.output;
  const std::vector<Entry> entries = entries_of(dir / "opencl");
  EXPECT_GE(entries.size(), 3u);
  for (const Entry& e : entries) EXPECT_TRUE(e.binary_matches()) << e.file;
  const ChildRun second = run_child(env);
  ASSERT_TRUE(second.ops_right()) << second.output;
  EXPECT_EQ(second.count("program cache: built from source"), 0u) << second.output;
  EXPECT_EQ(second.count("program cache: loaded"), first.count("kept as")) << second.output;
}

// The attack of issue 29 with a binary file of our own: the float16 program's binary in the
// place of the float32 one. Its digest is not the entry's, so it never reaches the driver
// (run, it would compute on float32 data as halves: [0, 2.125, 0]).
TEST(ProgramCache, ABinaryThatDoesNotMatchItsDigestIsRebuilt) {
  const fs::path dir = fresh_folder();
  const Populated p = populate(dir);
  SKIP_WITHOUT_OPENCL(p.run);
  ASSERT_TRUE(p.run.ops_right()) << p.run.output;
  ASSERT_TRUE(p.f32 && p.f16) << p.run.output;
  write_bytes(p.f32->binary_file(), read_bytes(p.f16->binary_file()));
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", dir.string()}});
  EXPECT_TRUE(run.ops_right()) << run.output;
  EXPECT_EQ(run.count("does not match the digest of its entry"), 1u) << run.output;
  const std::optional<Entry> repaired = entry_for(dir / "opencl", "binary", 0);
  ASSERT_TRUE(repaired);
  EXPECT_TRUE(repaired->binary_matches()) << "the cache is valid again";
}

// A binary that matches its digest but that the driver cannot load: rebuilt and replaced. It is
// shorter than PoCL's header, which PoCL 3.1 reads before it checks the length.
TEST(ProgramCache, ABinaryTheDriverRefusesIsRebuiltAndReplaced) {
  const fs::path dir = fresh_folder();
  const Populated p = populate(dir);
  SKIP_WITHOUT_OPENCL(p.run);
  ASSERT_TRUE(p.f32) << p.run.output;
  const auto files = plant(dir / "opencl", *p.f32, "not a program binary");
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", dir.string()},
                                  {"KERNFORGE_LOG_LEVEL", "info"}});
  EXPECT_TRUE(run.ops_right()) << run.output;
  EXPECT_EQ(run.count("the driver refused the binary"), 1u) << run.output;
  const std::optional<Entry> replaced = entry_for(dir / "opencl", "binary", 0);
  ASSERT_TRUE(replaced);
  EXPECT_NE(replaced->binary_file(), files[1]) << "the entry still names the refused binary";
  EXPECT_TRUE(replaced->binary_matches());
}

// Every writer has its own temporary file (O_EXCL, an unpredictable name) and a binary file
// never changes content, so whichever entry is written last names a binary that is there.
TEST(ProgramCache, TwoProcessesBuildingAtOnceLeaveAValidCache) {
  const fs::path dir = fresh_folder();
  const auto runs = run_two_children({{"KERNFORGE_CACHE_DIR", dir.string()}});
  SKIP_WITHOUT_OPENCL(runs[0]);
  EXPECT_TRUE(runs[0].ops_right()) << runs[0].output;
  EXPECT_TRUE(runs[1].ops_right()) << runs[1].output;
  const std::vector<Entry> entries = entries_of(dir / "opencl");
  EXPECT_GE(entries.size(), 3u);
  for (const Entry& e : entries) EXPECT_TRUE(e.binary_matches()) << e.file;
  for (const auto& f : fs::directory_iterator(dir / "opencl")) {
    EXPECT_NE(f.path().filename().string()[0], '.') << "temporary file left: " << f.path();
    EXPECT_TRUE(f.path().extension() == ".entry" || f.path().extension() == ".bin") << f.path();
  }
  const ChildRun third = run_child({{"KERNFORGE_CACHE_DIR", dir.string()},
                                    {"KERNFORGE_LOG_LEVEL", "debug"}});
  EXPECT_TRUE(third.ops_right()) << third.output;
  EXPECT_EQ(third.count("program cache: built from source"), 0u) << third.output;
}

}  // namespace
}  // namespace opencl_test
