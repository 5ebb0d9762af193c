// test_plugin_statuses.cpp — plugins that misreport: a device count that is negative or absurd
// (the plugin is refused), a kernel and an allocation that fail without set_error (the message
// names the op or slot, the backend and the status, never an earlier failure's), and statuses
// kf_status_t does not define, from a kernel, an allocation and init (KF_INTERNAL, the number
// in the message). Note [Plugin statuses and messages] in runtime/core/include/core/plugin_call.hpp.
#include <string>
#include <vector>

#include "loader_fixture.hpp"

namespace loader_test {
namespace {

using PluginStatuses = LoaderTest;

constexpr const char* kStale = "no_such_op_left_from_before";

/// Leaves this thread's last error naming kStale, as an unrelated earlier failure would.
void fail_unrelated() {
  kf_op_t op = nullptr;
  ASSERT_EQ(kf_op_find(kStale, &op), KF_NOT_FOUND);
  EXPECT_HAS(last_error(), kStale);
}

kf_device_t faultdev() {
  kf_device_t dev{};
  EXPECT_EQ(kf_device_parse("faultdev", &dev), KF_OK) << last_error();
  return dev;
}

/// A float32 tensor of `n` elements on `dev` (kf_tensor_from_data: allocate, then copy).
kf_status_t make_tensor(kf_device_t dev, int64_t n, Tensor& out) {
  const std::vector<float> x(static_cast<size_t>(n), 1.5f);
  const int64_t shape[1] = {n};
  return kf_tensor_from_data(x.data(), shape, 1, KF_FLOAT32, dev, out.out());
}

/// kf_neg fails with `want`, and its message names every word of `words` and not kStale.
void expect_neg_fails(kf_tensor_t t, kf_status_t want, const std::vector<std::string>& words) {
  fail_unrelated();
  Tensor r;
  EXPECT_EQ(kf_neg(t, r.out()), want) << last_error();
  const std::string msg = last_error();
  for (const std::string& w : words) EXPECT_HAS(msg, w);
  EXPECT_FALSE(contains(msg, kStale)) << "an earlier failure's message: " << msg;
}

void expect_refused_for_device_count(const std::string& variant, const std::string& count) {
  const BackendView b = backend("fault_" + variant);
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, "device_count");
  EXPECT_HAS(b.reason, count);
  kf_device_t dev{};
  if (kf_device_parse("faultdev", &dev) == KF_OK) {
    Tensor t;
    EXPECT_EQ(make_tensor(dev, 4, t), KF_UNAVAILABLE) << "a refused plugin serves faultdev";
  }
}

TEST_F(PluginStatuses, NegativeDeviceCountRefusesThePlugin) {
  init_ok({stage(tmp() / "plugins", "device_count_negative").folder});
  expect_refused_for_device_count("device_count_negative", "-1");
}

TEST_F(PluginStatuses, AbsurdDeviceCountRefusesThePlugin) {
  init_ok({stage(tmp() / "plugins", "device_count_huge").folder});
  expect_refused_for_device_count("device_count_huge", "1048576");
}

TEST_F(PluginStatuses, KernelFailingWithoutMessageIsNamed) {
  init_ok({stage(tmp() / "plugins", "silent_kernel").folder});
  expect_state(backend("fault_silent_kernel"), KF_BACKEND_LOADED);
  Tensor t;
  ASSERT_EQ(make_tensor(faultdev(), 4, t), KF_OK) << last_error();
  // The first call decides the kernel, the second one runs from the thread's call plan.
  for (int call = 0; call < 2; ++call) {
    expect_neg_fails(t.h, KF_INTERNAL, {"neg", "fault_silent_kernel", "KF_INTERNAL", "set_error"});
  }
}

TEST_F(PluginStatuses, AllocationFailingWithoutMessageIsNamed) {
  init_ok({stage(tmp() / "plugins", "silent_kernel").folder});
  fail_unrelated();
  Tensor big;
  EXPECT_EQ(make_tensor(faultdev(), 1 << 19, big), KF_OUT_OF_MEMORY) << last_error();
  const std::string msg = last_error();
  for (const char* w : {"fault_silent_kernel", "KF_OUT_OF_MEMORY", "2097152 bytes", "faultdev"}) {
    EXPECT_HAS(msg, w);
  }
  EXPECT_FALSE(contains(msg, kStale)) << "an earlier failure's message: " << msg;
}

TEST_F(PluginStatuses, UndefinedKernelStatusBecomesInternal) {
  init_ok({stage(tmp() / "plugins", "odd_status").folder});
  Tensor t;
  ASSERT_EQ(make_tensor(faultdev(), 4, t), KF_OK) << last_error();
  for (int call = 0; call < 2; ++call) {
    expect_neg_fails(t.h, KF_INTERNAL, {"neg", "fault_odd_status", "1234", "KF_INTERNAL"});
  }
}

TEST_F(PluginStatuses, UndefinedAllocationStatusBecomesInternalWithThePluginsMessage) {
  init_ok({stage(tmp() / "plugins", "odd_status").folder});
  Tensor big;
  EXPECT_EQ(make_tensor(faultdev(), 1 << 19, big), KF_INTERNAL) << last_error();
  EXPECT_HAS(last_error(), "-7");
  EXPECT_HAS(last_error(), "this allocation returns an odd status");
}

TEST_F(PluginStatuses, UndefinedInitStatusRejectsThePluginAsInternal) {
  init_ok({stage(tmp() / "plugins", "init_odd_status").folder});
  const BackendView b = backend("fault_init_odd_status");
  expect_state(b, KF_BACKEND_REJECTED, KF_INTERNAL);
  EXPECT_HAS(b.reason, "77");
  EXPECT_HAS(b.reason, "init");
}

}  // namespace
}  // namespace loader_test
