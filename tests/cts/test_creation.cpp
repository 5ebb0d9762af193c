// CTS: creation ops (empty, zeros, ones, full, arange, *_like) and tensor construction.
#include "cts_util.hpp"

namespace cts {
namespace {

class Creation : public CtsTest {};     // backend x dtype
class CreationAny : public CtsTest {};  // backend only (dtype inference)

TEST_P(Creation, TensorEmptyShapeDtype) {
  const Shape s{2, 3, 4};
  Tensor t;
  CTS_ASSERT_OK(kf_tensor_empty(s.data(), 3, dt(), dev(), t.put()));
  EXPECT_EQ(t.ndim(), 3);
  EXPECT_EQ(t.shape(), s);
  EXPECT_EQ(t.strides(), (Shape{12, 4, 1}));
  EXPECT_EQ(t.dtype(), dt());
  EXPECT_EQ(t.numel(), 24);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.device().type, dev().type);
  EXPECT_EQ(t.device().index, dev().index);
}

TEST_P(Creation, EmptyOp) {
  const Shape s{3, 5};
  Tensor t;
  CTS_ASSERT_OK(kf_empty(s.data(), 2, dt(), dev(), t.put()));
  EXPECT_EQ(t.shape(), s);
  EXPECT_EQ(t.strides(), (Shape{5, 1}));
  EXPECT_EQ(t.dtype(), dt());
  EXPECT_EQ(t.device().type, dev().type);
}

TEST_P(Creation, FromDataRoundTrip) {
  const Values v = in({1, -2, 3, 4, 0, 7});
  Tensor t = make(v, {2, 3});
  EXPECT_TRUE(matches(t, v, {2, 3}, dt()));
}

TEST_P(Creation, Zeros) {
  CTS_REQUIRE(dt(), "zeros");
  const Shape s{4, 3};
  Tensor t;
  CTS_ASSERT_OK(kf_zeros(s.data(), 2, dt(), dev(), t.put()));
  EXPECT_TRUE(matches(t, Values(12, 0.0), s, dt()));
  EXPECT_EQ(t.device().type, dev().type);
}

TEST_P(Creation, Ones) {
  CTS_REQUIRE(dt(), "ones");
  const Shape s{2, 1, 5};
  Tensor t;
  CTS_ASSERT_OK(kf_ones(s.data(), 3, dt(), dev(), t.put()));
  EXPECT_TRUE(matches(t, Values(10, 1.0), s, dt()));
}

TEST_P(Creation, FullIntScalar) {
  CTS_REQUIRE(dt(), "full");
  const Shape s{3, 2};
  const double v = dt() == KF_UINT8 ? 7 : -7;
  Tensor t, big;
  CTS_ASSERT_OK(kf_full(s.data(), 2, kf_scalar_i64(static_cast<int64_t>(v)), dt(), dev(), t.put()));
  EXPECT_TRUE(matches(t, Values(6, v), s, dt()));
  // The largest value of the narrow integer dtypes (and one float16/bfloat16 hold exactly).
  const double top = dt() == KF_INT8 ? 127 : dt() == KF_UINT8 ? 255 : dt() == KF_INT16 ? 32767
                     : dt() == KF_BOOL ? 1 : 2048;
  CTS_ASSERT_OK(kf_full(s.data(), 2, kf_scalar_i64(static_cast<int64_t>(top)), dt(), dev(),
                        big.put()));
  EXPECT_TRUE(matches(big, Values(6, top), s, dt()));
}

TEST_P(Creation, FullFloatScalar) {
  if (!is_float(dt())) GTEST_SKIP() << "a fractional fill needs a floating dtype";
  CTS_REQUIRE(dt(), "full");
  const Shape s{5};
  Tensor t;
  CTS_ASSERT_OK(kf_full(s.data(), 1, kf_scalar_f64(2.5), dt(), dev(), t.put()));
  EXPECT_TRUE(matches(t, Values(5, 2.5), s, dt()));
}

TEST_P(Creation, FullBoolScalarWithDtype) {
  CTS_REQUIRE(dt(), "full");
  const Shape s{2, 2};
  Tensor t;
  CTS_ASSERT_OK(kf_full(s.data(), 2, kf_scalar_bool(true), dt(), dev(), t.put()));
  EXPECT_TRUE(matches(t, Values(4, 1.0), s, dt()));
}

TEST_P(Creation, ZerosLikeOnesLikeFullLike) {
  CTS_REQUIRE(dt(), "zeros_like", "ones_like", "full_like", "empty_like", "zeros", "ones", "full");
  Tensor base = make(Values{1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor z, o, f, e;
  CTS_ASSERT_OK(kf_zeros_like(base.get(), KF_DTYPE_UNDEFINED, z.put()));
  CTS_ASSERT_OK(kf_ones_like(base.get(), KF_DTYPE_UNDEFINED, o.put()));
  CTS_ASSERT_OK(kf_full_like(base.get(), kf_scalar_i64(9), KF_DTYPE_UNDEFINED, f.put()));
  CTS_ASSERT_OK(kf_empty_like(base.get(), KF_DTYPE_UNDEFINED, e.put()));
  EXPECT_TRUE(matches(z, Values(6, 0.0), {2, 3}, dt()));
  EXPECT_TRUE(matches(o, Values(6, 1.0), {2, 3}, dt()));
  EXPECT_TRUE(matches(f, Values(6, 9.0), {2, 3}, dt()));
  EXPECT_EQ(e.shape(), (Shape{2, 3}));
  EXPECT_EQ(e.dtype(), dt());
  EXPECT_EQ(e.device().type, dev().type);
  EXPECT_NE(e.data(), base.data()) << "empty_like must allocate new storage";
}

TEST_P(Creation, LikeWithDtypeOverride) {
  CTS_REQUIRE(KF_FLOAT64, "zeros");
  CTS_REQUIRE(KF_INT64, "ones");
  CTS_REQUIRE(KF_FLOAT32, "full");
  Tensor base = make(Values{1, 2, 3}, {3});
  Tensor z, o, f;
  CTS_ASSERT_OK(kf_zeros_like(base.get(), KF_FLOAT64, z.put()));
  CTS_ASSERT_OK(kf_ones_like(base.get(), KF_INT64, o.put()));
  CTS_ASSERT_OK(kf_full_like(base.get(), kf_scalar_f64(1.5), KF_FLOAT32, f.put()));
  EXPECT_TRUE(matches(z, Values(3, 0.0), {3}, KF_FLOAT64));
  EXPECT_TRUE(matches(o, Values(3, 1.0), {3}, KF_INT64));
  EXPECT_TRUE(matches(f, Values(3, 1.5), {3}, KF_FLOAT32));
  EXPECT_EQ(z.device().type, dev().type);
}

TEST_P(Creation, LikeOfAView) {
  CTS_REQUIRE(dt(), "ones_like", "ones");
  Tensor base = make(iota(6), {2, 3}), tv;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, tv.put()));
  Tensor o;
  CTS_ASSERT_OK(kf_ones_like(tv.get(), KF_DTYPE_UNDEFINED, o.put()));
  EXPECT_TRUE(matches(o, Values(6, 1.0), {3, 2}, dt()));
  EXPECT_TRUE(matches(base, iota(6), {2, 3}, dt())) << "ones_like must not write into its input";
}

TEST_P(Creation, ZeroSizeAndZeroDim) {
  CTS_REQUIRE(dt(), "zeros", "full");
  const Shape s{0, 3};
  Tensor z;
  CTS_ASSERT_OK(kf_zeros(s.data(), 2, dt(), dev(), z.put()));
  EXPECT_EQ(z.numel(), 0);
  EXPECT_EQ(z.shape(), s);
  EXPECT_TRUE(to_host_double(z).empty());

  Tensor scalar;
  CTS_ASSERT_OK(kf_full(nullptr, 0, kf_scalar_i64(3), dt(), dev(), scalar.put()));
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_TRUE(matches(scalar, Values{3}, {}, dt()));
  kf_scalar_t item;
  CTS_ASSERT_OK(kf_tensor_item(scalar.get(), &item));
  if (is_float(dt())) {
    EXPECT_EQ(item.tag, KF_SCALAR_FLOAT64);
    EXPECT_EQ(item.v.f64, 3.0);
  } else if (dt() == KF_BOOL) {
    EXPECT_EQ(item.tag, KF_SCALAR_BOOL);
    EXPECT_TRUE(item.v.b);
  } else {
    EXPECT_EQ(item.tag, KF_SCALAR_INT64);
    EXPECT_EQ(item.v.i64, 3);
  }
}

TEST_P(Creation, ArangeInDtype) {
  // arange(start, end, step, dtype=d): every numeric dtype (PyTorch has no bool arange).
  CTS_REQUIRE(dt(), "arange");
  Tensor a, b;
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(0), kf_scalar_i64(6), kf_scalar_i64(1), dt(), dev(),
                          a.put()));
  EXPECT_TRUE(matches(a, iota(6), {6}, dt()));
  const double start = dt() == KF_UINT8 ? 250 : 120;  // up to the dtype's largest value
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(static_cast<int64_t>(start)),
                          kf_scalar_i64(static_cast<int64_t>(start) + 6), kf_scalar_i64(2), dt(),
                          dev(), b.put()));
  EXPECT_TRUE(matches(b, iota(3, start, 2), {3}, dt()));
  if (is_float(dt())) {
    Tensor f;
    CTS_ASSERT_OK(kf_arange(kf_scalar_f64(-1), kf_scalar_f64(1), kf_scalar_f64(0.5), dt(), dev(),
                            f.put()));
    EXPECT_TRUE(matches(f, Values{-1, -0.5, 0, 0.5}, {4}, dt()));
  }
}

// ------------------------------------------------------------------ dtype inference

TEST_P(CreationAny, FullInfersDtypeFromScalar) {
  const Shape s{2, 2};
  Tensor i, f, b;
  CTS_ASSERT_OK(kf_full(s.data(), 2, kf_scalar_i64(4), KF_DTYPE_UNDEFINED, dev(), i.put()));
  CTS_ASSERT_OK(kf_full(s.data(), 2, kf_scalar_f64(0.25), KF_DTYPE_UNDEFINED, dev(), f.put()));
  CTS_ASSERT_OK(kf_full(s.data(), 2, kf_scalar_bool(true), KF_DTYPE_UNDEFINED, dev(), b.put()));
  EXPECT_TRUE(matches(i, Values(4, 4.0), s, KF_INT64));
  EXPECT_TRUE(matches(f, Values(4, 0.25), s, KF_FLOAT32));
  EXPECT_TRUE(matches(b, Values(4, 1.0), s, KF_BOOL));
  kf_scalar_t item;
  Tensor one_b;
  CTS_ASSERT_OK(kf_full(nullptr, 0, kf_scalar_bool(true), KF_DTYPE_UNDEFINED, dev(), one_b.put()));
  CTS_ASSERT_OK(kf_tensor_item(one_b.get(), &item));
  EXPECT_EQ(item.tag, KF_SCALAR_BOOL);
  EXPECT_TRUE(item.v.b);
}

TEST_P(CreationAny, DefaultsAreFloat32) {
  const Shape s{3};
  Tensor z, o, e;
  CTS_ASSERT_OK(kf_zeros(s.data(), 1, KF_DTYPE_UNDEFINED, dev(), z.put()));
  CTS_ASSERT_OK(kf_ones(s.data(), 1, KF_DTYPE_UNDEFINED, dev(), o.put()));
  CTS_ASSERT_OK(kf_empty(s.data(), 1, KF_DTYPE_UNDEFINED, dev(), e.put()));
  EXPECT_TRUE(matches(z, Values(3, 0.0), s, KF_FLOAT32));
  EXPECT_TRUE(matches(o, Values(3, 1.0), s, KF_FLOAT32));
  EXPECT_EQ(e.dtype(), KF_FLOAT32);
}

TEST_P(CreationAny, DeviceNoneMeansCpu) {
  const Shape s{2};
  Tensor z;
  CTS_ASSERT_OK(kf_zeros(s.data(), 1, KF_FLOAT32, device_none(), z.put()));
  EXPECT_EQ(z.device().type, KF_DEVICE_CPU);
  EXPECT_EQ(z.device().index, 0);
}

TEST_P(CreationAny, ArangeInt) {
  Tensor a, b, c;
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(0), kf_scalar_i64(5), kf_scalar_i64(1),
                          KF_DTYPE_UNDEFINED, dev(), a.put()));
  EXPECT_TRUE(matches(a, Values{0, 1, 2, 3, 4}, {5}, KF_INT64));
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(1), kf_scalar_i64(10), kf_scalar_i64(3),
                          KF_DTYPE_UNDEFINED, dev(), b.put()));
  EXPECT_TRUE(matches(b, Values{1, 4, 7}, {3}, KF_INT64));
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(5), kf_scalar_i64(0), kf_scalar_i64(-2),
                          KF_DTYPE_UNDEFINED, dev(), c.put()));
  EXPECT_TRUE(matches(c, Values{5, 3, 1}, {3}, KF_INT64));
  EXPECT_EQ(a.device().type, dev().type);
}

TEST_P(CreationAny, ArangeEmptyRange) {
  Tensor a;
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(3), kf_scalar_i64(3), kf_scalar_i64(1),
                          KF_DTYPE_UNDEFINED, dev(), a.put()));
  EXPECT_EQ(a.shape(), (Shape{0}));
  EXPECT_EQ(a.dtype(), KF_INT64);
}

TEST_P(CreationAny, ArangeFloat) {
  Tensor a, b, c;
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(0), kf_scalar_i64(1), kf_scalar_f64(0.25),
                          KF_DTYPE_UNDEFINED, dev(), a.put()));
  EXPECT_TRUE(matches(a, Values{0, 0.25, 0.5, 0.75}, {4}, KF_FLOAT32));
  CTS_ASSERT_OK(kf_arange(kf_scalar_f64(0.5), kf_scalar_i64(3), kf_scalar_i64(1),
                          KF_DTYPE_UNDEFINED, dev(), b.put()));
  EXPECT_TRUE(matches(b, Values{0.5, 1.5, 2.5}, {3}, KF_FLOAT32));
  // ceil((1 - 0) / 0.1) = 10 elements.
  CTS_ASSERT_OK(kf_arange(kf_scalar_f64(0), kf_scalar_f64(1), kf_scalar_f64(0.1),
                          KF_DTYPE_UNDEFINED, dev(), c.put()));
  EXPECT_TRUE(matches(c, iota(10, 0.0, 0.1), {10}, KF_FLOAT32));
}

TEST_P(CreationAny, ArangeWithDtype) {
  Tensor a, b;
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(0), kf_scalar_i64(4), kf_scalar_i64(1), KF_FLOAT64,
                          dev(), a.put()));
  EXPECT_TRUE(matches(a, Values{0, 1, 2, 3}, {4}, KF_FLOAT64));
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(-2), kf_scalar_i64(2), kf_scalar_i64(1), KF_INT32,
                          dev(), b.put()));
  EXPECT_TRUE(matches(b, Values{-2, -1, 0, 1}, {4}, KF_INT32));
}

TEST_P(CreationAny, BoolTensorFromData) {
  Tensor b = make(Values{1, 0, 1}, {3}, KF_BOOL);
  EXPECT_TRUE(matches(b, Values{1, 0, 1}, {3}, KF_BOOL));
}

CTS_INSTANTIATE(Creation, params_all());
CTS_INSTANTIATE(CreationAny, params_any());

TEST(CtsSetup, AtLeastOneBackendLoaded) {
  int loaded = 0;
  std::string report;
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info;
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CTS_ASSERT_OK(kf_backend_info(i, &info));
    if (info.state == KF_BACKEND_LOADED) ++loaded;
    report += std::string(" ") + (info.name ? info.name : "?") + "(" +
              std::to_string(info.state) + ": " + (info.reason ? info.reason : "") + ")";
  }
  EXPECT_GE(loaded, 1) << "the CTS ran on no backend; backends:" << report;
}

}  // namespace
}  // namespace cts
