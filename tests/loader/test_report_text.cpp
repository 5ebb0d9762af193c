// test_report_text.cpp — outside strings that are not UTF-8 (a folder name, a manifest's bytes)
// leave kf_runtime_report_json working: the report is valid UTF-8 JSON, the bad bytes replaced
// by U+FFFD, and the plugins in that folder are still reported and loaded.
#include <string>

#include "loader_fixture.hpp"

namespace loader_test {
namespace {

using ReportText = LoaderTest;

TEST_F(ReportText, NonUtf8FolderAndManifestKeepTheReportValid) {
#ifdef _WIN32
  // Windows names files in UTF-16 and refuses control characters in them: there, only the
  // manifest's own bytes are not UTF-8.
  const fs::path odd = tmp() / "odd";
#else
  const fs::path odd = tmp() / std::string("odd_\xff\xfe_\x1b[31m");
#endif
  const Staged ok = stage(odd, "ok");
  write_file(odd / "bytes.json",
             "{\"manifest_version\": 1, \"name\": \"bytes\xff\xc0\x80\", \"library\": \"x\"}");
  init_ok({odd});
  expect_state(backend("fault_ok"), KF_BACKEND_LOADED);
  size_t needed = 0;
  ASSERT_EQ(kf_runtime_report_json(nullptr, 0, &needed), KF_BUFFER_TOO_SMALL) << last_error();
  std::string text(needed, '\0');
  ASSERT_EQ(kf_runtime_report_json(text.data(), text.size(), &needed), KF_OK) << last_error();
  text.resize(needed - 1);
  // nlohmann's parser rejects invalid UTF-8: parsing at all proves the text is clean.
  const json r = json::parse(text, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << "not valid UTF-8 JSON: " << text;
#ifndef _WIN32
  EXPECT_HAS(text, "odd_\xef\xbf\xbd\xef\xbf\xbd_\\u001b[31m");  // U+FFFD twice, ESC as \u001b
#endif
  bool rejected = false;
  for (const json& b : r.at("backends")) {
    rejected = rejected || (str_of(b, "state") == "rejected" && contains(str_of(b, "reason"),
                                                                         "UTF-8"));
  }
  EXPECT_TRUE(rejected) << "the manifest with bad bytes is reported: " << text;
  expect_faultdev_neg_works("fault_ok");
}

}  // namespace
}  // namespace loader_test
