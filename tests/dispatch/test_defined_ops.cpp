// Ops plugins define (ABI 1.2) and what a backend adds to dispatch: the plain C plugin cdev
// defines cdev::scale (its own meta) and cdev::axpy (the core's broadcast_binary rule) and
// serves them; testasync, loaded after it, registers a kernel for cdev::scale, a kernel that
// overrides the composite `linear`, and a boxed fallback of its own for int16. Helpers:
// dispatch_util.hpp.
#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

/// kf_op_call of op `name` with `args`; the result in `out`.
kf_status_t call(const char* name, std::vector<kf_value_t> args, T& out) {
  kf_op_t op = nullptr;
  if (kf_op_find(name, &op) != KF_OK) return KF_NOT_FOUND;
  kf_value_t result = kf_value_none();
  const kf_status_t s =
      kf_op_call(op, args.data(), static_cast<int32_t>(args.size()), &result, 1);
  if (s == KF_OK) out.h = result.v.tensor;
  return s;
}

bool listed(const std::string& name) {
  for (int32_t i = 0; i < kf_op_count(); ++i) {
    kf_op_t op = nullptr;
    if (kf_op_at(i, &op) == KF_OK && name == kf_op_name(op)) return true;
  }
  return false;
}

// ------------------------------------------------------------ ops of a C plugin

TEST_F(Async, CPluginDefinesOpsThatAreListedAndCallable) {
  EXPECT_TRUE(listed("cdev::scale"));
  EXPECT_TRUE(listed("cdev::axpy"));
  kf_op_t op = nullptr;
  ASSERT_EQ(kf_op_find("cdev::scale", &op), KF_OK) << last_error();
  EXPECT_STREQ(kf_op_schema(op), "cdev::scale(Tensor self, float factor) -> Tensor");
  EXPECT_STREQ(kf_op_doc(op), "self times factor (float32, float64).");
  T a, r;
  make<float>(a, {1, 2, 3, 4, 5, 6}, {2, 3}, KF_FLOAT32, cdev);
  ASSERT_EQ(call("cdev::scale", {kf_value_tensor(a), kf_value_float(2.5)}, r), KF_OK)
      << last_error();
  EXPECT_EQ(device_name(device_of(r)), "cdev:0");
  EXPECT_EQ(host<float>(r), (std::vector<float>{2.5, 5, 7.5, 10, 12.5, 15}));
  // A strided view reaches the kernel as it is.
  T at, rt;
  ASSERT_EQ(kf_transpose(a, 0, 1, at.out()), KF_OK) << last_error();
  ASSERT_EQ(call("cdev::scale", {kf_value_tensor(at), kf_value_float(-1)}, rt), KF_OK)
      << last_error();
  EXPECT_EQ(host<float>(rt), (std::vector<float>{-1, -4, -2, -5, -3, -6}));
}

TEST_F(Async, CPluginOpWithACoreMetaRuleBroadcasts) {
  T a, b, r, r2;
  make<float>(a, {1, 2, 3, 4, 5, 6}, {2, 3}, KF_FLOAT32, cdev);
  make<float>(b, {10, 20, 30}, {3}, KF_FLOAT32, cdev);
  ASSERT_EQ(call("cdev::axpy", {kf_value_tensor(a), kf_value_tensor(b)}, r), KF_OK) << last_error();
  EXPECT_EQ(host<float>(r), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  const kf_value_t alpha = kf_value_scalar(kf_scalar_i64(-2));
  ASSERT_EQ(call("cdev::axpy", {kf_value_tensor(a), kf_value_tensor(b), alpha}, r2), KF_OK)
      << last_error();
  EXPECT_EQ(host<float>(r2), (std::vector<float>{-19, -38, -57, -16, -35, -54}));
}

TEST_F(Async, DefinedOpMetaRefusesBadInput) {
  T a, r;
  make<int32_t>(a, {1, 2}, {2}, KF_INT32, cdev);
  EXPECT_EQ(call("cdev::scale", {kf_value_tensor(a), kf_value_float(2)}, r), KF_INVALID_ARGUMENT);
  EXPECT_HAS(last_error(), "cdev::scale: self must be float32 or float64");
  T b;
  make<float>(b, {1, 2}, {2}, KF_FLOAT32, cdev);
  EXPECT_EQ(call("cdev::scale", {kf_value_tensor(b)}, r), KF_INVALID_ARGUMENT);
  EXPECT_HAS(last_error(), "factor");
}

TEST_F(Async, PluginLoadedLaterServesAnOpAnotherPluginDefined) {
  T a, r;
  make<float>(a, {1, -2, 3}, {3}, KF_FLOAT32, ta0);
  const long long before = kf_testasync_scale_calls.load();
  ASSERT_EQ(call("cdev::scale", {kf_value_tensor(a), kf_value_float(3)}, r), KF_OK) << last_error();
  EXPECT_EQ(host<float>(r), (std::vector<float>{3, -6, 9}));
  EXPECT_EQ(kf_testasync_scale_calls.load(), before + 1);
  const kf_kernel_info_t info = kernel_info("cdev::scale", "testasync");
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND);
  EXPECT_HAS(info.provenance, "testdev_kernels.cpp");
  // The CPU has no kernel for it (and is not a fallback for itself).
  T c, rc;
  make<float>(c, {1}, {1}, KF_FLOAT32, cpu);
  EXPECT_EQ(call("cdev::scale", {kf_value_tensor(c), kf_value_float(3)}, rc), KF_UNIMPLEMENTED);
  EXPECT_HAS(last_error(), "cdev::scale");
  EXPECT_HAS(last_error(), "cdev, testasync");
}

// ------------------------------------------------------ a composite overridden

TEST_F(Async, BackendKernelOverridesTheLinearComposite) {
  T x, w, bias, r, rb, w1, r1;
  make<float>(x, {1, 2, 3, 4, 5, 6}, {2, 3}, KF_FLOAT32, ta0);  // (2, in 3)
  make<float>(w, {1, 0, -1, 2, 1, 0}, {2, 3}, KF_FLOAT32, ta0); // (out 2, in 3)
  make<float>(bias, {10, 20}, {2}, KF_FLOAT32, ta0);
  const long long before = kf_testasync_linear_calls.load();
  ASSERT_EQ(kf_linear(x, w, nullptr, r.out()), KF_OK) << last_error();
  EXPECT_EQ(host<float>(r), (std::vector<float>{-2, 4, -2, 13}));
  ASSERT_EQ(kf_linear(x, w, bias, rb.out()), KF_OK) << last_error();
  EXPECT_EQ(host<float>(rb), (std::vector<float>{8, 24, 8, 33}));
  make<float>(w1, {1, 1, 1}, {3}, KF_FLOAT32, ta0);  // 1-D weight: a dot product per row
  ASSERT_EQ(kf_linear(x, w1, nullptr, r1.out()), KF_OK) << last_error();
  EXPECT_EQ(host<float>(r1), (std::vector<float>{6, 15}));
  EXPECT_EQ(kf_testasync_linear_calls.load(), before + 3);
  const kf_kernel_info_t info = kernel_info("linear", "testasync");
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND);
  EXPECT_EQ(info.dtype_mask, 1u << KF_FLOAT32);
  EXPECT_EQ(kernel_info("linear", "cpu").kind, KF_KERNEL_COMPOSITE);
}

TEST_F(Async, CompositeStillServesDtypesTheOverrideLacks) {
  T x, w, r;
  make<double>(x, {1, 2, 3, 4}, {2, 2}, KF_FLOAT64, ta0);
  make<double>(w, {1, 1, 0, 1}, {2, 2}, KF_FLOAT64, ta0);
  const long long before = kf_testasync_linear_calls.load();
  ASSERT_EQ(kf_linear(x, w, nullptr, r.out()), KF_OK) << last_error();
  EXPECT_EQ(host<double>(r), (std::vector<double>{3, 2, 7, 4}));
  EXPECT_EQ(kf_testasync_linear_calls.load(), before) << "the float32 kernel ran for float64";
  // The meta refuses what the composite would: shapes that do not fit.
  T bad, rbad;
  make<double>(bad, {1, 2, 3}, {3}, KF_FLOAT64, ta0);
  EXPECT_EQ(kf_linear(x, bad, nullptr, rbad.out()), KF_INVALID_ARGUMENT);
  EXPECT_HAS(last_error(), "linear");
}

// ------------------------------------------------------ a backend's own fallback

TEST_F(Async, BackendFallbackRunsBeforeTheCpuFallback) {
  T a, b, n, m;
  make<int16_t>(a, {1, -2, 300}, {3}, KF_INT16, ta0);
  make<int16_t>(b, {2, 3, 4}, {3}, KF_INT16, ta0);
  const long long before = kf_testasync_fallback_calls.load();
  ASSERT_EQ(kf_neg(a, n.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_mul(a, b, m.out()), KF_OK) << last_error();
  EXPECT_EQ(host<int16_t>(n), (std::vector<int16_t>{-1, 2, -300}));
  EXPECT_EQ(host<int16_t>(m), (std::vector<int16_t>{2, -6, 1200}));
  EXPECT_EQ(kf_testasync_fallback_calls.load(), before + 2);
  const kf_kernel_info_t info = kernel_info("neg", "testasync");
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND_FALLBACK);
  EXPECT_EQ(info.dtype_mask, 1u << KF_INT16);
  // Other dtypes go on to the CPU fallback.
  T c, nc;
  make<int32_t>(c, {5, -6}, {2}, KF_INT32, ta0);
  ASSERT_EQ(kf_neg(c, nc.out()), KF_OK) << last_error();
  EXPECT_EQ(host<int32_t>(nc), (std::vector<int32_t>{-5, 6}));
  EXPECT_EQ(kf_testasync_fallback_calls.load(), before + 2);
}

TEST_F(Async, BackendFallbackMayRefuseAnOp) {
  T a, r;
  make<int16_t>(a, {1, -2}, {2}, KF_INT16, ta0);
  EXPECT_EQ(kf_abs(a, r.out()), KF_UNIMPLEMENTED);
  EXPECT_HAS(last_error(), "serves neg and mul only");
  EXPECT_HAS(last_error(), "abs");
}

}  // namespace
}  // namespace dispatch_test
