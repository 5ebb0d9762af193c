// Reads the files named in KERNFORGE_CTS_UNSUPPORTED into unsupported_table() once, before the
// first test runs (a gtest global environment, registered when the program starts).
//
// Note [A bad exclusion file fails the run]
// A file that cannot be read or parsed, or that names a case this suite does not have, ends
// the run before any test with the file and what is wrong, and exit status 2. Ignoring the
// file instead would run (and fail) the cases the backend meant to exclude, or silently skip
// nothing after a typo. A gtest failure in the environment would not do: gtest then marks
// every test skipped and ends its summary with "0 FAILED TESTS", which reads as a pass.
// Listing the tests (--gtest_list_tests, ctest's discovery) sets up no environment, so it
// works whatever the variable holds.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "unsupported.hpp"

namespace cts {
namespace {

// Every "Suite.Test" this binary has, filtered out or not.
std::set<std::string> known_cases() {
  std::set<std::string> out;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      out.insert(case_key(suite.name(), suite.GetTestInfo(j)->name()));
    }
  }
  return out;
}

void check_cases_exist(const UnsupportedFile& file, const std::set<std::string>& known) {
  for (size_t i = 0; i < file.rows.size(); ++i) {
    const std::string& test = file.rows[i].test;
    if (test == "*" || known.count(test) > 0) continue;
    throw UnsupportedFileError(
        file.path + ": unsupported[" + std::to_string(i) + "]: this suite has no case \"" + test +
        "\" (a typo, or a case of another version of the suite; --gtest_list_tests lists the "
        "cases as Cts/<Suite>.<Test>/<parameter>)");
  }
}

void load(const std::string& value) {
  UnsupportedTable& table = unsupported_table();
  table.clear();
  const std::set<std::string> known = known_cases();
  for (const std::string& path : split_path_list(value)) {
    UnsupportedFile file = read_unsupported(path);
    check_cases_exist(file, known);
    std::printf("[cts] %s: %zu unsupported case(s) of backend '%s'\n", path.c_str(),
                file.rows.size(), file.backend.c_str());
    table.add(std::move(file));
  }
}

class UnsupportedEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    const char* value = std::getenv("KERNFORGE_CTS_UNSUPPORTED");
    if (value == nullptr || *value == '\0') return;
    try {
      load(value);
    } catch (const std::exception& e) {  // Note [A bad exclusion file fails the run]
      std::fflush(stdout);
      std::fprintf(stderr, "\nKERNFORGE_CTS_UNSUPPORTED: %s\nNo test was run: fix the file, or "
                           "leave it out of KERNFORGE_CTS_UNSUPPORTED.\n", e.what());
      std::fflush(stderr);
      std::exit(2);
    }
  }
};

[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new UnsupportedEnvironment());

}  // namespace
}  // namespace cts
