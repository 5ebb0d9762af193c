// test_files.hpp — files and environment for the loader tests: substring checks, environment
// variables, fault plugin file names, reading and writing files, and TempDir (a fresh folder per
// test under KF_TEST_TMP_ROOT, removed with everything in it).
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#if !defined(_WIN32)
#  include <stdlib.h>
#endif

#include "kernforge/kernforge.h"

namespace loader_test {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// EXPECT that `text` contains `part`, printing the whole text when it does not.
#define EXPECT_HAS(text, part)                                               \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                 \
      << "expected \"" << (part) << "\" in: " << (text)
#define EXPECT_LACKS(text, part)                                             \
  EXPECT_EQ(std::string(text).find(part), std::string::npos)                 \
      << "did not expect \"" << (part) << "\" in: " << (text)

inline std::string last_error() { return kf_last_error_message(); }

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ------------------------------------------------------------------ environment

inline void set_env(const char* name, const std::string& value) {
#if defined(_WIN32)
  _putenv_s(name, value.c_str());
#else
  setenv(name, value.c_str(), 1);
#endif
}

inline void unset_env(const char* name) {
#if defined(_WIN32)
  _putenv_s(name, "");
#else
  unsetenv(name);
#endif
}

// ------------------------------------------------------------------ files

/// libkernforge_fault_<variant>.so (.dll on Windows).
inline std::string plugin_file_name(const std::string& variant) {
  return std::string(KF_TEST_MODULE_PREFIX) + "kernforge_fault_" + variant + KF_TEST_MODULE_SUFFIX;
}

/// Where the build put fault plugin `variant`.
inline fs::path built_plugin(const std::string& variant) {
  return fs::path(KF_TEST_PLUGIN_DIR) / plugin_file_name(variant);
}

inline void write_file(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  ASSERT_TRUE(f.good()) << "cannot write " << path;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// A fresh folder under KF_TEST_TMP_ROOT (canonical path), removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    std::error_code ec;
    fs::create_directories(KF_TEST_TMP_ROOT, ec);
#if defined(_WIN32)
    std::mt19937_64 rng(std::random_device{}());
    for (int i = 0; i < 100 && path_.empty(); ++i) {
      fs::path p = fs::path(KF_TEST_TMP_ROOT) / (tag + "." + std::to_string(rng() % 1000000007));
      if (fs::create_directory(p, ec)) path_ = fs::canonical(p);
    }
#else
    std::string templ = std::string(KF_TEST_TMP_ROOT) + "/" + tag + ".XXXXXX";
    if (mkdtemp(templ.data()) != nullptr) path_ = fs::canonical(templ);
#endif
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    // Undo chmods of the security tests so that everything can be removed.
    for (auto it = fs::recursive_directory_iterator(path_, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_symlink()) {
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
      }
    }
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

}  // namespace loader_test
