// test_plugin_faults.cpp — fault plugins that are real libraries: a missing entry symbol, plugin
// ABI majors newer and older, minors newer and older, init failing three ways, score 0, a
// registration conflicting within the plugin, a device type conflicting with the CPU plugin,
// and an unknown op. Each asserts the state and status, a message naming the file, and (in the
// fixture's epilogue) that the CPU plugin still works and no descriptor leaked.
#include <atomic>
#include <fstream>
#include <string>

#include "loader_fixture.hpp"

// Counted by the minor_older plugin's poison `describe` (found with dlsym/GetProcAddress).
#if defined(_WIN32)
#  define KF_TEST_EXPORT __declspec(dllexport)
#else
#  define KF_TEST_EXPORT __attribute__((visibility("default")))
#endif
extern "C" {
KF_TEST_EXPORT std::atomic<int> kf_fault_poison_calls{0};
}

namespace loader_test {
namespace {

using PluginFaults = LoaderTest;

/// "M.m" of the host's plugin ABI, from the report ("plugin_abi": [M, m]).
std::string host_plugin_abi() {
  const json r = report();
  if (r.contains("plugin_abi") && r["plugin_abi"].is_array() && r["plugin_abi"].size() == 2) {
    return std::to_string(r["plugin_abi"][0].get<int>()) + "." +
           std::to_string(r["plugin_abi"][1].get<int>());
  }
  return "1.1";
}

/// The line of fault_plugin.cpp holding registration site `marker` (a KF_REGISTER_KERNEL line).
int site_line(const std::string& marker) {
  std::ifstream f(KF_TEST_FAULT_SOURCE);
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    if (contains(line, "KF_REGISTER_KERNEL") && contains(line, "// " + marker)) return n;
  }
  ADD_FAILURE() << "no line with " << marker << " in " << KF_TEST_FAULT_SOURCE;
  return -1;
}

bool reason_names_either(const BackendView& b, const Staged& s) {
  return contains(b.reason, s.library.string()) || contains(b.reason, s.manifest.string());
}

/// A manifest for `variant` claiming plugin ABI [major, minor].
json manifest_with_abi(const std::string& variant, int major, int minor) {
  json m = manifest_for(variant);
  m["abi"] = {major, minor};
  return m;
}

TEST_F(PluginFaults, OkLoadsAndRuns) {
  const Staged s = stage(tmp() / "plugins", "ok");
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_LOADED);
  EXPECT_EQ(b.reason, "");
  EXPECT_EQ(fs::path(b.library), s.library);
  EXPECT_EQ(fs::path(b.manifest), s.manifest);
  expect_faultdev_neg_works("fault_ok");
}

TEST_F(PluginFaults, NoEntrySymbol) {
  const Staged s = stage(tmp() / "plugins", "no_entry");
  init_ok({s.folder});
  const BackendView b = backend("fault_no_entry");
  expect_state(b, KF_BACKEND_REJECTED);
  EXPECT_HAS(b.reason, s.library.string());
  EXPECT_HAS(b.reason, "kf_plugin_get");
}

/// "<major + 1>.0": the plugin ABI after the host's.
std::string next_major() { return std::to_string(KF_PLUGIN_ABI_MAJOR + 1) + ".0"; }

TEST_F(PluginFaults, AbiMajorNewer) {
  const Staged s = stage(tmp() / "plugins", "abi_major_newer",
                         manifest_with_abi("abi_major_newer", KF_PLUGIN_ABI_MAJOR + 1, 0));
  init_ok({s.folder});
  const BackendView b = backend("fault_abi_major_newer");
  expect_state(b, KF_BACKEND_REJECTED, KF_ABI_MISMATCH);
  EXPECT_TRUE(reason_names_either(b, s)) << b;
  EXPECT_HAS(b.reason, next_major());
  EXPECT_HAS(b.reason, host_plugin_abi());
}

// A plugin of ABI 1.3, built before the 2.0 break (kf_scalar_t grew, new dtypes), is refused
// by the major rule with both versions named.
TEST_F(PluginFaults, AbiMajorOlder) {
  const Staged s = stage(tmp() / "plugins", "abi_major_older",
                         manifest_with_abi("abi_major_older", 1, 3));
  init_ok({s.folder});
  const BackendView b = backend("fault_abi_major_older");
  expect_state(b, KF_BACKEND_REJECTED, KF_ABI_MISMATCH);
  EXPECT_TRUE(reason_names_either(b, s)) << b;
  EXPECT_HAS(b.reason, "1.3");
  EXPECT_HAS(b.reason, host_plugin_abi());
}

// No manifest: only the library's own kf_plugin_t can tell its ABI.
TEST_F(PluginFaults, AbiMajorNewerLoadedByLibraryPath) {
  const Staged s = stage(tmp() / "plugins", "abi_major_newer",
                         manifest_with_abi("abi_major_newer", KF_PLUGIN_ABI_MAJOR + 1, 0));
  fs::remove(s.manifest);
  init_ok({});
  const kf_status_t st = kf_load_plugin(s.library.string().c_str());
  const std::string msg = last_error();
  EXPECT_STREQ(kf_status_name(st), "KF_ABI_MISMATCH") << msg;
  EXPECT_HAS(msg, s.library.string());
  EXPECT_HAS(msg, next_major());
  EXPECT_HAS(msg, host_plugin_abi());
  for (const BackendView& b : all_backends()) {
    if (b.library == s.library.string()) {
      EXPECT_EQ(b.state, KF_BACKEND_REJECTED) << b;
    }
  }
}

TEST_F(PluginFaults, MinorNewerLoads) {
  const Staged s = stage(tmp() / "plugins", "minor_newer", manifest_with_abi("minor_newer", KF_PLUGIN_ABI_MAJOR, 99));
  init_ok({s.folder});
  const BackendView b = backend("fault_minor_newer");
  expect_state(b, KF_BACKEND_LOADED);
  expect_faultdev_neg_works("fault_minor_newer");
}

// ABI 1.1 appended `describe`; a plugin whose struct ends before it (an older minor's build)
// has none, and what lies there (a poison here) must never be called, not at start-up and not
// for the report.
TEST_F(PluginFaults, MinorOlderLoadsAndDescribeIsNeverRead) {
  const Staged s = stage(tmp() / "plugins", "minor_older",
                         manifest_with_abi("minor_older", KF_PLUGIN_ABI_MAJOR, 0));
  init_ok({s.folder});
  const BackendView b = backend("fault_minor_older");
  expect_state(b, KF_BACKEND_LOADED);
  expect_faultdev_neg_works("fault_minor_older");
  const json r = report();
  EXPECT_LACKS(r.dump(), "POISON");
  EXPECT_EQ(kf_fault_poison_calls.load(), 0) << "the host called describe of a plugin without it";
}

TEST_F(PluginFaults, InitUnavailable) {
  const Staged s = stage(tmp() / "plugins", "init_unavailable");
  init_ok({s.folder});
  const BackendView b = backend("fault_init_unavailable");
  expect_state(b, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE);
  EXPECT_HAS(b.reason, "no faultdev device here");
  EXPECT_HAS(b.reason, s.library.string());
  // Plugin ABI 2.2: asked without its state, it listed what it would run (its neg kernel),
  // for the report and `kernforge ops`; nothing of it reached dispatch.
  const std::vector<json> entries = report_backends(report(), "fault_init_unavailable");
  ASSERT_EQ(entries.size(), 1u);
  const json listed = entries[0].value("catalogue", json::array());
  ASSERT_EQ(listed.size(), 1u) << entries[0].dump(2);
  EXPECT_EQ(listed[0].value("op", ""), "neg");
  EXPECT_EQ(listed[0].value("dtype_mask", 0u), 1u << KF_FLOAT32);
  kf_op_t neg = nullptr;
  ASSERT_EQ(kf_op_find("neg", &neg), KF_OK);
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(kf_backend_info(i, &info), KF_OK);
    if (std::string(info.name) != "fault_init_unavailable") continue;
    kf_kernel_info_t k{};
    k.struct_size = sizeof k;
    ASSERT_EQ(kf_op_kernel_info(neg, i, &k), KF_OK);
    EXPECT_EQ(k.kind, KF_KERNEL_NONE);
  }
}

TEST_F(PluginFaults, InitFails) {
  const Staged s = stage(tmp() / "plugins", "init_fails");
  init_ok({s.folder});
  const BackendView b = backend("fault_init_fails");
  expect_state(b, KF_BACKEND_REJECTED, KF_INTERNAL);
  EXPECT_HAS(b.reason, "the faultdev firmware did not answer");
  expect_message_names(b, {s.library});
}

TEST_F(PluginFaults, InitThrows) {
  const Staged s = stage(tmp() / "plugins", "init_throws");
  init_ok({s.folder});
  const BackendView b = backend("fault_init_throws");
  expect_state(b, KF_BACKEND_REJECTED);
  EXPECT_HAS(lower(b.reason), "exception");
  expect_message_names(b, {s.library});
}

// init() aborts the process if it runs: reaching the assertions proves it did not.
TEST_F(PluginFaults, ScoreZeroNeverInitialises) {
  const Staged s = stage(tmp() / "plugins", "score_zero");
  init_ok({s.folder});
  const BackendView b = backend("fault_score_zero");
  expect_state(b, KF_BACKEND_UNAVAILABLE);
  EXPECT_HAS(lower(b.reason), "score");
  EXPECT_HAS(b.reason, "0");
  expect_message_names(b, {s.library});
  for (const json& st : steps(report(), "fault_score_zero", "init")) {
    EXPECT_EQ(str_of(st, "result"), "skipped") << "init ran for a plugin of score 0: " << st.dump();
  }
}

// add, then neg from FAULT_SITE_1 and again from FAULT_SITE_2: the whole plugin is rolled back
// (shutdown runs: LSan sees the state freed), both sites are named, no kernel stays registered.
TEST_F(PluginFaults, DuplicateRegistrationRollsBackWholePlugin) {
  const Staged s = stage(tmp() / "plugins", "duplicate_registration");
  init_ok({s.folder});
  const BackendView b = backend("fault_duplicate_registration");
  expect_state(b, KF_BACKEND_REJECTED, KF_ALREADY_EXISTS);
  EXPECT_HAS(b.reason, "fault_plugin.cpp:" + std::to_string(site_line("FAULT_SITE_1")));
  EXPECT_HAS(b.reason, "fault_plugin.cpp:" + std::to_string(site_line("FAULT_SITE_2")));
  expect_message_names(b, {s.library});
  for (const char* op : {"add", "neg"}) {
    kf_status_t st = KF_OK;
    const kf_kernel_info_t info = kernel_info(op, b.index, &st);
    if (st != KF_OK) continue;  // a backend that is not loaded has no kernels to tell of
    EXPECT_NE(info.kind, KF_KERNEL_BACKEND) << op << " kept a kernel of the rejected plugin";
    EXPECT_LACKS(info.provenance != nullptr ? info.provenance : "", "fault_plugin.cpp");
  }
  const BackendView cpu = backend("cpu");
  kf_status_t st = KF_OK;
  const kf_kernel_info_t add = kernel_info("add", cpu.index, &st);
  EXPECT_EQ(st, KF_OK) << last_error();
  EXPECT_LACKS(add.provenance != nullptr ? add.provenance : "", "fault_plugin.cpp");
}

// Device type "cpu" with a lower priority than the CPU plugin's (but a higher score): shadowed,
// the winner named.
TEST_F(PluginFaults, CpuConflictIsShadowed) {
  json m = manifest_for("cpu_conflict");
  m["priority"] = 5;
  const Staged s = stage(tmp() / "plugins", "cpu_conflict", m);
  init_ok({s.folder});
  const BackendView b = backend("fault_cpu_conflict");
  expect_state(b, KF_BACKEND_SHADOWED);
  EXPECT_HAS(b.reason, "'cpu'");
  expect_message_names(b, {s.library, s.manifest});
  const BackendView cpu = backend("cpu");
  EXPECT_EQ(cpu.state, KF_BACKEND_LOADED) << cpu;
  kf_status_t st = KF_OK;
  const kf_kernel_info_t add = kernel_info("add", cpu.index, &st);
  EXPECT_EQ(st, KF_OK) << last_error();
  EXPECT_LACKS(add.provenance != nullptr ? add.provenance : "", "fault_plugin.cpp");
}

// After start-up, loading a second plugin for "cpu" fails naming both plugins and the file.
TEST_F(PluginFaults, CpuConflictLoadedAfterStartUp) {
  json m = manifest_for("cpu_conflict");
  m["priority"] = 5;
  const Staged s = stage(tmp() / "plugins", "cpu_conflict", m);
  init_ok({});
  const kf_status_t st = kf_load_plugin(s.manifest.string().c_str());
  const std::string msg = last_error();
  EXPECT_STREQ(kf_status_name(st), "KF_ALREADY_EXISTS") << msg;
  EXPECT_HAS(msg, "fault_cpu_conflict");
  EXPECT_HAS(msg, "'cpu'");
  EXPECT_TRUE(contains(msg, s.manifest.string()) || contains(msg, s.library.string())) << msg;
  const BackendView b = backend("fault_cpu_conflict");
  if (b.found()) {
    EXPECT_NE(b.state, KF_BACKEND_LOADED) << b;
  }
}

// An op the host lacks is skipped with a warning; the rest of the plugin loads.
TEST_F(PluginFaults, UnknownOpIsSkippedWithWarning) {
  const Staged s = stage(tmp() / "plugins", "unknown_op");
  init_ok({s.folder});
  const BackendView b = backend("fault_unknown_op");
  expect_state(b, KF_BACKEND_LOADED);
  const json r = report();
  bool warned = false;
  for (const json& st : steps(r, "fault_unknown_op", "register")) {
    if (str_of(st, "result") == "warning" && contains(str_of(st, "reason"), "no_such_op_xyz")) {
      warned = true;
    }
  }
  EXPECT_TRUE(warned) << "no register step with result \"warning\" naming no_such_op_xyz: "
                      << r["steps"].dump(2);
  expect_faultdev_neg_works("fault_unknown_op");
}

// ------------------------------------------------- who serves a device type

/// The report's "device_types" entry for `type` (null when absent).
json serving(const std::string& type) {
  const json r = report();
  if (!r.contains("device_types") || !r["device_types"].contains(type)) return json();
  return r["device_types"][type];
}

// A plugin from elsewhere declaring device type cpu with a higher score (10 vs 1) and priority
// (1000 vs 100) than the shipped CPU plugin does not replace it: it is shadowed, and the reason
// says how the user could choose it.
TEST_F(PluginFaults, ThirdPartyCpuPluginDoesNotReplaceShippedCpu) {
  json m = manifest_for("cpu_conflict");
  m["priority"] = 1000;
  const Staged s = stage(tmp() / "plugins", "cpu_conflict", m);
  init_ok({s.folder});
  const BackendView b = backend("fault_cpu_conflict");
  expect_state(b, KF_BACKEND_SHADOWED);
  EXPECT_HAS(b.reason, "shipped with kernforge");
  EXPECT_HAS(b.reason, "KERNFORGE_PREFER_PLUGINS=cpu=fault_cpu_conflict");
  expect_state(backend("cpu"), KF_BACKEND_LOADED);
  const json cpu = serving("cpu");
  EXPECT_EQ(cpu.value("plugin", ""), "cpu") << cpu.dump();
  EXPECT_EQ(cpu.value("shipped", false), true) << cpu.dump();
  kf_status_t st = KF_OK;
  const kf_kernel_info_t neg = kernel_info("neg", backend("cpu").index, &st);
  EXPECT_EQ(st, KF_OK) << last_error();
  EXPECT_LACKS(neg.provenance != nullptr ? neg.provenance : "", "fault_plugin.cpp");
}

// KERNFORGE_PREFER_PLUGINS=cpu=<plugin> is the user's choice: the plugin serves cpu (even with a
// lower priority), the shipped one is shadowed, and the report says what replaced what.
TEST_F(PluginFaults, PreferredPluginReplacesShippedCpu) {
  expect_shipped_cpu_ = false;
  json m = manifest_for("cpu_conflict");
  m["priority"] = 5;
  const Staged s = stage(tmp() / "plugins", "cpu_conflict", m);
  set_env("KERNFORGE_PREFER_PLUGINS", "faultdev=nothing,cpu=fault_cpu_conflict");
  init_ok({s.folder});
  expect_state(backend("fault_cpu_conflict"), KF_BACKEND_LOADED);
  const BackendView cpu = backend("cpu");
  expect_state(cpu, KF_BACKEND_SHADOWED);
  EXPECT_HAS(cpu.reason, "KERNFORGE_PREFER_PLUGINS");
  const json served = serving("cpu");
  EXPECT_EQ(served.value("plugin", ""), "fault_cpu_conflict") << served.dump();
  EXPECT_EQ(served.value("preferred", false), true) << served.dump();
  EXPECT_EQ(served.value("shipped", true), false) << served.dump();
  EXPECT_EQ(served.value("replaces_shipped", ""), "cpu") << served.dump();
  kf_status_t st = KF_OK;
  const kf_kernel_info_t neg = kernel_info("neg", backend("fault_cpu_conflict").index, &st);
  EXPECT_EQ(st, KF_OK) << last_error();
  EXPECT_HAS(neg.provenance != nullptr ? neg.provenance : "", "fault_plugin.cpp");
}

// A manifest whose device_type is not the plugin's own is refused naming both: here the faultdev
// plugin's manifest claims cpu with a priority above the CPU plugin's.
TEST_F(PluginFaults, ManifestDeviceTypeMustMatchThePlugin) {
  json m = manifest_for("ok");
  m["device_type"] = "cpu";
  m["priority"] = 1000;
  const Staged s = stage(tmp() / "plugins", "ok", m);
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "'cpu'");
  EXPECT_HAS(b.reason, "'faultdev'");
  EXPECT_HAS(b.reason, s.manifest.string());
  expect_state(backend("cpu"), KF_BACKEND_LOADED);
}

}  // namespace
}  // namespace loader_test
