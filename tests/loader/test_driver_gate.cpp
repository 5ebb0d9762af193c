// test_driver_gate.cpp — the availability gate, "requires": {"driver": ...} (loader/
// driver_gate.hpp): a gate that fails makes the plugin unavailable with the gate's reason before
// any of it is mapped (its preload is libkf_test_marker.so.1, whose constructor writes a marker
// file); a gate that holds (a library in the search roots, a device node, a folder with an ICD
// file) lets it load as it would without one; a malformed gate rejects the manifest, naming
// what is wrong; the shipped cuda and xpu plugins map nothing on a machine without their driver.
#include <dlfcn.h>

#include <fstream>
#include <string>
#include <vector>

#include "loader_fixture.hpp"

namespace loader_test {
namespace {

using DriverGate = LoaderTest;

const char* const kInstall = "the kernforge test driver";

json gate(const json& any_of) { return json{{"any_of", any_of}, {"install", kInstall}}; }

/// The ok plugin preloading the marker library, behind `driver`.
json gated_manifest(const json& driver) {
  json m = manifest_for("ok");
  m["preload"] = json::array({json{{"soname", KF_TEST_MARKER_SONAME}}});
  m["search"] = {"$ORIGIN", KF_TEST_MARKER_DIR, fs::path(KF_TEST_DEP_PATH).parent_path().string()};
  m["requires"] = {{"driver", driver}};
  return m;
}

/// Whether /proc/self/maps lists a file whose path holds `part`.
bool mapped(const std::string& part) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find(part) != std::string::npos) return true;
  }
  return false;
}

/// The marker file the marker library's constructor writes.
fs::path marker(const fs::path& tmp) {
  const fs::path m = tmp / "marker";
  set_env("KF_TEST_MARKER_FILE", m.string());
  return m;
}

void expect_gate_failed(const Staged& s, const fs::path& mark, const std::string& missing) {
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE);
  EXPECT_HAS(b.reason, missing);
  EXPECT_HAS(b.reason, std::string("Install ") + kInstall);
  EXPECT_FALSE(fs::exists(mark)) << "the preload's constructor ran: it was mapped";
  EXPECT_FALSE(mapped("libkf_test_marker")) << "the preload is mapped";
  EXPECT_FALSE(mapped(s.library.string())) << "the plugin library is mapped";
  const json r = report();
  const std::vector<json> gates = steps(r, "fault_ok", "driver");
  ASSERT_EQ(gates.size(), 1u) << r.dump(2);
  EXPECT_EQ(str_of(gates[0], "result"), "skipped");
  EXPECT_HAS(str_of(gates[0], "reason"), missing);
  EXPECT_TRUE(steps(r, "fault_ok", "preload").empty()) << r.dump(2);
  EXPECT_TRUE(steps(r, "fault_ok", "dlopen").empty()) << r.dump(2);
}

TEST_F(DriverGate, MissingLibraryMapsNeitherPreloadsNorThePlugin) {
  const fs::path mark = marker(tmp());
  const Staged s = stage(tmp() / "plugins", "ok",
                         gated_manifest(gate({{{"library", "libkf_no_such_driver.so.1"}}})));
  init_ok({s.folder});
  expect_gate_failed(s, mark, "libkf_no_such_driver.so.1");
  // An enumeration (which starts plugins deferred to first use) does not load it either.
  (void)kf_backend_count();
  EXPECT_FALSE(fs::exists(mark));
}

TEST_F(DriverGate, MissingDriverOfAFirstUsePluginIsUnavailableAtStartUp) {
  const fs::path mark = marker(tmp());
  json m = gated_manifest(gate({{{"path", (tmp() / "no_such_device").string()}},
                                {{"library", "libkf_no_such_driver.so.1"}}}));
  m["activation"] = "first_use";
  const Staged s = stage(tmp() / "plugins", "ok", m);
  init_ok({s.folder});
  EXPECT_TRUE(report_backends(report(), "fault_ok").size() == 1u) << "set aside, not judged";
  expect_gate_failed(s, mark, (tmp() / "no_such_device").string());
  EXPECT_HAS(backend("fault_ok").reason, "libkf_no_such_driver.so.1");
}

TEST_F(DriverGate, UnsetVariableIsLeftOutAndSaidSo) {
  const fs::path mark = marker(tmp());
  unset_env("KF_TEST_UNSET_GATE");
  const Staged s = stage(tmp() / "plugins", "ok",
                         gated_manifest(gate({{{"path", "$KF_TEST_UNSET_GATE/device"}}})));
  init_ok({s.folder});
  expect_gate_failed(s, mark, "$KF_TEST_UNSET_GATE is not set");
}

TEST_F(DriverGate, FolderWithoutTheSuffixFails) {
  const fs::path mark = marker(tmp());
  fs::create_directories(tmp() / "vendors");
  write_file(tmp() / "vendors" / "readme.txt", "no driver here");
  const Staged s = stage(tmp() / "plugins", "ok", gated_manifest(gate(
      {{{"folder", (tmp() / "vendors").string()}, {"suffix", ".icd"}}})));
  init_ok({s.folder});
  expect_gate_failed(s, mark, "with a *.icd file");
}

/// Loaded as without a gate: its preload ran, it serves faultdev, the gate step names `found`.
void expect_gate_met(const fs::path& mark, const std::string& found) {
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_LOADED);
  EXPECT_TRUE(fs::exists(mark)) << "the preload was not loaded";
  expect_faultdev_neg_works("fault_ok");
  const std::vector<json> gates = steps(report(), "fault_ok", "driver");
  ASSERT_EQ(gates.size(), 1u);
  EXPECT_EQ(str_of(gates[0], "result"), "ok");
  EXPECT_HAS(str_of(gates[0], "reason"), found);
}

TEST_F(DriverGate, LibraryInTheSearchRootsLetsItLoad) {
  const fs::path mark = marker(tmp());
  const Staged s = stage(tmp() / "plugins", "ok",
                         gated_manifest(gate({{{"library", "libkf_no_such_driver.so.1"}},
                                              {{"library", KF_TEST_DEP_SONAME}}})));
  init_ok({s.folder});
  expect_gate_met(mark, KF_TEST_DEP_SONAME);
}

TEST_F(DriverGate, DeviceNodeLetsItLoad) {
  const fs::path mark = marker(tmp());
  const Staged s = stage(tmp() / "plugins", "ok", gated_manifest(gate({{{"path", "/dev/null"}}})));
  init_ok({s.folder});
  expect_gate_met(mark, "/dev/null");
}

TEST_F(DriverGate, IcdFileInAFolderNamedByAVariableLetsItLoad) {
  const fs::path mark = marker(tmp());
  fs::create_directories(tmp() / "vendors");
  write_file(tmp() / "vendors" / "test.icd", "libkf_no_such_icd.so\n");
  set_env("KF_TEST_VENDORS", (tmp() / "vendors").string());
  const Staged s = stage(tmp() / "plugins", "ok", gated_manifest(gate(
      {{{"folder", "$KF_TEST_VENDORS"}, {"suffix", ".icd"}}})));
  init_ok({s.folder});
  expect_gate_met(mark, "test.icd");
}

// ------------------------------------------------------------------ malformed gates

using MalformedGate = LoaderTest;

/// A manifest whose "requires" has `driver` is rejected, the reason naming the file and `says`.
void expect_gate_rejected(LoaderTest& t, const fs::path& folder, const json& driver, const std::string& says) {
  json m = manifest_for("bad");
  m["requires"] = {{"driver", driver}};
  fs::create_directories(folder);
  fs::copy_file(built_plugin("ok"), folder / plugin_file_name("bad"));
  const fs::path p = fs::canonical(folder) / "fault_bad.json";
  write_file(p, m.dump(2));
  const std::vector<fs::path> paths{folder};
  ASSERT_EQ(t.init_for_test(paths), KF_OK);
  const BackendView b = backend_with_manifest(p);
  ASSERT_TRUE(b.found()) << describe_backends();
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, p.string());
  EXPECT_HAS(b.reason, says);
}

const json kLib = {{"library", "libcuda.so.1"}};

#define KF_BAD_GATE(name, says, ...)                                                  \
  TEST_F(MalformedGate, name) {                                                       \
    expect_gate_rejected(*this, tmp() / "plugins", json(__VA_ARGS__), says);          \
  }

KF_BAD_GATE(NotAnObject, "'driver' must be object", json::array({kLib}))
KF_BAD_GATE(UnknownKey, "unknown key 'anyof'",
            {{"any_of", {kLib}}, {"install", "x"}, {"anyof", 1}})
KF_BAD_GATE(NoAnyOf, "'any_of' is missing", {{"install", "x"}})
KF_BAD_GATE(AnyOfNotAnArray, "'any_of' must be array", {{"any_of", kLib}, {"install", "x"}})
KF_BAD_GATE(AnyOfEmpty, "is empty", {{"any_of", json::array()}, {"install", "x"}})
KF_BAD_GATE(EntryNotAnObject, "must be an array of objects",
            {{"any_of", {"libcuda.so.1"}}, {"install", "x"}})
KF_BAD_GATE(EntryUnknownKey, "unknown key 'soname'",
            {{"any_of", {{{"soname", "libcuda.so.1"}}}}, {"install", "x"}})
KF_BAD_GATE(EntryTwoKinds, "exactly one",
            {{"any_of", {{{"library", "libcuda.so.1"}, {"path", "/dev/nvidiactl"}}}},
             {"install", "x"}})
KF_BAD_GATE(EntryNoKind, "exactly one", {{"any_of", {json::object()}}, {"install", "x"}})
KF_BAD_GATE(LibraryNotAString, "'library' must be string",
            {{"any_of", {{{"library", 1}}}}, {"install", "x"}})
KF_BAD_GATE(LibraryEmpty, "not a library name", {{"any_of", {{{"library", ""}}}}, {"install", "x"}})
KF_BAD_GATE(LibraryIsAPath, "not a library name",
            {{"any_of", {{{"library", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"}}}},
             {"install", "x"}})
KF_BAD_GATE(LibraryWithASlash, "not a library name",
            {{"any_of", {{{"library", "nvidia/libcuda.so.1"}}}}, {"install", "x"}})
KF_BAD_GATE(LibraryWithDotDot, "not a library name",
            {{"any_of", {{{"library", "..libcuda.so.1"}}}}, {"install", "x"}})
KF_BAD_GATE(PathIsASoname, "not an absolute path",
            {{"any_of", {{{"path", "libcuda.so.1"}}}}, {"install", "x"}})
KF_BAD_GATE(PathEmpty, "not an absolute path", {{"any_of", {{{"path", ""}}}}, {"install", "x"}})
KF_BAD_GATE(PathWithDotDot, "holds '..'",
            {{"any_of", {{{"path", "/dev/../etc/passwd"}}}}, {"install", "x"}})
KF_BAD_GATE(FolderRelative, "not an absolute path",
            {{"any_of", {{{"folder", "OpenCL/vendors"}}}}, {"install", "x"}})
KF_BAD_GATE(SuffixWithoutFolder, "suffix without a folder",
            {{"any_of", {{{"path", "/dev/null"}, {"suffix", ".icd"}}}}, {"install", "x"}})
KF_BAD_GATE(SuffixWithASlash, "the suffix 'x/.icd'",
            {{"any_of", {{{"folder", "/etc"}, {"suffix", "x/.icd"}}}}, {"install", "x"}})
KF_BAD_GATE(NoInstall, "'install' is missing", {{"any_of", {kLib}}})
KF_BAD_GATE(InstallEmpty, "say what to install", {{"any_of", {kLib}}, {"install", ""}})
KF_BAD_GATE(InstallNotAString, "'install' must be string", {{"any_of", {kLib}}, {"install", true}})

// ------------------------------------------------------------------ the shipped plugins

/// Whether the dynamic loader itself can open `soname` (then the driver is there: skip).
bool driver_present(const char* soname) {
  void* h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (h == nullptr) h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
  return h != nullptr;  // never closed: a driver's library may not like being unloaded
}

/// The shipped plugin `name` (its manifest next to the CPU plugin's), after an enumeration:
/// unavailable naming `driver`, and none of `libraries` mapped.
void expect_shipped_maps_nothing(const char* name, const char* driver,
                                 const std::vector<std::string>& libraries) {
  const fs::path manifest = fs::path(KF_TEST_SHIPPED_PLUGIN_DIR) / (std::string(name) + ".json");
  if (!fs::exists(manifest)) GTEST_SKIP() << "the " << name << " backend is not built here";
  if (driver_present(driver)) GTEST_SKIP() << driver << " is installed here";
  ASSERT_GT(kf_backend_count(), 0);
  const BackendView b = backend(name);
  expect_state(b, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE);
  EXPECT_HAS(b.reason, driver);
  for (const std::string& lib : libraries) EXPECT_FALSE(mapped(lib)) << lib << " is mapped";
}

TEST_F(DriverGate, ShippedCudaMapsNoneOfItsLibrariesWithoutTheDriver) {
  init_ok({});
  expect_shipped_maps_nothing("cuda", "libcuda.so.1",
                              {"libkernforge_cuda", "libcublas", "libcudart", "libnvrtc"});
}

TEST_F(DriverGate, ShippedXpuMapsNoneOfItsLibrariesWithoutTheDriver) {
  unset_env("KERNFORGE_DISABLE_PLUGINS");
  unset_env("ZE_ENABLE_ALT_DRIVERS");
  init_ok({});
  expect_shipped_maps_nothing("xpu", "libze_intel_gpu.so.1",
                              {"libkernforge_xpu", "libze_loader"});
}

}  // namespace
}  // namespace loader_test
