// The loader's operating-system layer (runtime/src/loader/os.hpp) on the system it was built
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
#include <string>
#include <system_error>

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

}  // namespace
