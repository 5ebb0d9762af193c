// CTS: copy_, to_dtype, contiguous, clone, kf_tensor_to and half-precision round trips.
#include "cts_util.hpp"

namespace cts {
namespace {

class Copy : public CtsTest {};      // backend x destination dtype (every dtype)
class CopyHalf : public CtsTest {};  // backend only: float16 / bfloat16

const kf_dtype_t kSrcDtypes[] = {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8,
                                 KF_UINT8,   KF_INT16,   KF_INT32,   KF_INT64,    KF_BOOL};

/** Values every dtype holds: no negatives where either side is uint8 (a negative float into
 *  uint8 is undefined in C++ and in PyTorch). */
Values copy_values(kf_dtype_t a, kf_dtype_t b) {
  if (a == KF_UINT8 || b == KF_UINT8) return {0, 1, 2, 3, 5, 0};
  return {0, 1, -2, 3, 5, 0};
}

TEST_P(Copy, AcrossDtypes) {
  for (kf_dtype_t src : kSrcDtypes) {
    SCOPED_TRACE(std::string("from ") + kf_dtype_name(src));
    CTS_REQUIRE_IN_LOOP(dt(), "copy_");
    Values sv = copy_values(src, dt());
    for (double& x : sv) x = round_to(src, x);
    Tensor s = make(sv, {2, 3}, src), d;
    const Shape sh{2, 3};
    CTS_ASSERT_OK(kf_empty(sh.data(), 2, dt(), dev(), d.put()));
    CTS_ASSERT_OK(kf_copy_(d.get(), s.get()));
    EXPECT_TRUE(matches(d, sv, sh, dt()));
  }
}

TEST_P(Copy, Broadcast) {
  CTS_REQUIRE(dt(), "copy_");
  Tensor row = make(Values{1, 2, 3}, {3}, KF_INT64), d, z, zs = make(Values{7}, {}, KF_FLOAT64);
  const Shape sh{2, 3};
  CTS_ASSERT_OK(kf_empty(sh.data(), 2, dt(), dev(), d.put()));
  CTS_ASSERT_OK(kf_copy_(d.get(), row.get()));
  EXPECT_TRUE(matches(d, Values{1, 2, 3, 1, 2, 3}, sh, dt()));
  CTS_ASSERT_OK(kf_copy_(d.get(), zs.get()));
  EXPECT_TRUE(matches(d, Values(6, 7.0), sh, dt()));
}

TEST_P(Copy, IntoNonContiguousAndFromStrided) {
  CTS_REQUIRE(dt(), "zeros", "copy_");
  const Shape bs{3, 2};
  Tensor base, dT;
  CTS_ASSERT_OK(kf_zeros(bs.data(), 2, dt(), dev(), base.put()));
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, dT.put()));  // [2,3] view
  const Values src_store = iota(12, dt() == KF_UINT8 ? 0 : -4);
  Tensor s = make(src_store, {2, 6}, KF_FLOAT64), sv;
  const int64_t start = 1, end = 6;
  CTS_ASSERT_OK(kf_slice(s.get(), 1, &start, &end, 2, sv.put()));  // cols 1,3,5
  const Values want = gather_strided(src_store, 1, {2, 3}, {6, 2});
  CTS_ASSERT_OK(kf_copy_(dT.get(), sv.get()));
  EXPECT_TRUE(matches(dT, want, {2, 3}, dt()));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), bs, dt()));
}

TEST_P(Copy, ToDtype) {
  for (kf_dtype_t to : kSrcDtypes) {
    SCOPED_TRACE(std::string("to ") + kf_dtype_name(to));
    CTS_REQUIRE_IN_LOOP(to, "to_dtype");
    const Values v = copy_values(dt(), to);
    Tensor t = make(v, {6}), r;
    CTS_ASSERT_OK(kf_to_dtype(t.get(), to, r.put()));
    Values want = v;
    for (double& x : want) x = round_to(dt(), x);
    EXPECT_TRUE(matches(r, want, {6}, to));
    EXPECT_NE(r.data(), t.data()) << "to_dtype returns a copy";
  }
}

TEST_P(Copy, ContiguousOfTransposedView) {
  CTS_REQUIRE(dt(), "contiguous", "copy_");
  const Values bv = in(iota(12, -3));
  Tensor b = make(bv, {3, 4}), t, c, c2;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, t.put()));
  EXPECT_FALSE(t.is_contiguous());
  CTS_ASSERT_OK(kf_contiguous(t.get(), c.put()));
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.strides(), (Shape{3, 1}));
  EXPECT_TRUE(matches(c, gather_strided(bv, 0, {4, 3}, {1, 4}), {4, 3}, dt()));
  EXPECT_NE(c.data(), b.data());
  // contiguous() of a contiguous tensor is the tensor itself (same storage).
  CTS_ASSERT_OK(kf_contiguous(b.get(), c2.put()));
  EXPECT_EQ(c2.data(), b.data());
  EXPECT_EQ(c2.shape(), (Shape{3, 4}));
}

TEST_P(Copy, CloneOfView) {
  CTS_REQUIRE(dt(), "clone", "copy_");
  const Values bv = iota(12, 1);
  Tensor b = make(bv, {3, 4}), s, c;
  const int64_t start = 1;
  CTS_ASSERT_OK(kf_slice(b.get(), 1, &start, nullptr, 2, s.put()));  // cols 1,3 -> [3,2]
  CTS_ASSERT_OK(kf_clone(s.get(), c.put()));
  const Values want = gather_strided(bv, 1, {3, 2}, {4, 2});
  EXPECT_TRUE(matches(c, want, {3, 2}, dt()));
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_NE(c.data(), b.data() + kf_dtype_size(dt()));
  // Writing the clone leaves the base alone.
  Tensor z = make(Values{0}, {});
  CTS_ASSERT_OK(kf_copy_(c.get(), z.get()));
  EXPECT_TRUE(matches(b, bv, {3, 4}, dt()));
  // clone of a contiguous tensor is a new storage too.
  Tensor c2;
  CTS_ASSERT_OK(kf_clone(b.get(), c2.put()));
  EXPECT_NE(c2.data(), b.data());
  EXPECT_TRUE(matches(c2, bv, {3, 4}, dt()));
}

TEST_P(Copy, TensorToCpuAndBack) {
  CTS_REQUIRE(KF_FLOAT64, "to_dtype");
  const Values v = in({3, -1, 4, 1, -5, 9});
  Tensor t = make(v, {2, 3}), h, back;
  CTS_ASSERT_OK(kf_tensor_to(t.get(), kf_device_cpu(), KF_DTYPE_UNDEFINED, h.put()));
  EXPECT_EQ(h.device().type, KF_DEVICE_CPU);
  EXPECT_TRUE(matches(h, v, {2, 3}, dt()));
  CTS_ASSERT_OK(kf_tensor_to(h.get(), dev(), KF_FLOAT64, back.put()));
  EXPECT_EQ(back.device().type, dev().type);
  EXPECT_TRUE(matches(back, v, {2, 3}, KF_FLOAT64));
}

TEST_P(Copy, ZeroDimAndEmpty) {
  CTS_REQUIRE(KF_FLOAT64, "to_dtype");
  CTS_REQUIRE(KF_INT64, "to_dtype");
  CTS_REQUIRE(dt(), "clone");
  Tensor s = make(Values{4}, {}), d, e = make(Values{}, {0, 2}), ed, c;
  CTS_ASSERT_OK(kf_to_dtype(s.get(), KF_FLOAT64, d.put()));
  EXPECT_TRUE(matches(d, Values{round_to(dt(), 4)}, {}, KF_FLOAT64));
  CTS_ASSERT_OK(kf_to_dtype(e.get(), KF_INT64, ed.put()));
  EXPECT_EQ(ed.shape(), (Shape{0, 2}));
  EXPECT_EQ(ed.dtype(), KF_INT64);
  CTS_ASSERT_OK(kf_clone(e.get(), c.put()));
  EXPECT_EQ(c.numel(), 0);
}

// ------------------------------------------------------------------ conversions

TEST_P(CopyHalf, FloatToIntTruncatesAndNonzeroToBool) {
  Tensor f = make(Values{2.7, -2.7, 0.5, -0.5, 7.0, 0.0}, {6}, KF_FLOAT32), i, l, b;
  CTS_ASSERT_OK(kf_to_dtype(f.get(), KF_INT32, i.put()));
  EXPECT_TRUE(matches(i, Values{2, -2, 0, 0, 7, 0}, {6}, KF_INT32));
  CTS_ASSERT_OK(kf_to_dtype(f.get(), KF_INT64, l.put()));
  EXPECT_TRUE(matches(l, Values{2, -2, 0, 0, 7, 0}, {6}, KF_INT64));
  CTS_ASSERT_OK(kf_to_dtype(f.get(), KF_BOOL, b.put()));
  EXPECT_TRUE(matches(b, Values{1, 1, 1, 1, 1, 0}, {6}, KF_BOOL));
  Tensor n = make(Values{-3, 0, 2}, {3}, KF_INT64), nb, bf;
  CTS_ASSERT_OK(kf_to_dtype(n.get(), KF_BOOL, nb.put()));
  EXPECT_TRUE(matches(nb, Values{1, 0, 1}, {3}, KF_BOOL));
  CTS_ASSERT_OK(kf_to_dtype(nb.get(), KF_FLOAT32, bf.put()));
  EXPECT_TRUE(matches(bf, Values{1, 0, 1}, {3}, KF_FLOAT32));
}

// Values exactly representable in float16 / bfloat16.
const Values kF16Exact{0, 1, -2, 0.5, 1024, -0.375, 65504, 0.000061035156250};
const Values kBf16Exact{0, 1, -2, 0.5, 1024, -0.375, 3.3895313892515355e38, -0.0078125};

void round_trip(kf_device_t dev, kf_dtype_t half, const Values& v) {
  SCOPED_TRACE(kf_dtype_name(half));
  const Shape s{static_cast<int64_t>(v.size())};
  for (kf_dtype_t wide : {KF_FLOAT32, KF_FLOAT64}) {
    SCOPED_TRACE(std::string("via ") + kf_dtype_name(wide));
    Tensor src = make_tensor(v, s, wide, dev), h, back;
    // copy_ into a half tensor and back.
    CTS_ASSERT_OK(kf_empty(s.data(), 1, half, dev, h.put()));
    CTS_ASSERT_OK(kf_copy_(h.get(), src.get()));
    EXPECT_TRUE(matches(h, v, s, half));
    CTS_ASSERT_OK(kf_empty(s.data(), 1, wide, dev, back.put()));
    CTS_ASSERT_OK(kf_copy_(back.get(), h.get()));
    EXPECT_TRUE(all_close(to_host_double(back), v, KF_FLOAT64)) << "round trip must be exact";
    // to_dtype both ways.
    Tensor h2, back2;
    CTS_ASSERT_OK(kf_to_dtype(src.get(), half, h2.put()));
    CTS_ASSERT_OK(kf_to_dtype(h2.get(), wide, back2.put()));
    EXPECT_TRUE(all_close(to_host_double(back2), v, KF_FLOAT64));
  }
}

TEST_P(CopyHalf, Float16RoundTrip) { round_trip(dev(), KF_FLOAT16, kF16Exact); }
TEST_P(CopyHalf, BFloat16RoundTrip) { round_trip(dev(), KF_BFLOAT16, kBf16Exact); }

TEST_P(CopyHalf, HalfFromHostBits) {
  // Host-encoded float16 data read back through float32.
  const Values v{1.5, -3.25, 0.125};
  Tensor h = make(v, {3}, KF_FLOAT16), f;
  CTS_ASSERT_OK(kf_to_dtype(h.get(), KF_FLOAT32, f.put()));
  EXPECT_TRUE(matches(f, v, {3}, KF_FLOAT32));
  Tensor b = make(v, {3}, KF_BFLOAT16), i;
  CTS_ASSERT_OK(kf_to_dtype(b.get(), KF_INT32, i.put()));
  EXPECT_TRUE(matches(i, Values{1, -3, 0}, {3}, KF_INT32));
}

TEST_P(CopyHalf, FloatToHalfRounds) {
  // Round to nearest even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 and gives 1;
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 and 1 + 2^-9 and gives 1 + 2^-9.
  const Values v{1.0 + std::ldexp(1.0, -11), 1.0 + 3 * std::ldexp(1.0, -11)};
  Tensor f = make(v, {2}, KF_FLOAT32), h;
  CTS_ASSERT_OK(kf_to_dtype(f.get(), KF_FLOAT16, h.put()));
  EXPECT_TRUE(matches(h, Values{1.0, 1.0 + std::ldexp(1.0, -9)}, {2}, KF_FLOAT16));
  const Values got = to_host_double(h);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 1.0);
  EXPECT_EQ(got[1], 1.0 + std::ldexp(1.0, -9));
}

TEST_P(Copy, IntegerConversionsWrap) {
  // Integer to narrower integer keeps the low bits (PyTorch): int16 300 -> int8 44,
  // int8 -1 -> uint8 255, int64 65537 -> int16 1; float to integer truncates toward zero.
  CTS_REQUIRE(dt(), "copy_", "to_dtype");
  if (!is_int(dt())) GTEST_SKIP() << "integer destinations only";
  struct Case { kf_dtype_t src; double v; };
  const Case cases[] = {{KF_INT16, 300}, {KF_INT8, -1}, {KF_INT64, 65537}, {KF_INT32, -129},
                        {KF_FLOAT32, 7.9}, {KF_FLOAT16, 100.5}, {KF_BFLOAT16, 2.5}, {KF_BOOL, 1}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string("from ") + kf_dtype_name(c.src) + " " + std::to_string(c.v));
    Tensor s = make(Values{c.v}, {1}, c.src), d, r;
    const Shape sh{1};
    CTS_ASSERT_OK(kf_empty(sh.data(), 1, dt(), dev(), d.put()));
    CTS_ASSERT_OK(kf_copy_(d.get(), s.get()));
    EXPECT_TRUE(matches(d, Values{round_to(c.src, c.v)}, sh, dt()));
    CTS_ASSERT_OK(kf_to_dtype(s.get(), dt(), r.put()));
    EXPECT_TRUE(matches(r, Values{round_to(c.src, c.v)}, sh, dt()));
  }
}

TEST_P(CopyHalf, Uint8AboveInt8MaxToEveryDtype) {
  // uint8 128..255 are positive: no sign extension into wider types; int8 keeps the low bits.
  const Values v{200, 255, 128, 127};
  Tensor u = make(v, {4}, KF_UINT8);
  for (kf_dtype_t to : kSrcDtypes) {
    SCOPED_TRACE(std::string("to ") + kf_dtype_name(to));
    Tensor r, d;
    CTS_ASSERT_OK(kf_to_dtype(u.get(), to, r.put()));
    EXPECT_TRUE(matches(r, v, {4}, to));  // rounded to `to`: int8 wraps, bool is nonzero
    const Shape s{4};
    CTS_ASSERT_OK(kf_empty(s.data(), 1, to, dev(), d.put()));
    CTS_ASSERT_OK(kf_copy_(d.get(), u.get()));
    EXPECT_TRUE(matches(d, v, {4}, to));
  }
}

CTS_INSTANTIATE(Copy, params_all());
CTS_INSTANTIATE(CopyHalf, params_any());

}  // namespace
}  // namespace cts
