// An op call that re-enters the C ABI without end (Note [Op calls that re-enter the C ABI]):
// the reenter plugin's op calls itself again from its meta function. The core stops it 16 calls
// deep with KF_FAILED_PRECONDITION naming the ops under way, every level returns, nothing
// leaks, and the thread's next op call runs. Before the limit the process died of SIGSEGV.
#include <gtest/gtest.h>

#include <string>

#include "kernforge/kernforge.h"

namespace {

TEST(Reentry, AnOpThatCallsItselfAgainIsStoppedWithAnError) {
  ASSERT_EQ(kf_load_plugin(KF_REENTER_MANIFEST), KF_OK) << kf_last_error_message();
  kf_op_t op = nullptr;
  ASSERT_EQ(kf_op_find("reenter::again", &op), KF_OK) << kf_last_error_message();
  kf_memory_stats_t before{};
  before.struct_size = sizeof before;
  ASSERT_EQ(kf_memory_stats(kf_device_cpu(), &before), KF_OK);

  const int64_t shape[1] = {1};
  kf_tensor_t x = nullptr;
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, kf_device_cpu(), &x), KF_OK);
  kf_value_t args[1] = {kf_value_tensor(x)};
  kf_value_t result[1] = {kf_value_none()};
  EXPECT_EQ(kf_op_call(op, args, 1, result, 1), KF_FAILED_PRECONDITION);
  const std::string message = kf_last_error_message();
  EXPECT_NE(message.find("re-entered the C ABI 17 deep"), std::string::npos) << message;
  EXPECT_NE(message.find("reenter::again -> reenter::again"), std::string::npos) << message;

  kf_tensor_t sum = nullptr;  // the thread goes on: its depth is back to 0
  EXPECT_EQ(kf_add(x, x, kf_scalar_i64(1), &sum), KF_OK) << kf_last_error_message();
  kf_tensor_release(sum);
  kf_tensor_release(x);
  kf_memory_stats_t after{};
  after.struct_size = sizeof after;
  ASSERT_EQ(kf_memory_stats(kf_device_cpu(), &after), KF_OK);
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes) << "a level's tensor was not released";
}

}  // namespace
