// The run-time schema parser judges schema_cases.txt's signatures as the build-time one does
// (test_schema.py reads the same file): `ok` ones parse, `bad` ones are refused with
// KF_INVALID_ARGUMENT. Parsed as ops.yaml's (SchemaOrigin::Core), the grammar both share.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "registry/schema_parser.hpp"

namespace kf {
namespace {

struct Case {
  bool ok;
  std::string signature;
  int line;
};

std::vector<Case> read_cases() {
  std::ifstream in(KF_SCHEMA_CASES);
  std::vector<Case> cases;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    const size_t space = text.find(' ');
    const std::string verdict = text.substr(0, space);
    EXPECT_TRUE(verdict == "ok" || verdict == "bad") << "line " << line << ": " << text;
    const size_t start = text.find_first_not_of(' ', space);
    cases.push_back(Case{verdict == "ok", text.substr(start), line});
  }
  return cases;
}

TEST(SchemaCases, TheRuntimeParserJudgesEveryCaseAsListed) {
  const std::vector<Case> cases = read_cases();
  ASSERT_GT(cases.size(), 40u) << "cannot read " << KF_SCHEMA_CASES;
  for (const Case& c : cases) {
    SCOPED_TRACE("schema_cases.txt:" + std::to_string(c.line) + ": " + c.signature);
    try {
      (void)parse_schema(c.signature, SchemaOrigin::Core);
      EXPECT_TRUE(c.ok) << "accepted, but listed as bad";
    } catch (const Error& e) {
      EXPECT_FALSE(c.ok) << "refused: " << e.what();
      EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << e.what();
    }
  }
}

TEST(SchemaCases, PluginsTakeNoTensorLists) {
  EXPECT_NO_THROW(parse_schema("foo(Tensor[] tensors) -> Tensor", SchemaOrigin::Core));
  EXPECT_THROW(parse_schema("toy::foo(Tensor[] tensors) -> Tensor"), Error);
}

}  // namespace
}  // namespace kf
