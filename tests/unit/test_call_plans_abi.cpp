// Call plans (Note [Call plans]) through the C ABI: a thread repeats calls of one op with other
// shapes, dtypes, scalars, int lists and handles, and every call must answer as the first one
// of its kind does. A plan that matched too loosely would return a wrong shape or value here.
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "abi_unit_util.hpp"

namespace {

using kfunit::kCpu;

/// Owns one tensor reference.
struct Owned {
  kf_tensor_t h = nullptr;
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { kf_tensor_release(h); }
  kf_tensor_t* out() { return &h; }
  operator kf_tensor_t() const { return h; }  // NOLINT: implicit on purpose
};

template <class V>
void make(Owned& t, const std::vector<V>& values, std::vector<int64_t> shape, kf_dtype_t dtype) {
  ASSERT_EQ(kf_tensor_from_data(values.data(), shape.data(), static_cast<int32_t>(shape.size()),
                                dtype, kCpu, t.out()),
            KF_OK)
      << kf_last_error_message();
}

template <class V>
std::vector<V> values_of(kf_tensor_t t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK) << kf_last_error_message();
  std::vector<V> v(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(t, v.data(), v.size() * sizeof(V)), KF_OK)
      << kf_last_error_message();
  return v;
}

std::vector<int64_t> shape_of(kf_tensor_t t) {
  int32_t ndim = 0;
  const int64_t* shape = nullptr;
  EXPECT_EQ(kf_tensor_ndim(t, &ndim), KF_OK) << kf_last_error_message();
  EXPECT_EQ(kf_tensor_shape(t, &shape), KF_OK) << kf_last_error_message();
  return std::vector<int64_t>(shape, shape + ndim);
}

kf_dtype_t dtype_of(kf_tensor_t t) {
  kf_dtype_t d = KF_DTYPE_UNDEFINED;
  EXPECT_EQ(kf_tensor_dtype(t, &d), KF_OK) << kf_last_error_message();
  return d;
}

TEST(CallPlans, RepeatedAddsFollowShapeDtypeAndScalar) {
  KF_REQUIRE_CPU();
  Owned a2, a3, m22, d2, i2;
  make<float>(a2, {1, 2}, {2}, KF_FLOAT32);
  make<float>(a3, {1, 2, 3}, {3}, KF_FLOAT32);
  make<float>(m22, {1, 2, 3, 4}, {2, 2}, KF_FLOAT32);
  make<double>(d2, {0.5, 1.5}, {2}, KF_FLOAT64);
  make<int32_t>(i2, {7, 9}, {2}, KF_INT32);
  for (int round = 0; round < 3; ++round) {  // later rounds run on the kept plans
    Owned r1, r2, r3, r4, r5, r6;
    ASSERT_EQ(kf_add(a2, a2, kf_scalar_f64(1), r1.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(values_of<float>(r1), (std::vector<float>{2, 4}));
    ASSERT_EQ(kf_add(a2, a2, kf_scalar_f64(2), r2.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(values_of<float>(r2), (std::vector<float>{3, 6})) << "alpha 2 ran with alpha 1";
    ASSERT_EQ(kf_add(a3, a3, kf_scalar_f64(1), r3.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(shape_of(r3), (std::vector<int64_t>{3}));
    EXPECT_EQ(values_of<float>(r3), (std::vector<float>{2, 4, 6}));
    ASSERT_EQ(kf_add(m22, m22, kf_scalar_f64(1), r4.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(shape_of(r4), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(values_of<float>(r4), (std::vector<float>{2, 4, 6, 8}));
    ASSERT_EQ(kf_add(d2, d2, kf_scalar_f64(1), r5.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(dtype_of(r5), KF_FLOAT64);
    EXPECT_EQ(values_of<double>(r5), (std::vector<double>{1, 3}));
    ASSERT_EQ(kf_add(i2, i2, kf_scalar_i64(3), r6.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(dtype_of(r6), KF_INT32);
    EXPECT_EQ(values_of<int32_t>(r6), (std::vector<int32_t>{28, 36}));
  }
}

TEST(CallPlans, MixedDtypesAndBroadcastingAfterAPlannedCall) {
  KF_REQUIRE_CPU();
  Owned f2, d2, row, col;
  make<float>(f2, {1, 2}, {2}, KF_FLOAT32);
  make<double>(d2, {10, 20}, {2}, KF_FLOAT64);
  make<float>(row, {1, 2}, {1, 2}, KF_FLOAT32);
  make<float>(col, {10, 20}, {2, 1}, KF_FLOAT32);
  for (int round = 0; round < 3; ++round) {
    Owned same, mixed, bcast;
    ASSERT_EQ(kf_add(f2, f2, kf_scalar_f64(1), same.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(values_of<float>(same), (std::vector<float>{2, 4}));
    ASSERT_EQ(kf_add(f2, d2, kf_scalar_f64(1), mixed.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(dtype_of(mixed), KF_FLOAT64);
    EXPECT_EQ(values_of<double>(mixed), (std::vector<double>{11, 22}));
    ASSERT_EQ(kf_add(row, col, kf_scalar_f64(1), bcast.out()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(shape_of(bcast), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(values_of<float>(bcast), (std::vector<float>{11, 12, 21, 22}));
  }
}

TEST(CallPlans, IntListArgumentsAreComparedByContent) {
  KF_REQUIRE_CPU();
  Owned m;
  make<float>(m, {1, 2, 3, 4, 5, 6}, {2, 3}, KF_FLOAT32);
  int64_t dim[1] = {0};  // one buffer, rewritten: the plan must compare what it holds
  for (int round = 0; round < 3; ++round) {
    Owned over_rows, over_cols;
    dim[0] = 0;
    ASSERT_EQ(kf_sum(m, dim, 1, false, KF_DTYPE_UNDEFINED, over_rows.out()), KF_OK)
        << kf_last_error_message();
    EXPECT_EQ(shape_of(over_rows), (std::vector<int64_t>{3}));
    EXPECT_EQ(values_of<float>(over_rows), (std::vector<float>{5, 7, 9}));
    dim[0] = 1;
    ASSERT_EQ(kf_sum(m, dim, 1, false, KF_DTYPE_UNDEFINED, over_cols.out()), KF_OK)
        << kf_last_error_message();
    EXPECT_EQ(shape_of(over_cols), (std::vector<int64_t>{2}));
    EXPECT_EQ(values_of<float>(over_cols), (std::vector<float>{6, 15}));
  }
}

TEST(CallPlans, AReleasedHandleIsRefusedAfterAPlannedCall) {
  KF_REQUIRE_CPU();
  Owned keep;
  make<float>(keep, {1, 2}, {2}, KF_FLOAT32);
  kf_tensor_t gone = nullptr;
  const int64_t shape[] = {2};
  ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, kCpu, &gone), KF_OK) << kf_last_error_message();
  for (int i = 0; i < 3; ++i) {
    Owned r;
    ASSERT_EQ(kf_add(keep, gone, kf_scalar_f64(1), r.out()), KF_OK) << kf_last_error_message();
  }
  ASSERT_EQ(kf_tensor_release(gone), KF_OK);
  kf_tensor_t out = nullptr;
  EXPECT_EQ(kf_add(keep, gone, kf_scalar_f64(1), &out), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("released"), std::string::npos)
      << kf_last_error_message();
  EXPECT_EQ(out, nullptr);
  kf_tensor_t null_arg = nullptr;
  EXPECT_EQ(kf_add(keep, nullptr, kf_scalar_f64(1), &null_arg), KF_INVALID_ARGUMENT);
  EXPECT_EQ(null_arg, nullptr);
}

TEST(CallPlans, AThreadsPlansEndWithIt) {
  KF_REQUIRE_CPU();
  Owned a;
  make<float>(a, {1, 2}, {2}, KF_FLOAT32);
  // Threads that plan and end: their tables are freed at exit (the sanitizer jobs see a leak
  // otherwise) and a fresh thread plans from scratch with the same answers.
  for (int t = 0; t < 4; ++t) {
    std::vector<float> got;
    std::thread([&] {
      for (int i = 0; i < 3; ++i) {
        kf_tensor_t r = nullptr;
        if (kf_add(a, a, kf_scalar_f64(1), &r) != KF_OK) return;
        got = values_of<float>(r);
        kf_tensor_release(r);
      }
    }).join();
    EXPECT_EQ(got, (std::vector<float>{2, 4})) << "thread " << t;
  }
}

}  // namespace
