// What another user could do to a file store (Note [The plugins' file stores]): a folder
// others may write, a folder or a link of another user, a relative KERNFORGE_CACHE_DIR turn the
// store off with one warning naming the folder and the reason; a file another user could have
// written, or one that is not a regular file (a FIFO: never opened, so nothing blocks), is not
// read, and writing the name again replaces it.
#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <future>

#include "store_util.hpp"

namespace store_test {
namespace {

/// The store `name` is off: every call says so and nothing is made in `folder`.
void expect_off(const char* name, const fs::path& folder, const std::string& reason) {
  const auto [status, why] = folder_of(name);
  EXPECT_EQ(status, KF_UNAVAILABLE) << why;
  EXPECT_HAS(why, reason);
  EXPECT_EQ(write(name, "file", "x"), KF_UNAVAILABLE);
  EXPECT_EQ(read(name, "file").status, KF_UNAVAILABLE);
  EXPECT_FALSE(fs::exists(folder / "file")) << "written into a folder the store may not trust";
}

TEST(StoreTrust, AWorldWritableFolderTurnsTheStoreOffWithOneWarning) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  fs::create_directories(dir / "open");
  ASSERT_EQ(::chmod((dir / "open").c_str(), 0777), 0);  // no sticky bit
  LogCapture log;
  expect_off("open", dir / "open", (dir / "open").string() + " is world-writable");
  expect_off("open", dir / "open", "world-writable");
  EXPECT_EQ(log.count("the 'open' cache is off for this process"), 1u) << log.text();
  EXPECT_HAS(log.text(), (dir / "open").string());
  EXPECT_HAS(log.text(), "KERNFORGE_CACHE_DIR");
  EXPECT_HAS(log.text(), "chmod");
}

TEST(StoreTrust, AFolderAboveItThatOthersMayWriteTurnsTheStoreOff) {
  const fs::path dir = test_folder();
  fs::create_directories(dir / "shared");
  ASSERT_EQ(::chmod((dir / "shared").c_str(), 0777), 0);
  cache_dir((dir / "shared" / "cache").string());  // made by the store, 0700, but inside it
  expect_off("above", dir / "shared" / "cache" / "above",
             (dir / "shared").string() + " is world-writable");
}

TEST(StoreTrust, AStickyWorldWritableFolderAboveItIsFine) {
  const fs::path dir = test_folder();
  fs::create_directories(dir / "tmp");
  ASSERT_EQ(::chmod((dir / "tmp").c_str(), 01777), 0);  // as /tmp
  cache_dir((dir / "tmp" / "mine").string());
  EXPECT_EQ(folder_of("sticky").first, KF_OK) << folder_of("sticky").second;
  EXPECT_EQ(write("sticky", "file", "x"), KF_OK);
}

TEST(StoreTrust, AFolderOfAnotherUserTurnsTheStoreOff) {
  if (!can_chown()) GTEST_SKIP() << "needs root to give a folder to nobody (uid 65534)";
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  fs::create_directories(dir / "theirs");
  ASSERT_EQ(::chown((dir / "theirs").c_str(), kNobody, kNobody), 0);
  expect_off("theirs", dir / "theirs", (dir / "theirs").string() + " is owned by user 65534");
}

TEST(StoreTrust, ASymlinkThroughAFolderOthersMayWriteTurnsTheStoreOff) {
  const fs::path dir = test_folder();
  fs::create_directories(dir / "open" / "real");
  ASSERT_EQ(::chmod((dir / "open").c_str(), 0777), 0);
  fs::create_symlink(dir / "open" / "real", dir / "link");
  cache_dir((dir / "link").string());
  expect_off("linked", dir / "open" / "real" / "linked",
             (dir / "open").string() + " is world-writable");
}

TEST(StoreTrust, ARelativeCacheDirTurnsTheStoreOff) {
  const fs::path dir = test_folder();
  const fs::path before = fs::current_path();
  fs::current_path(dir);
  cache_dir("relative/cache");
  LogCapture log;
  const auto [status, why] = folder_of("relative");
  fs::current_path(before);
  EXPECT_EQ(status, KF_UNAVAILABLE);
  EXPECT_HAS(why, "KERNFORGE_CACHE_DIR='relative/cache' is not an absolute path");
  EXPECT_TRUE(entries(dir).empty()) << "a folder was made in the current directory";
  EXPECT_EQ(log.count("the 'relative' cache is off"), 1u) << log.text();
}

TEST(StoreTrust, AFileOfAnotherUserIsNotReadAndIsReplaced) {
  if (!can_chown()) GTEST_SKIP() << "needs root to give a file to nobody (uid 65534)";
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(write("planted", "entry", "ours"), KF_OK);
  ASSERT_EQ(::chown((dir / "planted" / "entry").c_str(), kNobody, kNobody), 0);
  LogCapture log;
  EXPECT_EQ(read("planted", "entry").status, KF_PERMISSION_DENIED);
  EXPECT_HAS(log.text(), "is owned by user 65534");
  ASSERT_EQ(write("planted", "entry", "rebuilt"), KF_OK);
  EXPECT_EQ(owner_of(dir / "planted" / "entry"), ::geteuid());
  EXPECT_EQ(read("planted", "entry").bytes, "rebuilt");
}

TEST(StoreTrust, AFileOthersMayWriteIsNotRead) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(write("writable", "entry", "ours"), KF_OK);
  ASSERT_EQ(::chmod((dir / "writable" / "entry").c_str(), 0666), 0);
  EXPECT_EQ(read("writable", "entry").status, KF_PERMISSION_DENIED);
  ASSERT_EQ(write("writable", "entry", "again"), KF_OK);
  EXPECT_EQ(mode_of(dir / "writable" / "entry") & 0777, 0600u);
  EXPECT_EQ(read("writable", "entry").bytes, "again");
}

TEST(StoreTrust, AFifoIsNeverOpenedAndIsReplaced) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(folder_of("fifo").first, KF_OK);
  const fs::path fifo = dir / "fifo" / "entry";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reading = std::async(std::launch::async, [] { return read("fifo", "entry").status; });
  if (reading.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    ADD_FAILURE() << "reading a FIFO blocked";
    ::close(::open(fifo.c_str(), O_WRONLY | O_NONBLOCK));  // lets the blocked open return
  }
  EXPECT_EQ(reading.get(), KF_INVALID_ARGUMENT);
  ASSERT_EQ(write("fifo", "entry", "a file"), KF_OK);
  EXPECT_TRUE(S_ISREG(mode_of(fifo)));
  EXPECT_EQ(read("fifo", "entry").bytes, "a file");
}

TEST(StoreTrust, AFolderAtTheNameIsNeitherReadNorFollowed) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(folder_of("dirs").first, KF_OK);
  fs::create_directories(dir / "dirs" / "entry");
  EXPECT_EQ(read("dirs", "entry").status, KF_INVALID_ARGUMENT);
  EXPECT_NE(write("dirs", "entry", "x"), KF_OK);
  EXPECT_TRUE(fs::is_empty(dir / "dirs" / "entry"));
}

// The folder checked at the first use is checked again before every write.
TEST(StoreTrust, AFolderOpenedLaterToOthersTurnsTheStoreOff) {
  const fs::path dir = test_folder();
  cache_dir(dir.string());
  ASSERT_EQ(write("later", "one", "x"), KF_OK);
  ASSERT_EQ(::chmod((dir / "later").c_str(), 0777), 0);
  LogCapture log;
  EXPECT_EQ(read("later", "one").status, KF_PERMISSION_DENIED);
  EXPECT_EQ(write("later", "two", "x"), KF_UNAVAILABLE);
  EXPECT_EQ(write("later", "three", "x"), KF_UNAVAILABLE);
  EXPECT_FALSE(fs::exists(dir / "later" / "two"));
  EXPECT_EQ(log.count("the 'later' cache is off for this process"), 1u) << log.text();
}

}  // namespace
}  // namespace store_test
