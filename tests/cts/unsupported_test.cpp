// The reader of the backends' cts_unsupported.json files (unsupported.cpp): a good file is
// taken as written, and every kind of bad one is refused with the file and what is wrong.
#include <gtest/gtest.h>

#if !defined(_WIN32)
#include <sys/stat.h>
#endif

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "regular_file.hpp"
#include "unsupported.hpp"

namespace {

using cts::parse_unsupported;
using cts::UnsupportedFileError;

// The message parse_unsupported throws for `text` ("" when it throws nothing).
std::string error_of(const std::string& text) {
  try {
    parse_unsupported("dir/cts_unsupported.json", text);
  } catch (const UnsupportedFileError& e) {
    return e.what();
  }
  return "";
}

TEST(CtsUnsupported, GoodFileIsTakenAsWritten) {
  const cts::UnsupportedFile f = parse_unsupported("toy/cts_unsupported.json", R"({
    "backend": "toy",
    "unsupported": [
      {"test": "Linalg.MmLarge", "dtype": "float64", "reason": "no float64 units"},
      {"test": "Softmax.Rows", "dtype": "", "reason": "no exp unit"},
      {"test": "Views.Expand", "reason": "no strided copies"}
    ]})");
  EXPECT_EQ(f.path, "toy/cts_unsupported.json");
  EXPECT_EQ(f.backend, "toy");
  ASSERT_EQ(f.rows.size(), 3u);
  EXPECT_EQ(f.rows[0].test, "Linalg.MmLarge");
  EXPECT_EQ(f.rows[0].dtype, "float64");
  EXPECT_EQ(f.rows[0].reason, "no float64 units");
  EXPECT_EQ(f.rows[1].dtype, "");
  EXPECT_EQ(f.rows[2].dtype, "");
}

TEST(CtsUnsupported, EmptyListIsGood) {
  EXPECT_TRUE(parse_unsupported("f", R"({"backend": "toy", "unsupported": []})").rows.empty());
}

TEST(CtsUnsupported, TableMatchesBackendTestAndDtype) {
  cts::UnsupportedTable table;
  table.add(parse_unsupported("toy.json", R"({"backend": "toy", "unsupported": [
      {"test": "Linalg.MmLarge", "dtype": "float64", "reason": "no float64 units"},
      {"test": "Views.Expand", "reason": "no strided copies"}]})"));
  const cts::UnsupportedMatch m = table.find("toy", "Linalg.MmLarge", "float64");
  ASSERT_TRUE(m);
  EXPECT_EQ(m.file->path, "toy.json");
  EXPECT_EQ(m.row->reason, "no float64 units");
  EXPECT_FALSE(table.find("toy", "Linalg.MmLarge", "float32"));  // another dtype runs
  EXPECT_FALSE(table.find("cpu", "Linalg.MmLarge", "float64"));  // another backend runs
  EXPECT_FALSE(table.find("toy", "Linalg.Mm", "float64"));       // another test runs
  EXPECT_TRUE(table.find("toy", "Views.Expand", "int32"));        // no dtype: every dtype
  EXPECT_TRUE(table.find("toy", "Views.Expand", ""));             // and dtype-free cases
}

TEST(CtsUnsupported, StarMatchesEveryCaseOfItsDtype) {
  cts::UnsupportedTable table;
  table.add(parse_unsupported("toy.json", R"({"backend": "toy", "unsupported": [
      {"test": "*", "dtype": "int16", "reason": "no int16 units"}]})"));
  EXPECT_TRUE(table.find("toy", "Linalg.MmLarge", "int16"));
  EXPECT_TRUE(table.find("toy", "Binary.Mul", "int16"));
  EXPECT_FALSE(table.find("toy", "Binary.Mul", "int32"));  // another dtype runs
  EXPECT_FALSE(table.find("toy", "Binary.Mul", ""));       // so do dtype-free cases
  EXPECT_FALSE(table.find("cpu", "Binary.Mul", "int16"));  // and other backends
}

TEST(CtsUnsupported, MalformedJsonNamesTheFile) {
  const std::string e = error_of(R"({"backend": "toy", "unsupported": [ )");
  EXPECT_NE(e.find("dir/cts_unsupported.json: not valid JSON: "), std::string::npos) << e;
}

TEST(CtsUnsupported, RowWithoutReasonIsRefused) {
  const std::string e = error_of(R"({"backend": "toy", "unsupported": [
      {"test": "Linalg.MmLarge", "dtype": "float64"}]})");
  EXPECT_EQ(e, "dir/cts_unsupported.json: unsupported[0] (\"Linalg.MmLarge\") has no \"reason\"");
}

TEST(CtsUnsupported, RowWithoutTestIsRefused) {
  const std::string e = error_of(R"({"backend": "toy", "unsupported": [
      {"test": "A.B", "reason": "x"}, {"reason": "no test"}]})");
  EXPECT_EQ(e, "dir/cts_unsupported.json: unsupported[1] has no \"test\"");
}

TEST(CtsUnsupported, EmptyFieldsAreRefused) {
  EXPECT_NE(error_of(R"({"backend": "", "unsupported": []})").find("\"backend\" is empty"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"backend": "t", "unsupported": [{"test": "A.B", "reason": ""}]})")
                .find("\"reason\" is empty"),
            std::string::npos);
}

TEST(CtsUnsupported, UnknownKeysAreRefused) {
  EXPECT_EQ(error_of(R"({"backend": "toy", "unsupported": [], "comment": "x"})"),
            "dir/cts_unsupported.json: the file has the unknown key \"comment\" (the keys are "
            "backend, unsupported)");
  EXPECT_EQ(error_of(R"({"backend": "toy", "unsupported": [
                {"test": "A.B", "dtypes": "float32", "reason": "x"}]})"),
            "dir/cts_unsupported.json: unsupported[0] (\"A.B\") has the unknown key \"dtypes\" "
            "(the keys are test, dtype, reason)");
}

TEST(CtsUnsupported, WrongShapesAreRefused) {
  EXPECT_NE(error_of("[]").find("must hold one object"), std::string::npos);
  EXPECT_NE(error_of(R"({"backend": "toy"})").find("has no \"unsupported\""), std::string::npos);
  EXPECT_NE(error_of(R"({"backend": "toy", "unsupported": {}})").find("must be a list"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"backend": 3, "unsupported": []})").find("must be a string"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"backend": "t", "unsupported": ["A.B"]})").find("must be an object"),
            std::string::npos);
}

TEST(CtsUnsupported, TestNamesAndDtypesAreChecked) {
  EXPECT_NE(error_of(R"({"backend": "t", "unsupported": [
                {"test": "Cts/Linalg.MmLarge/toy_float64", "reason": "x"}]})")
                .find("\"test\" must be \"Suite.Test\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"backend": "t", "unsupported": [{"test": "Linalg", "reason": "x"}]})")
                .find("\"test\" must be \"Suite.Test\""),
            std::string::npos);
  const std::string e = error_of(R"({"backend": "t", "unsupported": [
      {"test": "A.B", "dtype": "float46", "reason": "x"}]})");
  EXPECT_NE(e.find("\"dtype\" \"float46\" is not a dtype (float32, float64,"), std::string::npos)
      << e;
}

TEST(CtsUnsupported, UnreadableFileNamesItself) {
  const std::string path = "/nonexistent/kernforge/cts_unsupported.json";
  try {
    cts::read_unsupported(path);
    FAIL() << "no error";
  } catch (const UnsupportedFileError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + " cannot be opened: ", 0), 0u) << e.what();
  }
}

// The message read_unsupported throws for `path` ("" when it reads it).
std::string read_error(const std::string& path) {
  try {
    cts::read_unsupported(path);
  } catch (const UnsupportedFileError& e) {
    return e.what();
  }
  return "";
}

#if !defined(_WIN32)
TEST(CtsUnsupported, AFifoIsRefusedWithoutBlocking) {
  const std::string path = "kf_cts_unsupported_fifo.json";  // in the build folder
  std::filesystem::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string e = read_error(path);  // before: blocked in open() until a writer came
  std::filesystem::remove(path);
  EXPECT_NE(e.find("is not a regular file"), std::string::npos) << e;
}

TEST(CtsUnsupported, ADeviceIsRefusedBeforeItIsRead) {
  const std::string e = read_error("/dev/zero");  // before: read until std::bad_alloc
  EXPECT_NE(e.find("/dev/zero is not a regular file"), std::string::npos) << e;
}
#endif

TEST(CtsUnsupported, AFileAboveTheLimitIsRefusedBeforeItIsRead) {
  const std::filesystem::path path = "kf_cts_unsupported_large.json";
  {
    std::ofstream out(path, std::ios::binary);
    out.seekp(static_cast<std::streamoff>(cts::kMaxFileBytes));  // sparse: one byte past it
    out.put(' ');
  }
  const std::string e = read_error(path.string());
  std::filesystem::remove(path);
  EXPECT_NE(e.find("is larger than 4 MiB"), std::string::npos) << e;
}

TEST(CtsUnsupported, ReadsAFile) {
  // In the working directory: the test's build folder, one per build tree.
  const std::filesystem::path path = "kf_cts_unsupported_reads_a_file.json";
  {
    std::ofstream out(path);
    out << R"({"backend": "toy", "unsupported": [{"test": "A.B", "reason": "r"}]})";
  }
  const cts::UnsupportedFile f = cts::read_unsupported(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(f.path, path.string());
  ASSERT_EQ(f.rows.size(), 1u);
  EXPECT_EQ(f.rows[0].reason, "r");
}

TEST(CtsUnsupported, PathListsSplitOnTheSystemSeparator) {
#if defined(_WIN32)
  const std::string value = "C:\\a\\x.json;;D:\\y.json;";
  const std::vector<std::string> want = {"C:\\a\\x.json", "D:\\y.json"};
#else
  const std::string value = "/a/x.json::/y.json:";
  const std::vector<std::string> want = {"/a/x.json", "/y.json"};
#endif
  EXPECT_EQ(cts::split_path_list(value), want);
  EXPECT_TRUE(cts::split_path_list("").empty());
}

TEST(CtsUnsupported, CaseKeysDropPrefixAndParameter) {
  EXPECT_EQ(cts::case_key("Cts/Linalg", "MmLarge/cpu_float32"), "Linalg.MmLarge");
  EXPECT_EQ(cts::case_key("Linalg", "MmLarge"), "Linalg.MmLarge");
}

}  // namespace
