// The sweep through start-up: the first call of the C ABI (kf_init(NULL)) discovers and loads
// the CPU plugin, and with KERNFORGE_PLUGIN_PATH the oomdev plugin too (two device types, so a
// failure can come after one backend is already active). A failed start-up returns
// KF_OUT_OF_MEMORY and leaves the runtime unstarted: the next call starts it again, and then
// every plugin is loaded once (docs/loader.md, "Out of memory").
//
// Under AddressSanitizer the first sweep runs every point and the others, which go through the
// same start-up again, every 4th to 16th (sanitizer_stride): a child costs ~30 ms there.
#include <gtest/gtest.h>

#include <cstdlib>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

Phase startup(const char* name, Mode mode, std::vector<std::string> loaded,
              int64_t sanitizer_stride) {
  map_cpu_plugin_libraries();
  Phase p;
  p.name = name;
  p.mode = mode;
  p.sanitizer_stride = sanitizer_stride;
  p.action = [] { return kf_init(nullptr); };
  p.verify = [loaded](const Attempt& a) -> std::string {
    if (a.status != KF_OK) {
      if (std::string p = ok_or(kf_init(nullptr), "kf_init again"); !p.empty()) return p;
    }
    return check_runtime(loaded);
  };
  return p;
}

#define KF_REQUIRE_FRESH_PROCESS()                                                           \
  if (g_runtime_started_here) GTEST_SKIP() << "the runtime already started in this process; " \
                                              "run this test alone (ctest does)"

TEST(Startup, EveryAllocationOnce) {
  KF_REQUIRE_FRESH_PROCESS();
  unsetenv("KERNFORGE_PLUGIN_PATH");
  expect_clean(sweep(startup("startup (cpu)", Mode::Once, {"cpu"}, 1)));
}

TEST(Startup, MemoryStaysExhausted) {
  KF_REQUIRE_FRESH_PROCESS();
  unsetenv("KERNFORGE_PLUGIN_PATH");
  expect_clean(sweep(startup("startup (cpu), from N on", Mode::FromThenOn, {"cpu"}, 8)));
}

TEST(Startup, TwoDeviceTypes) {
  KF_REQUIRE_FRESH_PROCESS();
  setenv("KERNFORGE_PLUGIN_PATH", oomdev_folder(), 1);
  expect_clean(sweep(startup("startup (cpu + oomdev)", Mode::Once, {"cpu", "oomdev"}, 4)));
  unsetenv("KERNFORGE_PLUGIN_PATH");
}

// kf_backend_count and kf_op_count return a number, not a status: when the start-up they run
// fails, they count what is known (no backend; the core's ops), the thread's message says why,
// and the next call starts the runtime.
TEST(Startup, BackendCountWhenStartupFails) {
  KF_REQUIRE_FRESH_PROCESS();
  unsetenv("KERNFORGE_PLUGIN_PATH");
  map_cpu_plugin_libraries();
  Phase p;
  p.name = "startup through kf_backend_count";
  p.sanitizer_stride = 16;
  p.action = [] { return kf_backend_count() > 0 ? KF_OK : KF_OUT_OF_MEMORY; };
  p.verify = [](const Attempt& a) -> std::string {
    if (a.status != KF_OK && kf_backend_count() < 1) return "kf_backend_count() is 0 again";
    return check_runtime({"cpu"});
  };
  expect_clean(sweep(p));
}

TEST(Startup, OpCountWhenStartupFails) {
  KF_REQUIRE_FRESH_PROCESS();
  unsetenv("KERNFORGE_PLUGIN_PATH");
  map_cpu_plugin_libraries();
  Phase p;
  p.name = "startup through kf_op_count";
  p.sanitizer_stride = 16;
  p.action = [] { return kf_op_count() > 0 ? KF_OK : KF_INTERNAL; };
  p.verify = [](const Attempt&) { return check_runtime({"cpu"}); };
  expect_clean(sweep(p));
}

}  // namespace
}  // namespace oomtest
