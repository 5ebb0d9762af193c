// test_plugin_table.cpp — refused plugins take nothing: 40 plugins refused at start-up (before
// the CPU plugin, whose folder is searched last) leave every dispatch slot free, and hundreds of
// failed kf_load_plugin calls do not fill the plugin table (Note [Slots are taken only by
// accepted plugins], Note [A bounded plugin table]). Afterwards the CPU backend works (the
// fixture's epilogue) and a good plugin still loads and runs.
#include <string>
#include <vector>

#include "loader_fixture.hpp"

namespace loader_test {
namespace {

using PluginTable = LoaderTest;

constexpr int kRefused = 40;
constexpr int kFailedLoads = 300;

/// The refused plugins: each a copy in its own folder under its own name, each refused once it
/// has been opened (at init, for its device count, or at registration).
std::vector<Staged> stage_refused(const fs::path& root) {
  const char* variants[] = {"view_kernel", "duplicate_registration", "define_bad_rule",
                            "device_count_negative", "init_fails"};
  std::vector<Staged> staged;
  for (int i = 0; i < kRefused; ++i) {
    const std::string variant = variants[i % 5];
    json m = manifest_for(variant);
    m["name"] = "refused_" + std::to_string(i);
    m["library"] = "libkernforge_refused_" + std::to_string(i) + KF_TEST_MODULE_SUFFIX;
    staged.push_back(stage(root / std::to_string(i), variant, m));
  }
  return staged;
}

TEST_F(PluginTable, RefusedPluginsAndFailedLoadsTakeNoSlotAndNoRow) {
  const std::vector<Staged> refused = stage_refused(tmp() / "refused");
  std::vector<fs::path> folders;
  for (const Staged& s : refused) folders.push_back(s.folder);
  init_ok(folders);
  for (int i = 0; i < kRefused; ++i) {
    const BackendView b = backend("refused_" + std::to_string(i));
    expect_state(b, KF_BACKEND_REJECTED);
  }
  expect_cpu_add_works();
  // Failed loads, each with its own reason (a missing file), then the refused ones again.
  for (int i = 0; i < kFailedLoads; ++i) {
    const fs::path missing = tmp() / ("missing_" + std::to_string(i) + ".json");
    EXPECT_NE(kf_load_plugin(missing.string().c_str()), KF_OK);
  }
  for (const Staged& s : refused) EXPECT_NE(kf_load_plugin(s.manifest.string().c_str()), KF_OK);
  EXPECT_LE(kf_backend_count(), 256);
  const json r = report();
  EXPECT_GT(r.value("unlisted_failures", 0), 0) << "failures left out are counted";
  // A good plugin still gets a slot and a row.
  const Staged ok = stage(tmp() / "ok", "ok");
  ASSERT_EQ(kf_load_plugin(ok.manifest.string().c_str()), KF_OK) << last_error();
  expect_state(backend("fault_ok"), KF_BACKEND_LOADED);
  expect_faultdev_neg_works("fault_ok");
}

TEST_F(PluginTable, RetriedFailureIsListedOnce) {
  init_ok({});
  const fs::path missing = tmp() / "missing.json";
  const int32_t before = kf_backend_count();
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(kf_load_plugin(missing.string().c_str()), KF_NOT_FOUND);
    EXPECT_HAS(last_error(), missing.string());
  }
  EXPECT_EQ(kf_backend_count(), before + 1);
  EXPECT_EQ(report().value("unlisted_failures", 0), 49);
}

}  // namespace
}  // namespace loader_test
