// The sweep through kf_load_plugin of the oomdev plugin after start-up: a manifest, a library,
// init, the registrar's transaction (two kernels and an op the plugin defines with its own meta)
// and the publication. A load that runs out of host memory records nothing and rolls the plugin
// back (its shutdown runs: LeakSanitizer sees its state freed); loading it again works. One
// point is the plugin's own: when its init cannot allocate its state it returns
// KF_OUT_OF_MEMORY, and the loader records that as it records any init failure.
#include <gtest/gtest.h>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

// oomdev::twice on the oomdev device gives 2x.
std::string check_twice() {
  std::string problem;
  kf_tensor_t x = make_f32({3}, {1, 2, 3}, oomdev(), problem);
  if (x == nullptr) return problem;
  kf_op_t op = nullptr;
  const kf_value_t arg = kf_value_tensor(x);
  kf_value_t result = kf_value_none();
  problem = ok_or(kf_op_find("oomdev::twice", &op), "kf_op_find(oomdev::twice)");
  if (problem.empty()) problem = ok_or(kf_op_call(op, &arg, 1, &result, 1), "oomdev::twice");
  if (problem.empty()) problem = check_values(result.v.tensor, {2, 4, 6});
  if (result.tag == KF_VALUE_TENSOR) kf_tensor_release(result.v.tensor);
  kf_tensor_release(x);
  return problem;
}

Phase load_oomdev(const char* name, Mode mode) {
  Phase p;
  p.name = name;
  p.mode = mode;
  p.sanitizer_stride = mode == Mode::Once ? 1 : 4;
  p.action = [] { return kf_load_plugin(oomdev_manifest()); };
  p.verify = [](const Attempt& a) -> std::string {
    if (a.status != KF_OK && init_said_out_of_memory()) return check_runtime({"cpu"});
    if (a.status != KF_OK) {
      if (records_named("oomdev") != 0) return "a failed load left a record of oomdev";
      const kf_status_t again = kf_load_plugin(oomdev_manifest());
      if (std::string p = ok_or(again, "kf_load_plugin again"); !p.empty()) return p;
    }
    if (records_named("oomdev") != 1) return "oomdev is not recorded exactly once";
    if (std::string p = check_runtime({"cpu", "oomdev"}); !p.empty()) return p;
    return check_twice();
  };
  return p;
}

class PluginLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    g_runtime_started_here = true;
    ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
    if (records_named("oomdev") != 0) {
      GTEST_SKIP() << "oomdev is already loaded in this process; run this test alone (ctest does)";
    }
  }
};

TEST_F(PluginLoad, EveryAllocationOnce) {
  expect_clean(sweep(load_oomdev("kf_load_plugin(oomdev)", Mode::Once)));
}

TEST_F(PluginLoad, MemoryStaysExhausted) {
  expect_clean(sweep(load_oomdev("kf_load_plugin(oomdev), from N on", Mode::FromThenOn)));
}

}  // namespace
}  // namespace oomtest
