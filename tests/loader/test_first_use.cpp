// test_first_use.cpp — plugins whose manifest says "activation": "first_use" (Note [Backends
// started on first use], runtime/core/include/core/first_use.hpp): at start-up they are checked and set
// aside with nothing of theirs loaded, not even their preloads; the CPU path never starts them;
// naming their device type, enumerating the backends or using their device type does, once.
#include <algorithm>
#include <string>
#include <vector>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <dlfcn.h>
#endif

namespace loader_test {
namespace {

using FirstUse = LoaderTest;

const std::string kDep = KF_TEST_DEP_SONAME;

/// The fault plugin `variant` (its device type: faultdev), set to start on first use.
Staged stage_first_use(const fs::path& folder, const std::string& variant, json manifest) {
  manifest["activation"] = "first_use";
  return stage(folder, variant, manifest);
}

std::vector<std::string> deferred_names() {
  std::vector<std::string> names;
  for (const json& d : report().value("deferred", json::array())) {
    names.push_back(str_of(d, "name"));
  }
  return names;
}

/// Whether the report's backends list a plugin called `name` (without starting anything).
bool published(const std::string& name) {
  for (const json& b : report().value("backends", json::array())) {
    if (str_of(b, "name") == name) return true;
  }
  return false;
}

bool waiting(const std::string& name) {
  const std::vector<std::string> names = deferred_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// (The shipped driver backends, opencl and xpu where built, wait too: other names may be there.)
void expect_waiting(const std::string& name) {
  EXPECT_TRUE(waiting(name)) << "not in the report's \"deferred\" list";
  EXPECT_FALSE(published(name)) << "published before it started";
}

void expect_started(const std::string& name) {
  EXPECT_FALSE(waiting(name)) << "still in the report's \"deferred\" list";
  EXPECT_TRUE(published(name));
  expect_state(backend(name), KF_BACKEND_LOADED);
}

TEST_F(FirstUse, IsSetAsideAtStartUpAndTheCpuPathNeverStartsIt) {
  const Staged s = stage_first_use(tmp() / "plugins", "ok", manifest_for("ok"));
  init_ok({s.folder});
  expect_waiting("fault_ok");
  // An op on the CPU (expect_cpu_add_works would list the backends first, which starts it).
  const float a[2] = {1.0f, 2.5f};
  const int64_t shape[1] = {2};
  Tensor ta, sum;
  ASSERT_EQ(kf_tensor_from_data(a, shape, 1, KF_FLOAT32, kf_device_cpu(), ta.out()), KF_OK)
      << last_error();
  ASSERT_EQ(kf_add(ta.h, ta.h, kf_scalar_i64(1), sum.out()), KF_OK) << last_error();
  EXPECT_EQ(to_host(sum.h, 2), (std::vector<float>{2.0f, 5.0f}));
  kf_device_t cpu{};
  ASSERT_EQ(kf_device_parse("cpu", &cpu), KF_OK) << last_error();
  expect_waiting("fault_ok");
}

TEST_F(FirstUse, NamingItsDeviceTypeStartsIt) {
  const Staged s = stage_first_use(tmp() / "plugins", "ok", manifest_for("ok"));
  init_ok({s.folder});
  expect_waiting("fault_ok");
  expect_faultdev_neg_works("fault_ok");  // kf_device_parse("faultdev") first
  expect_started("fault_ok");
}

TEST_F(FirstUse, EnumeratingTheBackendsStartsIt) {
  const Staged s = stage_first_use(tmp() / "plugins", "ok", manifest_for("ok"));
  init_ok({s.folder});
  expect_waiting("fault_ok");
  const int32_t n = kf_backend_count();
  EXPECT_GE(n, 2);
  expect_started("fault_ok");
  EXPECT_EQ(kf_backend_count(), n) << "started twice";
}

TEST_F(FirstUse, NothingOfItIsLoadedBeforeItStarts) {
#if defined(_WIN32)
  GTEST_SKIP() << "dlopen(RTLD_NOLOAD) is POSIX";
#else
  json m = manifest_for("needs_dep");
  m["preload"] = json::array({{{"soname", kDep}}});
  m["search"] = {"$ORIGIN/deps"};
  const Staged s = stage_first_use(tmp() / "plugins", "needs_dep", m);
  fs::create_directories(s.folder / "deps");
  fs::copy_file(KF_TEST_DEP_PATH, s.folder / "deps" / kDep);
  const auto mapped = [](const fs::path& p) {
    void* h = dlopen(p.c_str(), RTLD_NOLOAD | RTLD_LAZY);
    if (h != nullptr) dlclose(h);
    return h != nullptr;
  };
  init_ok({s.folder});
  expect_waiting("fault_needs_dep");
  EXPECT_FALSE(mapped(s.folder / "deps" / kDep)) << "its preload was loaded at start-up";
  EXPECT_FALSE(mapped(s.library)) << "the plugin was opened at start-up";
  (void)kf_backend_count();
  expect_started("fault_needs_dep");
  EXPECT_TRUE(mapped(s.folder / "deps" / kDep));
#endif
}

TEST_F(FirstUse, AnUnknownActivationRejectsTheManifest) {
  json m = manifest_for("ok");
  m["activation"] = "lazy";
  const Staged s = stage(tmp() / "plugins", "ok", m);
  init_ok({s.folder});
  const BackendView b = backend_with_manifest(s.manifest);
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "activation");
  EXPECT_HAS(b.reason, "first_use");
}

}  // namespace
}  // namespace loader_test
