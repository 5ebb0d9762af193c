// The loader's operating-system layer (runtime/loader/include/loader/os.hpp) on the system it was built
// for: os_posix.cpp on Linux, os_windows.cpp on Windows (under wine in CI). Every function of
// os.hpp is called here directly, so neither implementation goes untested: paths, variables,
// the system's own library search, libraries already loaded, and a library whose dependency is
// missing until the loader makes it findable (AddDllDirectory on Windows, a global preload on
// POSIX).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#if !defined(_WIN32)
#include <sys/stat.h>
#include <unistd.h>
#endif

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif

#include "core/environment.hpp"
#include "loader/ld_so_cache.hpp"
#include "loader/os.hpp"
#include "unit_util.hpp"

namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

/// A build-tree path from CMake as this system spells it (on Windows under wine, "/tmp/x" is
/// "Z:\tmp\x"): canonical, UTF-8.
std::string native(const char* build_path) {
  const auto s = fs::canonical(fs::path(build_path)).u8string();
  return std::string(s.begin(), s.end());
}

std::string file_name(const std::string& path) {
  const auto s = fs::u8path(path).filename().u8string();
  return std::string(s.begin(), s.end());
}

/// Sets (value != nullptr) or removes a variable of this process; value is UTF-8.
void set_variable(const char* name, const char* value) {
#if defined(_WIN32)
  const auto wide = [](const char* utf8) {
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, utf8, -1, w.data(), n);
    w.resize(static_cast<size_t>(n > 0 ? n - 1 : 0));
    return w;
  };
  const std::wstring wname = wide(name);
  if (value == nullptr) {
    SetEnvironmentVariableW(wname.c_str(), nullptr);
  } else {
    const std::wstring wvalue = wide(value);
    SetEnvironmentVariableW(wname.c_str(), wvalue.c_str());
  }
#else
  if (value == nullptr) {
    unsetenv(name);
  } else {
    setenv(name, value, 1);
  }
#endif
}

#if defined(_WIN32)
constexpr const char* kSystemLibrary = "kernel32.dll";
constexpr const char* kSystemSymbol = "GetProcAddress";
#else
constexpr const char* kSystemLibrary = "libc.so.6";
constexpr const char* kSystemSymbol = "malloc";
#endif

TEST(Os, PathListSeparator) {
#if defined(_WIN32)
  EXPECT_EQ(kf::os::path_list_separator(), ';');
#else
  EXPECT_EQ(kf::os::path_list_separator(), ':');
#endif
}

TEST(Os, IsAbsolute) {
  EXPECT_FALSE(kf::os::is_absolute(""));
  EXPECT_FALSE(kf::os::is_absolute("plugins"));
  EXPECT_FALSE(kf::os::is_absolute("./plugins"));
  EXPECT_FALSE(kf::os::is_absolute("../plugins"));
#if defined(_WIN32)
  for (const char* p : {"C:\\kf\\plugins", "c:/kf/plugins", "Z:\\", "\\\\server\\share\\kf",
                        "//server/share/kf", "\\\\?\\C:\\kf"}) {
    EXPECT_TRUE(kf::os::is_absolute(p)) << p;
  }
  // Relative to the current drive or to that drive's current folder: not absolute.
  for (const char* p : {"\\kf\\plugins", "/kf/plugins", "C:kf", "C:", "1:\\kf"}) {
    EXPECT_FALSE(kf::os::is_absolute(p)) << p;
  }
#else
  EXPECT_TRUE(kf::os::is_absolute("/opt/kf/plugins"));
  EXPECT_TRUE(kf::os::is_absolute("/"));
  EXPECT_FALSE(kf::os::is_absolute("C:\\kf\\plugins"));
#endif
}

TEST(Os, EnvironmentVariables) {
  const char* name = "KF_UNIT_OS_VARIABLE";
  const char* value = "caf\xc3\xa9 \xe2\x82\xac /x;y";  // "café € /x;y" in UTF-8
  set_variable(name, value);
  ASSERT_TRUE(kf::env::read(name).has_value());
  EXPECT_EQ(*kf::env::read(name), value);
  set_variable(name, "");
  ASSERT_TRUE(kf::env::read(name).has_value()) << "a variable set to '' is set";
  EXPECT_EQ(*kf::env::read(name), "");
  set_variable(name, nullptr);
  EXPECT_FALSE(kf::env::read(name).has_value());
  const std::string longer(5000, 'x');  // longer than any first buffer
  set_variable(name, longer.c_str());
  EXPECT_EQ(kf::env::read(name).value_or(""), longer);
  set_variable(name, nullptr);
}

TEST(Os, RealPath) {
  const std::string dir = kfunit::make_temp_dir("kf_unit_os_");
  ASSERT_FALSE(dir.empty());
  const std::string file = dir + "/a.json";
  std::ofstream(file) << "{}";
  const std::string real = kf::os::real_path(file);
  EXPECT_TRUE(kf::os::is_absolute(real)) << real;
  EXPECT_EQ(file_name(real), "a.json");
  EXPECT_TRUE(fs::exists(fs::u8path(real)));
  EXPECT_EQ(kf::os::real_path(real), real) << "a real path is its own real path";
  // The same file through another spelling of its folder resolves to the same path.
#if !defined(_WIN32)
  // POSIX resolves ".." after following sub/, so the path does not exist without it; Windows
  // removes "sub/.." from the text first.
  EXPECT_EQ(kf::os::real_path(dir + "/./sub/../a.json"), "")
      << "sub/ does not exist, so neither does the path through it";
#endif
  fs::create_directory(fs::u8path(dir + "/sub"));
  EXPECT_EQ(kf::os::real_path(dir + "/./sub/../a.json"), real);
#if defined(_WIN32)
  // Windows names are case-insensitive: another case and other separators are the same file,
  // and its real path is spelled one way.
  std::string shouted = dir + "\\A.JSON";
  for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(kf::os::real_path(shouted), real);
#endif
  EXPECT_EQ(kf::os::real_path(dir + "/missing.json"), "");
  EXPECT_EQ(kf::os::real_path(""), "");
  std::error_code ec;
  fs::remove_all(fs::u8path(dir), ec);
}

TEST(Os, CoreLibraryPathIsTheModuleHoldingTheLoader) {
  // Compiled into this test program, the "core" is the program itself.
  const std::string core = kf::os::core_library_path();
  ASSERT_FALSE(core.empty());
  EXPECT_TRUE(kf::os::is_absolute(core)) << core;
  EXPECT_TRUE(fs::exists(fs::u8path(core))) << core;
  EXPECT_TRUE(contains(lower(file_name(core)), "kernforge_unit_tests")) << core;
}

TEST(Os, SystemLibraryByBareName) {
  const kf::os::OpenResult r = kf::os::open_library(kSystemLibrary, false);
  ASSERT_NE(r.library, nullptr) << r.error;
  EXPECT_NE(kf::os::find_symbol(r.library, kSystemSymbol), nullptr);
  EXPECT_EQ(kf::os::find_symbol(r.library, "kf_unit_no_such_symbol"), nullptr);
  EXPECT_EQ(kf::os::find_symbol(nullptr, kSystemSymbol), nullptr);

  // The live copy, canonical: its file may be called otherwise (libc-2.31.so on older glibc).
  const std::string live = kf::os::loaded_library_path(kSystemLibrary);
  EXPECT_TRUE(kf::os::is_absolute(live)) << live;
  EXPECT_EQ(kf::os::real_path(live), live);
  EXPECT_EQ(lower(file_name(live)).rfind(std::string(kSystemLibrary).substr(0, 4), 0), 0u)
      << live;
  EXPECT_EQ(kf::os::loaded_library_path("libkf_unit_never_loaded.so.7"), "");
  EXPECT_EQ(kf::os::loaded_library_path(""), "");
#if !defined(_WIN32)
  EXPECT_EQ(kf::os::loaded_library_path("./" + std::string(kSystemLibrary)), "")
      << "a path is not an soname";
#endif
}

TEST(Os, MissingLibraryIsNamed) {
  const std::string dir = kfunit::make_temp_dir("kf_unit_os_");
  ASSERT_FALSE(dir.empty());
  const std::string path = kf::os::real_path(dir) + "/libkf_unit_missing" KF_UNIT_MODULE_SUFFIX;
  const kf::os::OpenResult r = kf::os::open_library(path, false);
  EXPECT_EQ(r.library, nullptr);
  EXPECT_TRUE(contains(r.error, "libkf_unit_missing")) << r.error;
  std::error_code ec;
  fs::remove_all(fs::u8path(dir), ec);
}

TEST(Os, MissingDependencyIsNamedUntilTheLoaderFindsIt) {
  const std::string library = native(KF_UNIT_OS_NEEDS_DEP);
  const std::string dep = native(KF_UNIT_OS_DEP);
  const std::string dep_name = file_name(dep);

  const kf::os::OpenResult failed = kf::os::open_library(library, false);
  ASSERT_EQ(failed.library, nullptr) << "the dependency was found without the loader's help";
  EXPECT_TRUE(contains(failed.error, dep_name)) << "names neither it nor " << dep_name << ": "
                                                << failed.error;
  EXPECT_EQ(kf::os::loaded_library_path(dep_name), "");

#if defined(_WIN32)
  // The loader adds a plugin's search roots with AddDllDirectory, once per folder.
  const std::string dep_folder = fs::u8path(dep).parent_path().u8string();
  kf::os::add_library_directory(dep_folder);
  kf::os::add_library_directory(dep_folder + "\\");
  kf::os::add_library_directory("relative\\folder");  // ignored: not absolute
#else
  // The loader preloads dependencies by absolute path, globally.
  const kf::os::OpenResult preloaded = kf::os::open_library(dep, true);
  ASSERT_NE(preloaded.library, nullptr) << preloaded.error;
  kf::os::add_library_directory(fs::path(dep).parent_path().string());  // does nothing here
#endif
  const kf::os::OpenResult r = kf::os::open_library(library, false);
  ASSERT_NE(r.library, nullptr) << r.error;
  using Answer = int (*)();
  const auto answer = reinterpret_cast<Answer>(kf::os::find_symbol(r.library, "kf_unit_os_answer"));
  ASSERT_NE(answer, nullptr);
  EXPECT_EQ(answer(), 42);
  // The dependency is now mapped, from where the loader found it.
  EXPECT_EQ(lower(kf::os::loaded_library_path(dep_name)), lower(dep));
}

// ------------------------------------------------------------- files before opening

/// A fresh folder (canonical) removed with everything in it; chmods are undone first.
class Scratch {
 public:
  Scratch() : path_(kf::os::real_path(kfunit::make_temp_dir("kf_unit_facts_"))) {}
  ~Scratch() {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(fs::u8path(path_), ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_symlink()) {
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
      }
    }
    fs::remove_all(fs::u8path(path_), ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& str() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

TEST(Os, InspectFileOfAPlainFile) {
  const Scratch d;
  ASSERT_FALSE(d.str().empty());
  std::ofstream(fs::u8path(d / "a.json")) << "{}";
  const kf::os::FileFacts f = kf::os::inspect_file(d / "a.json");
  EXPECT_EQ(lower(f.real), lower(kf::os::real_path(d / "a.json")));
  EXPECT_EQ(f.missing, "");
  EXPECT_EQ(f.not_regular, "");
  EXPECT_EQ(f.insecure, "") << "a fresh temporary folder of this user";
  const kf::os::FileFacts missing = kf::os::inspect_file(d / "none.json");
  EXPECT_EQ(missing.real, "");
  EXPECT_TRUE(contains(missing.missing, "none.json")) << missing.missing;
  EXPECT_EQ(kf::os::inspect_file("relative.json").real, "");
  const kf::os::FileFacts folder = kf::os::inspect_file(d.str());
  EXPECT_EQ(folder.not_regular, "a folder");

  const kf::os::FileText t = kf::os::read_regular_file(d / "a.json", 100);
  EXPECT_EQ(t.error, "");
  EXPECT_EQ(t.text, "{}");
  EXPECT_EQ(kf::os::read_regular_file(d / "a.json", 1).text, "{") << "at most `limit` bytes";
  const kf::os::FileText none = kf::os::read_regular_file(d / "none.json", 100);
  EXPECT_TRUE(none.missing);
  EXPECT_TRUE(contains(none.error, "none.json")) << none.error;
  EXPECT_FALSE(kf::os::read_regular_file(d.str(), 100).error.empty()) << "a folder is refused";
}

#if !defined(_WIN32)
TEST(Os, InspectFileResolvesLikeTheKernelAndChecksEveryFolderOnTheWay) {
  const Scratch d;
  ASSERT_FALSE(d.str().empty());
  fs::create_directories(d / "safe/sub");
  fs::create_directories(d / "ww/inner");
  std::ofstream(d / "ww/inner/lib.so") << "x";
  std::ofstream(d / "safe/sub/lib.so") << "x";
  ASSERT_EQ(chmod((d / "ww").c_str(), 0777), 0);
  // Through "..", ".", doubled slashes and a link with a relative target, the real path is the
  // kernel's; a folder that is only passed through by ".." is checked on the way down.
  fs::create_directory_symlink("../ww/inner", d / "safe/to_inner");
  const kf::os::FileFacts f = kf::os::inspect_file(d / "safe/./sub/..//to_inner/lib.so");
  EXPECT_EQ(f.real, kf::os::real_path(d / "ww/inner/lib.so"));
  EXPECT_TRUE(contains(f.insecure, "folder " + (d / "ww") +
                                       " is world-writable without the sticky bit (mode 0777)"))
      << f.insecure;
  EXPECT_EQ(kf::os::inspect_file(d / "safe/sub/lib.so").insecure, "");
  // With the sticky bit, others may add entries but not replace ours: accepted.
  ASSERT_EQ(chmod((d / "ww").c_str(), 01777), 0);
  EXPECT_EQ(kf::os::inspect_file(d / "ww/inner/lib.so").insecure, "");
  // A file others may write is refused whatever its folder.
  ASSERT_EQ(chmod((d / "safe/sub/lib.so").c_str(), 0666), 0);
  EXPECT_TRUE(contains(kf::os::inspect_file(d / "safe/sub/lib.so").insecure,
                       "is world-writable (mode 0666)"));
}

TEST(Os, InspectFileNamesWhatIsNotARegularFile) {
  const Scratch d;
  ASSERT_FALSE(d.str().empty());
  ASSERT_EQ(mkfifo((d / "fifo").c_str(), 0644), 0);
  fs::create_symlink(d / "fifo", d / "link_to_fifo");
  for (const std::string& p : {d / "fifo", d / "link_to_fifo"}) {
    const kf::os::FileFacts f = kf::os::inspect_file(p);
    EXPECT_EQ(f.real, d / "fifo") << p;
    EXPECT_EQ(f.not_regular, "a FIFO (named pipe)") << p;
  }
  EXPECT_EQ(kf::os::inspect_file("/dev/null").not_regular, "a character device");
  // Read without blocking (no writer ever comes) and refused.
  const kf::os::FileText t = kf::os::read_regular_file(d / "fifo", 100);
  EXPECT_TRUE(contains(t.error, "FIFO")) << t.error;
  // A final symbolic link is not followed when reading: the real path is what is read.
  std::ofstream(d / "file") << "text";
  fs::create_symlink(d / "file", d / "link");
  EXPECT_TRUE(contains(kf::os::read_regular_file(d / "link", 100).error, "symbolic link"));
  // The file read must be the one checked.
  const kf::os::FileFacts checked = kf::os::inspect_file(d / "file");
  EXPECT_EQ(kf::os::read_regular_file(d / "file", 100, &checked.identity).text, "text");
  fs::rename(d / "file", d / "file.old");  // kept, so that its inode is not reused
  std::ofstream(d / "file") << "swapped";
  EXPECT_TRUE(contains(kf::os::read_regular_file(d / "file", 100, &checked.identity).error,
                       "replaced"));
  // Link loops end.
  fs::create_symlink(d / "loop_b", d / "loop_a");
  fs::create_symlink(d / "loop_a", d / "loop_b");
  EXPECT_EQ(kf::os::inspect_file(d / "loop_a").real, "");
}

TEST(Os, InspectFileRefusesOtherOwners) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give files to nobody (uid 65534)";
  const Scratch d;
  ASSERT_FALSE(d.str().empty());
  fs::create_directories(d / "theirs/mine");
  std::ofstream(d / "theirs/mine/lib.so") << "x";
  std::ofstream(d / "their_file") << "x";
  fs::create_symlink(d / "their_file", d / "their_link");
  ASSERT_EQ(chown((d / "theirs").c_str(), 65534, 65534), 0);
  ASSERT_EQ(lchown((d / "their_link").c_str(), 65534, 65534), 0);
  EXPECT_TRUE(contains(kf::os::inspect_file(d / "theirs/mine/lib.so").insecure,
                       "folder " + (d / "theirs") + " is owned by user 65534"));
  EXPECT_TRUE(contains(kf::os::inspect_file(d / "their_link").insecure,
                       "symbolic link " + (d / "their_link") + " is owned by user 65534"));
  EXPECT_EQ(kf::os::inspect_file(d / "their_file").insecure, "") << "root's file";
}
#endif

#if defined(__GLIBC__)
/// An ld.so.cache in glibc's current format holding `entries` (key, value, hwcap).
std::string fake_cache(const std::vector<std::tuple<std::string, std::string, uint64_t>>& entries) {
  std::string header = "glibc-ld.so.cache1.1";
  std::string strings;
  std::string table;
  const size_t strings_at = 48 + 24 * entries.size();
  const auto add_string = [&](const std::string& s) {
    const uint32_t at = static_cast<uint32_t>(strings_at + strings.size());
    strings += s + '\0';
    return at;
  };
  for (const auto& [key, value, hwcap] : entries) {
    const int32_t flags = 0x0303;
    const uint32_t k = add_string(key), v = add_string(value), os = 0;
    table.append(reinterpret_cast<const char*>(&flags), 4);
    table.append(reinterpret_cast<const char*>(&k), 4);
    table.append(reinterpret_cast<const char*>(&v), 4);
    table.append(reinterpret_cast<const char*>(&os), 4);
    table.append(reinterpret_cast<const char*>(&hwcap), 8);
  }
  const uint32_t n = static_cast<uint32_t>(entries.size());
  const uint32_t len = static_cast<uint32_t>(strings.size());
  std::string out = header;
  out.append(reinterpret_cast<const char*>(&n), 4);
  out.append(reinterpret_cast<const char*>(&len), 4);
  out += std::string(1, '\2') + std::string(19, '\0');  // little-endian, padding, extension
  return out + table + strings;
}

TEST(Os, LdSoCacheLookup) {
  const std::string cache = fake_cache({{"libfoo.so.1", "/opt/a/libfoo.so.1", 0},
                                        {"libfoo.so.1", "/opt/v3/libfoo.so.1", 1ull << 62},
                                        {"libbar.so.2", "/opt/b/libbar.so.2", 0},
                                        {"libfoo.so.1", "relative/libfoo.so.1", 0},
                                        {"libfoo.so.1", "/opt/c/libfoo.so.1", 0}});
  EXPECT_EQ(kf::os::ld_so_cache_lookup(cache, "libfoo.so.1"),
            (std::vector<std::string>{"/opt/a/libfoo.so.1", "/opt/c/libfoo.so.1"}));
  EXPECT_EQ(kf::os::ld_so_cache_lookup(cache, "libbar.so.2"),
            (std::vector<std::string>{"/opt/b/libbar.so.2"}));
  EXPECT_TRUE(kf::os::ld_so_cache_lookup(cache, "libnone.so").empty());
  EXPECT_TRUE(kf::os::ld_so_cache_lookup(cache, "").empty());
  // The old format's table first, then the new one: found after it.
  EXPECT_EQ(kf::os::ld_so_cache_lookup(std::string("ld.so-1.7.0") + std::string(5, '\0') + cache,
                                       "libbar.so.2").size(), 1u);
  // Truncated or garbage bytes: nothing, and nothing read out of bounds (ASan checks).
  for (size_t cut = 0; cut < cache.size(); cut += 7) {
    (void)kf::os::ld_so_cache_lookup(cache.substr(0, cut), "libfoo.so.1");
  }
  std::string broken = cache;
  for (size_t i = 48; i < 48 + 24 * 5; i += 4) broken[i] = static_cast<char>(0xff);
  (void)kf::os::ld_so_cache_lookup(broken, "libfoo.so.1");
  // The system's own cache knows libc.
  const std::vector<std::string> libc = kf::os::system_ld_so_cache_paths("libc.so.6");
  if (!fs::exists("/etc/ld.so.cache")) GTEST_SKIP() << "no /etc/ld.so.cache";
  EXPECT_FALSE(libc.empty());
}
#endif

TEST(Os, SystemSearchFindsSystemLibrariesButNeverTheCurrentDirectory) {
  const kf::os::SystemLibrary sys = kf::os::find_system_library(kSystemLibrary);
  EXPECT_FALSE(sys.path.empty()) << "searched: " << sys.searched.size() << " places";
  EXPECT_TRUE(kf::os::is_absolute(sys.path)) << sys.path;
  EXPECT_FALSE(sys.found_by.empty());
#if !defined(_WIN32)
  // The current directory holds a library of a name found nowhere else; LD_LIBRARY_PATH says
  // "here" twice (an empty entry and "."). The loader's search leaves both out, and says so.
  const Scratch d;
  ASSERT_FALSE(d.str().empty());
  const std::string name = file_name(native(KF_UNIT_OS_DEP));
  fs::copy_file(native(KF_UNIT_OS_DEP), d / name);
  const fs::path saved = fs::current_path();
  fs::current_path(d.str());
  const std::optional<std::string> old = kf::env::read("LD_LIBRARY_PATH");
  set_variable("LD_LIBRARY_PATH", ":.:relative/lib");
  const kf::os::SystemLibrary cwd = kf::os::find_system_library(name);
  set_variable("LD_LIBRARY_PATH", old ? old->c_str() : nullptr);
  fs::current_path(saved);
  EXPECT_EQ(cwd.path, "") << "found in the current directory";
  std::string dropped;
  for (const std::string& s : cwd.dropped) dropped += s + "\n";
  EXPECT_TRUE(contains(dropped, "LD_LIBRARY_PATH entry '': the current directory")) << dropped;
  EXPECT_TRUE(contains(dropped, "LD_LIBRARY_PATH entry '.': the current directory")) << dropped;
  EXPECT_TRUE(contains(dropped, "'relative/lib': relative")) << dropped;
  EXPECT_TRUE(kf::os::find_system_library("./" + name).path.empty()) << "a path, not a name";
#endif
}

}  // namespace
