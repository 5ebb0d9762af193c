// Files the program cache reads (Note [Program cache]; issue 29): another user's binary is never
// run. A well-formed entry and binary planted in a cache folder others may write, or in one of
// another user, turn the cache off with one warning and the ops stay right; planted files of
// another user in our own folder are ignored and replaced; a FIFO in the place of a file blocks
// nothing; a relative KERNFORGE_CACHE_DIR is refused. The planted binary is the float16
// program's, entered as the float32 one: run, 3 * [1, 2, 3] would not give [3, 6, 9]. Each case
// in child processes of this binary (CacheChild.RunsOps, test_program_cache.cpp).
#include <sys/stat.h>
#include <unistd.h>

#include "cache_util.hpp"

namespace opencl_test {
namespace {

constexpr uid_t kNobody = 65534;

/// Plants, in `root`/opencl, the float16 binary as the float32 entry's (from the trusted run
/// `p`): files of another user (nobody, with root's power; else files anyone may write).
std::array<fs::path, 2> plant_attack(const Populated& p, const fs::path& root) {
  fs::create_directories(root / "opencl");
  const auto files = plant(root / "opencl", *p.f32, read_bytes(p.f16->binary_file()));
  if (geteuid() == 0) {
    for (const fs::path& f : files) EXPECT_EQ(chown(f.c_str(), kNobody, kNobody), 0) << f;
  } else {
    for (const fs::path& f : files) EXPECT_EQ(chmod(f.c_str(), 0666), 0) << f;
  }
  return files;
}

#define POPULATE_OR_SKIP(p, root)                               \
  const Populated p = populate(root);                           \
  SKIP_WITHOUT_OPENCL(p.run);                                   \
  ASSERT_TRUE(p.run.ops_right()) << p.run.output;               \
  ASSERT_TRUE(p.f32 && p.f16) << "no binary.cl entries: " << p.run.output

TEST(CacheTrust, APlantedBinaryInAWorldWritableFolderIsNotRun) {
  const fs::path dir = fresh_folder();
  POPULATE_OR_SKIP(p, dir / "good");
  const auto planted = plant_attack(p, dir / "open");
  ASSERT_EQ(chmod((dir / "open" / "opencl").c_str(), 0777), 0);  // no sticky bit
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", (dir / "open").string()}});
  EXPECT_TRUE(run.ops_right()) << "the planted binary was run: " << run.output;
  EXPECT_EQ(run.count("the 'opencl' cache is off for this process"), 1u) << run.output;
  EXPECT_EQ(run.count((dir / "open" / "opencl").string() + " is world-writable"), 1u)
      << run.output;
  EXPECT_EQ(run.count("KERNFORGE_CACHE_DIR to a folder only this user can write"), 1u);
  size_t files = 0;
  for (const auto& f : fs::directory_iterator(dir / "open" / "opencl")) files += !f.is_directory();
  EXPECT_EQ(files, planted.size()) << "the cache wrote into a folder it may not trust";
}

TEST(CacheTrust, ACacheFolderOfAnotherUserIsNotUsed) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a folder to nobody (uid 65534)";
  const fs::path dir = fresh_folder();
  POPULATE_OR_SKIP(p, dir / "good");
  plant_attack(p, dir / "theirs");
  ASSERT_EQ(chown((dir / "theirs" / "opencl").c_str(), kNobody, kNobody), 0);
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", (dir / "theirs").string()}});
  EXPECT_TRUE(run.ops_right()) << "the planted binary was run: " << run.output;
  EXPECT_EQ(run.count("the 'opencl' cache is off for this process"), 1u) << run.output;
  EXPECT_EQ(run.count((dir / "theirs" / "opencl").string() + " is owned by user 65534"), 1u)
      << run.output;
}

TEST(CacheTrust, PlantedFilesOfAnotherUserInOurFolderAreIgnoredAndReplaced) {
  const fs::path dir = fresh_folder();
  POPULATE_OR_SKIP(p, dir / "good");
  fs::create_directories(dir / "mine" / "opencl");
  ASSERT_EQ(chmod((dir / "mine" / "opencl").c_str(), 0700), 0);
  const auto planted = plant_attack(p, dir / "mine");
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", (dir / "mine").string()}});
  EXPECT_TRUE(run.ops_right()) << "the planted binary was run: " << run.output;
  EXPECT_EQ(run.count("cache file " + planted[0].string() + " is not trusted"), 1u)
      << run.output;
  EXPECT_EQ(run.count("it is ignored, made again and replaced"), 1u) << run.output;
  struct stat st {};
  ASSERT_EQ(lstat(planted[0].c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, geteuid()) << "the planted entry was not replaced";
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::optional<Entry> replaced = entry_for(dir / "mine" / "opencl", "binary", 0);
  ASSERT_TRUE(replaced);
  EXPECT_TRUE(replaced->binary_matches());
  EXPECT_NE(replaced->binary_file(), planted[1]);
}

TEST(CacheTrust, AFifoInThePlaceOfACacheFileBlocksNothing) {
  const fs::path dir = fresh_folder();
  POPULATE_OR_SKIP(p, dir);
  const fs::path entry = p.f32->file, binary = p.f16->binary_file();
  for (const fs::path& f : {entry, binary}) {
    fs::remove(f);
    ASSERT_EQ(mkfifo(f.c_str(), 0600), 0) << f;
  }
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", dir.string()}}, 120);
  EXPECT_FALSE(run.timed_out) << "a FIFO in the cache blocked the process";
  EXPECT_TRUE(run.ops_right()) << run.output;
  for (const fs::path& f : {entry, binary}) {
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(f))) << f << " was not replaced";
  }
}

TEST(CacheTrust, ARelativeCacheFolderIsRefused) {
  const fs::path dir = fresh_folder();
  fs::create_directories(dir / "cwd");
  const ChildRun run = run_child({{"KERNFORGE_CACHE_DIR", "relative/cache"},
                                  {"KF_TEST_CHILD_CWD", (dir / "cwd").string()}});
  SKIP_WITHOUT_OPENCL(run);
  EXPECT_TRUE(run.ops_right()) << run.output;
  EXPECT_EQ(run.count("KERNFORGE_CACHE_DIR='relative/cache' is not an absolute path"), 1u)
      << run.output;
  EXPECT_TRUE(fs::is_empty(dir / "cwd")) << "a cache was made in the current directory";
}

}  // namespace
}  // namespace opencl_test
