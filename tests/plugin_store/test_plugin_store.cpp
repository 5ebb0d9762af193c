// The file stores' ordinary work (runtime/loader/plugin_store.hpp): where the folder is, that it
// is made for this user alone, whole files written and read back, the size of a file too large
// for the buffer, names that could leave the folder refused, writers at once never sharing a
// temporary file, the host table's struct_size covering the slots (plugin ABI 1.3).
#include <fcntl.h>

#include <atomic>
#include <cstddef>
#include <fstream>
#include <regex>
#include <thread>

#include "store_util.hpp"

namespace store_test {
namespace {

TEST(Store, TheHostTableHasTheStoreSlots) {
  EXPECT_EQ(host().abi_minor, static_cast<uint32_t>(KF_PLUGIN_ABI_MINOR));
  EXPECT_GE(host().struct_size, offsetof(kf_host_api_t, store_folder) + sizeof(void*));
  EXPECT_NE(host().store_read, nullptr);
  EXPECT_NE(host().store_write, nullptr);
  EXPECT_NE(host().store_folder, nullptr);
}

TEST(Store, MakesEachMissingFolderForThisUserAlone) {
  const fs::path dir = test_folder();
  cache_dir((dir / "a" / "b").string());
  const auto [status, folder] = folder_of("made");
  ASSERT_EQ(status, KF_OK) << folder;
  EXPECT_EQ(folder, (dir / "a" / "b" / "made").string());
  for (const fs::path& p : {dir / "a", dir / "a" / "b", dir / "a" / "b" / "made"}) {
    EXPECT_TRUE(S_ISDIR(mode_of(p))) << p;
    EXPECT_EQ(mode_of(p) & 0777, 0700u) << p;
  }
}

TEST(Store, WritesAndReadsWholeFiles) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  EXPECT_EQ(read("whole", "absent.bin").status, KF_NOT_FOUND);
  const std::string bytes = std::string("binary\0with\0nuls", 16) + std::string(5000, 'x');
  ASSERT_EQ(write("whole", "one.bin", bytes), KF_OK);
  EXPECT_EQ(read("whole", "one.bin").bytes, bytes);
  ASSERT_EQ(write("whole", "one.bin", "shorter"), KF_OK);  // replaced whole
  EXPECT_EQ(read("whole", "one.bin").bytes, "shorter");
  ASSERT_EQ(write("whole", "empty", ""), KF_OK);
  const Read empty = read("whole", "empty");
  EXPECT_EQ(empty.status, KF_OK);
  EXPECT_EQ(empty.bytes, "");
  EXPECT_EQ(mode_of(dir / "whole" / "one.bin") & 0777, 0600u);
  EXPECT_EQ(entries(dir / "whole"), (std::vector<std::string>{"empty", "one.bin"}))
      << "no temporary file is left behind";
}

TEST(Store, AFileLargerThanTheBufferGivesItsSize) {
  cache_dir(test_folder().string());
  ASSERT_EQ(write("sizes", "big", std::string(100, 'b')), KF_OK);
  char buf[10];
  size_t size = 0;
  EXPECT_EQ(host().store_read("sizes", "big", buf, sizeof buf, &size), KF_BUFFER_TOO_SMALL);
  EXPECT_EQ(size, 100u);
  EXPECT_EQ(host().store_read("sizes", "big", nullptr, 0, &size), KF_BUFFER_TOO_SMALL);
  EXPECT_EQ(size, 100u);
}

TEST(Store, RefusesNamesThatCouldLeaveTheFolder) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  for (const char* name : {"", ".", "..", "../x", "a/b", "/etc/passwd", ".hidden", "sp ace",
                           "tab\t", "back\\slash"}) {
    EXPECT_EQ(write("names", name, "x"), KF_INVALID_ARGUMENT) << "'" << name << "'";
    EXPECT_EQ(read("names", name).status, KF_INVALID_ARGUMENT) << "'" << name << "'";
  }
  EXPECT_EQ(write("names", std::string(129, 'n').c_str(), "x"), KF_INVALID_ARGUMENT);
  for (const char* store : {"", "Upper", "../up", "a/b", ".x"}) {
    EXPECT_EQ(write(store, "file", "x"), KF_INVALID_ARGUMENT) << "'" << store << "'";
    EXPECT_EQ(folder_of(store).first, KF_INVALID_ARGUMENT) << "'" << store << "'";
  }
  EXPECT_EQ(write("names", "ok-name_1.2.bin", "x"), KF_OK);
  EXPECT_EQ(entries(dir), (std::vector<std::string>{"names"}));
}

// Every writer makes a temporary file of its own (O_EXCL, a random name): with a name derived
// from the process id, the threads of one process would write into one file at once.
TEST(Store, WritersAtOnceNeverShareATemporaryFile) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(folder_of("racing").first, KF_OK);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 40; ++i) {
        const std::string bytes(1000 + 997 * static_cast<size_t>((t * 40 + i) % 13),
                                static_cast<char>('a' + t));
        if (write("racing", "shared.bin", bytes) != KF_OK) ++failures;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  const Read r = read("racing", "shared.bin");
  ASSERT_EQ(r.status, KF_OK);
  ASSERT_FALSE(r.bytes.empty());
  EXPECT_EQ(r.bytes, std::string(r.bytes.size(), r.bytes[0])) << "one writer's bytes, whole";
  EXPECT_EQ(entries(dir / "racing"), (std::vector<std::string>{"shared.bin"}));
}

// A name planted in advance decides nothing: the file written is a new one, renamed over it.
TEST(Store, ASymlinkAtTheNameIsReplacedNotFollowed) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(folder_of("links").first, KF_OK);
  const fs::path outside = dir / "outside.txt";
  { std::ofstream(outside) << "keep me"; }
  fs::create_symlink(outside, dir / "links" / "entry");
  ASSERT_EQ(write("links", "entry", "new"), KF_OK);
  EXPECT_TRUE(S_ISREG(mode_of(dir / "links" / "entry")));
  std::ifstream in(outside);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "keep me");
}

}  // namespace
}  // namespace store_test
