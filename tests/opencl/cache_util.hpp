// Helpers of the program-cache tests (test_program_cache.cpp, test_cache_trust.cpp): this test
// binary run again as a child process (CacheChild.RunsOps: mul on opencl in float32 and
// float16, right or not) with a cache folder and variables of the test's own, and the cache's
// files read and made the way the backend makes them (backends/opencl/cache_entry.hpp, SHA-256
// from OpenSSL). POSIX only, like the backend.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cache_entry.hpp"

namespace opencl_test {

namespace fs = std::filesystem;

/// How a child run ended.
struct ChildRun {
  int exit_code = -1;    // -1: killed or not started
  bool timed_out = false;
  std::string output;    // its stdout and stderr together
  /// The backend could not run in the child: its reason, else "".
  std::string unavailable() const;
  /// The child ran the ops and they gave the right values.
  bool ops_right() const;
  /// How many times `what` was said.
  size_t count(const std::string& what) const;
};

/// Runs CacheChild.RunsOps in a new process with `env` added to this one's (an empty value
/// unsets the variable), killed after `timeout_s`. KF_TEST_CHILD_CWD in `env` is its directory.
ChildRun run_child(const std::map<std::string, std::string>& env, int timeout_s = 240);
/// Starts two such children at once and waits for both.
std::array<ChildRun, 2> run_two_children(const std::map<std::string, std::string>& env);

/// Skips the test when the backend cannot run (in the child).
#define SKIP_WITHOUT_OPENCL(run)                                                  \
  do {                                                                            \
    if (!(run).unavailable().empty()) GTEST_SKIP() << (run).unavailable();        \
  } while (0)

/// A fresh, empty folder for the running test (0755, ours).
fs::path fresh_folder();

std::string read_bytes(const fs::path& p);
void write_bytes(const fs::path& p, const std::string& bytes);
kf::opencl::Digest sha256_of(const std::string& bytes);

/// One entry of a cache folder, parsed, and what it says of its binary file.
struct Entry {
  fs::path file;
  kf::opencl::CacheEntry entry;
  fs::path binary_file() const;
  /// The binary file exists and is the entry's size and digest.
  bool binary_matches() const;
};
/// Every file of `folder` named *.entry that parses.
std::vector<Entry> entries_of(const fs::path& folder);
/// The entry of kernels/<family>.cl for dtype number `dtype`; nullopt when there is none.
std::optional<Entry> entry_for(const fs::path& folder, const std::string& family, int dtype);

/// A cache folder filled by a first child's run (KERNFORGE_CACHE_DIR=root): the run, and the
/// float32 and float16 entries of kernels/binary.cl in root/opencl.
struct Populated {
  ChildRun run;
  std::optional<Entry> f32, f16;
};
Populated populate(const fs::path& root);

/// Writes into `folder` a well-formed entry under the name of `victim` (its key) that names a
/// binary file holding `binary` (another program's binary): what an attacker who can write the
/// folder would plant. Returns the two files.
std::array<fs::path, 2> plant(const fs::path& folder, const Entry& victim,
                              const std::string& binary);

}  // namespace opencl_test
