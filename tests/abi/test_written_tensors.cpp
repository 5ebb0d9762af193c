// Ops that write several tensors at the C ABI (2.6): an in-place op that writes further
// arguments (adamw_step_ writes self, exp_avg and exp_avg_sq) returns them all through
// kf_op_call, and an op that writes tensor lists (fused_adamw) returns nothing.
#include "abi_util.hpp"

namespace kfabi {
namespace {

constexpr kf_status_t IA = KF_INVALID_ARGUMENT;

kf_op_t find(const char* name) {
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find(name, &op), KF_OK) << kf_last_error_message();
  return op;
}

float first(const Tensor& t) {
  float v[3] = {};
  EXPECT_EQ(kf_tensor_copy_to_host(t.get(), v, sizeof v), KF_OK) << kf_last_error_message();
  return v[0];
}

kf_status_t adamw(const Tensor& p, const Tensor& g, const Tensor& m, const Tensor& v) {
  return kf_adamw_step_(p.get(), g.get(), m.get(), v.get(), 0.1, 0.9, 0.999, 1e-8, 0.0, 1);
}

TEST(AbiWritten, InplaceOpReturnsEveryTensorItWrites) {
  const kf_op_t op = find("adamw_step_");
  EXPECT_EQ(kf_op_num_returns(op), 3);
  EXPECT_EQ(kf_op_is_inplace(op), 1);
  Tensor p = full({3}, 1), g = full({3}, 0.5), m = full({3}, 0), v = full({3}, 0);
  const kf_value_t args[] = {vtensor(p.get()), vtensor(g.get()), vtensor(m.get()),
                             vtensor(v.get()), kf_value_float(0.1), kf_value_float(0.9),
                             kf_value_float(0.999), kf_value_float(1e-8), kf_value_float(0.0),
                             vint(1)};
  kf_value_t results[3];
  ASSERT_EQ(kf_op_call(op, args, 10, results, 3), KF_OK) << kf_last_error_message();
  const kf_tensor_t want[3] = {p.get(), m.get(), v.get()};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(results[i].v.tensor, want[i]) << "result " << i << " is the written argument";
    kf_tensor_release(results[i].v.tensor);
  }
  EXPECT_NEAR(first(p), 0.9f, 1e-6f);  // the first step moves every entry by lr
  EXPECT_NEAR(first(m), 0.05f, 1e-6f);
  EXPECT_NEAR(first(v), 0.00025f, 1e-9f);
}

TEST(AbiWritten, ListOpReturnsNothing) {
  const kf_op_t op = find("fused_adamw");
  EXPECT_EQ(kf_op_num_returns(op), 0);
  EXPECT_EQ(kf_op_is_inplace(op), 0);
  Tensor p = full({3}, 1), g = full({3}, 0.5), m = full({3}, 0), v = full({3}, 0);
  const kf_tensor_t ps[] = {p.get()}, gs[] = {g.get()}, ms[] = {m.get()}, vs[] = {v.get()};
  ASSERT_EQ(kf_fused_adamw(ps, 1, gs, 1, ms, 1, vs, 1, 0.1, 0.9, 0.999, 1e-8, 0.0, 1), KF_OK)
      << kf_last_error_message();
  EXPECT_NEAR(first(p), 0.9f, 1e-6f);
  EXPECT_TRUE(fails_with(kf_fused_adamw(ps, 1, gs, 1, ms, 0, vs, 1, 0.1, 0.9, 0.999, 1e-8, 0.0,
                                        1),
                         IA, {{"exp_avgs", "0 entries", "1"}, {}, {}}));
}

TEST(AbiWritten, WrittenTensorsThatShareMemoryAreRefused) {
  Tensor p = full({3}, 1), g = full({3}, 0.5), v = full({3}, 0);
  EXPECT_TRUE(fails_with(adamw(p, g, p, v), IA, {{"self", "exp_avg", "share memory"}, {}, {}}));
  EXPECT_EQ(first(p), 1.0f) << "a refused update writes nothing";
}

TEST(AbiWritten, AnInputThatOverlapsAWrittenTensorIsReadFromACopy) {
  // grad is exactly the second moment: the kernel must read the moment's old value for both.
  Tensor p = full({3}, 1), m = full({3}, 0), v = full({3}, 0.5);
  ASSERT_EQ(adamw(p, v, m, v), KF_OK) << kf_last_error_message();
  EXPECT_NEAR(first(m), 0.05f, 1e-6f);  // (1 - beta1) * 0.5
  EXPECT_NEAR(first(v), 0.999f * 0.5f + 0.001f * 0.25f, 1e-6f);
}

}  // namespace
}  // namespace kfabi
