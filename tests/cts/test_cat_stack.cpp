// CTS: cat and stack: values against a reference built here, every dtype, negative dims,
// strided inputs, type promotion, PyTorch's skip of 1-D empty tensors in cat, out= and the
// refused arguments (messages naming the input and its sizes).
#include "cts_util.hpp"

namespace cts {
namespace {

class CatStack : public CtsTest {};     // backend x every dtype
class CatStackAny : public CtsTest {};  // backend only (mixed dtypes, errors)

Values small(size_t n, double start, kf_dtype_t d) {
  Values v = iota(n, start);
  if (d == KF_BOOL) for (double& x : v) x = std::fmod(x, 2.0);
  if (d == KF_UINT8 || d == KF_INT8) for (double& x : v) x = std::fmod(x, 100.0);
  return v;
}

/// Row-major values of concatenating a (outer x na x inner) and b (outer x nb x inner).
Values ref_cat(const Values& a, int64_t na, const Values& b, int64_t nb, int64_t outer,
               int64_t inner) {
  Values out;
  for (int64_t o = 0; o < outer; ++o) {
    out.insert(out.end(), a.begin() + o * na * inner, a.begin() + (o + 1) * na * inner);
    out.insert(out.end(), b.begin() + o * nb * inner, b.begin() + (o + 1) * nb * inner);
  }
  return out;
}

kf_status_t cat(std::initializer_list<kf_tensor_t> ts, int64_t dim, Tensor& out) {
  std::vector<kf_tensor_t> v(ts);
  return kf_cat(v.data(), static_cast<int32_t>(v.size()), dim, out.put());
}
kf_status_t stack(std::initializer_list<kf_tensor_t> ts, int64_t dim, Tensor& out) {
  std::vector<kf_tensor_t> v(ts);
  return kf_stack(v.data(), static_cast<int32_t>(v.size()), dim, out.put());
}

TEST_P(CatStack, CatAlongEachDim) {
  const Values a = small(6, 0, dt()), b = small(4, 10, dt()), c = small(9, 20, dt());
  Tensor ta = make(a, {2, 3}), tb = make(b, {2, 2}), tc = make(c, {3, 3}), r1, r0, rn;
  CTS_ASSERT_OK(cat({ta.get(), tb.get()}, 1, r1));
  EXPECT_TRUE(matches(r1, ref_cat(a, 3, b, 2, 2, 1), {2, 5}, dt()));
  CTS_ASSERT_OK(cat({ta.get(), tb.get()}, -1, rn));
  EXPECT_TRUE(matches(rn, ref_cat(a, 3, b, 2, 2, 1), {2, 5}, dt()));
  CTS_ASSERT_OK(cat({ta.get(), tc.get(), ta.get()}, 0, r0));
  Values want = a;
  want.insert(want.end(), c.begin(), c.end());
  want.insert(want.end(), a.begin(), a.end());
  EXPECT_TRUE(matches(r0, want, {7, 3}, dt()));
}

TEST_P(CatStack, CatMiddleDimOf3D) {
  const Values a = small(12, 0, dt()), b = small(6, 50, dt());
  Tensor ta = make(a, {2, 2, 3}), tb = make(b, {2, 1, 3}), r;
  CTS_ASSERT_OK(cat({ta.get(), tb.get()}, -2, r));
  EXPECT_TRUE(matches(r, ref_cat(a, 2, b, 1, 2, 3), {2, 3, 3}, dt()));
}

TEST_P(CatStack, CatStridedInput) {
  const Values a = small(6, 0, dt()), b = small(4, 30, dt());
  Tensor base = make(a, {2, 3}), at, tb = make(b, {2, 2}), r;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, at.put()));  // [3, 2], strided
  CTS_ASSERT_OK(cat({at.get(), tb.get()}, 0, r));
  Values want = gather_strided(a, 0, {3, 2}, {1, 3});
  want.insert(want.end(), b.begin(), b.end());
  EXPECT_TRUE(matches(r, want, {5, 2}, dt()));
}

TEST_P(CatStack, CatSkipsOneDimEmptyTensors) {
  const Values a = small(6, 1, dt());
  Tensor ta = make(a, {2, 3}), empty = make(Values{}, {0}), r, only;
  CTS_ASSERT_OK(cat({empty.get(), ta.get(), empty.get()}, 1, r));
  EXPECT_TRUE(matches(r, a, {2, 3}, dt()));
  CTS_ASSERT_OK(cat({empty.get(), empty.get()}, 0, only));
  EXPECT_EQ(only.shape(), (Shape{0}));
  EXPECT_EQ(only.dtype(), dt());
}

TEST_P(CatStack, CatEmptyAlongDim) {
  const Values a = small(6, 1, dt());
  Tensor ta = make(a, {3, 2}), te = make(Values{}, {0, 2}), r;
  CTS_ASSERT_OK(cat({te.get(), ta.get(), te.get()}, 0, r));
  EXPECT_TRUE(matches(r, a, {3, 2}, dt()));
}

TEST_P(CatStack, CatOut) {
  const Values a = small(4, 0, dt()), b = small(2, 9, dt());
  Tensor ta = make(a, {2, 2}), tb = make(b, {2, 1});
  Tensor out = make(Values(6, 0.0), {2, 3});
  const std::vector<kf_tensor_t> ts{ta.get(), tb.get()};
  CTS_ASSERT_OK(kf_cat_out(ts.data(), 2, 1, out.get()));
  EXPECT_TRUE(matches(out, ref_cat(a, 2, b, 1, 2, 1), {2, 3}, dt()));
  // Into a transposed view: out^T is [2, 3] with strides {1, 2}.
  Tensor storage = make(Values(6, 0.0), {3, 2}), view;
  CTS_ASSERT_OK(kf_transpose(storage.get(), 0, 1, view.put()));
  CTS_ASSERT_OK(kf_cat_out(ts.data(), 2, 1, view.get()));
  EXPECT_TRUE(matches(view, ref_cat(a, 2, b, 1, 2, 1), {2, 3}, dt()));
  Tensor wrong = make(Values(4, 0.0), {2, 2});
  EXPECT_EQ(kf_cat_out(ts.data(), 2, 1, wrong.get()), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("cat"), std::string::npos);
}

TEST_P(CatStack, StackAlongEachDim) {
  const Values a = small(6, 0, dt()), b = small(6, 40, dt());
  Tensor ta = make(a, {2, 3}), tb = make(b, {2, 3}), r0, r1, r2, rn;
  CTS_ASSERT_OK(stack({ta.get(), tb.get()}, 0, r0));
  Values w0 = a;
  w0.insert(w0.end(), b.begin(), b.end());
  EXPECT_TRUE(matches(r0, w0, {2, 2, 3}, dt()));
  CTS_ASSERT_OK(stack({ta.get(), tb.get()}, 1, r1));
  EXPECT_TRUE(matches(r1, ref_cat(a, 1, b, 1, 2, 3), {2, 2, 3}, dt()));
  Values w2;
  for (size_t i = 0; i < 6; ++i) { w2.push_back(a[i]); w2.push_back(b[i]); }
  CTS_ASSERT_OK(stack({ta.get(), tb.get()}, 2, r2));
  EXPECT_TRUE(matches(r2, w2, {2, 3, 2}, dt()));
  CTS_ASSERT_OK(stack({ta.get(), tb.get()}, -1, rn));
  EXPECT_TRUE(matches(rn, w2, {2, 3, 2}, dt()));
}

TEST_P(CatStack, StackZeroDimStridedAndOut) {
  Tensor x = make(Values{1}, {}), y = make(Values{0}, {}), r;
  CTS_ASSERT_OK(stack({x.get(), y.get(), x.get()}, 0, r));
  EXPECT_TRUE(matches(r, Values{1, 0, 1}, {3}, dt()));
  const Values a = small(6, 0, dt());
  Tensor base = make(a, {2, 3}), at, s;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, at.put()));
  CTS_ASSERT_OK(stack({at.get()}, 0, s));
  EXPECT_TRUE(matches(s, gather_strided(a, 0, {3, 2}, {1, 3}), {1, 3, 2}, dt()));
  Tensor out = make(Values(3, 0.0), {3});
  const std::vector<kf_tensor_t> ts{x.get(), y.get(), y.get()};
  CTS_ASSERT_OK(kf_stack_out(ts.data(), 3, 0, out.get()));
  EXPECT_TRUE(matches(out, Values{1, 0, 0}, {3}, dt()));
}

TEST_P(CatStackAny, TypePromotion) {
  Tensor i = make(Values{1, 2}, {2}, KF_INT32), f = make(Values{0.5}, {1}, KF_FLOAT32);
  Tensor b = make(Values{1, 0}, {2}, KF_BOOL), l = make(Values{7}, {1}, KF_INT64);
  Tensor e64 = make(Values{}, {0}, KF_FLOAT64), r1, r2, r3, r4;
  CTS_ASSERT_OK(cat({i.get(), f.get()}, 0, r1));
  EXPECT_TRUE(matches(r1, Values{1, 2, 0.5}, {3}, KF_FLOAT32));
  CTS_ASSERT_OK(cat({b.get(), l.get()}, 0, r2));
  EXPECT_TRUE(matches(r2, Values{1, 0, 7}, {3}, KF_INT64));
  CTS_ASSERT_OK(cat({e64.get(), f.get()}, 0, r3));  // a skipped tensor still promotes
  EXPECT_TRUE(matches(r3, Values{0.5}, {1}, KF_FLOAT64));
  Tensor i2 = make(Values{3}, {1}, KF_INT32);
  CTS_ASSERT_OK(stack({i2.get(), f.get()}, 0, r4));
  EXPECT_TRUE(matches(r4, Values{3, 0.5}, {2, 1}, KF_FLOAT32));
}

TEST_P(CatStackAny, RefusedArguments) {
  Tensor a = make(Values(6, 1.0), {2, 3}, KF_FLOAT32), b = make(Values(8, 1.0), {2, 4}, KF_FLOAT32);
  Tensor c = make(Values(3, 1.0), {3}, KF_FLOAT32), z = make(Values{1}, {}, KF_FLOAT32), r;
  expect_invalid_argument(cat({a.get(), b.get()}, 0, r), {"cat", "tensor 1", "[2, 4]", "[2, 3]"});
  expect_invalid_argument(cat({a.get(), c.get()}, 0, r), {"cat", "tensor 1", "dims"});
  expect_invalid_argument(cat({a.get(), z.get()}, 0, r), {"cat", "tensor 1", "0-dim"});
  expect_invalid_argument(cat({a.get(), a.get()}, 2, r), {"cat", "dim 2"});
  expect_invalid_argument(kf_cat(nullptr, 0, 0, r.put()), {"cat", "non-empty"});
  expect_invalid_argument(stack({a.get(), b.get()}, 0, r), {"stack", "tensor 1", "[2, 4]"});
  expect_invalid_argument(stack({a.get(), a.get()}, 3, r), {"stack", "dim 3"});
  expect_invalid_argument(kf_stack(nullptr, 0, 0, r.put()), {"stack", "non-empty"});
  kf_tensor_t released = nullptr;
  CTS_ASSERT_OK(kf_tensor_empty(nullptr, 0, KF_FLOAT32, dev(), &released));
  kf_tensor_release(released);
  expect_invalid_argument(cat({a.get(), released}, 0, r), {"cat", "tensor 1"});
}

TEST_P(CatStackAny, InputsOnTwoDevicesRefused) {
  if (dev().type == KF_DEVICE_CPU) GTEST_SKIP() << "needs a device besides the CPU";
  Tensor here = make(Values{1, 2}, {2}, KF_FLOAT32);
  Tensor cpu = make_tensor(Values{3, 4}, {2}, KF_FLOAT32, kf_device_t{KF_DEVICE_CPU, 0}), r;
  expect_invalid_argument(cat({here.get(), cpu.get()}, 0, r), {"cat", "tensor 1", "one device"});
  expect_invalid_argument(stack({here.get(), cpu.get()}, 0, r),
                          {"stack", "tensor 1", "one device"});
}

CTS_INSTANTIATE(CatStack, params_all());
CTS_INSTANTIATE(CatStackAny, params_any());

}  // namespace
}  // namespace cts
