// CTS: rand, randn, rand_like, randn_like and kf_manual_seed. The stream layout of
// docs/architecture.md ("Random numbers") is recomputed here with an independent Philox 4x32-10
// written from the published algorithm (checked against Random123's known-answer vectors), and
// the values are compared exactly (randn within an ulp: it goes through log, sqrt, cos and sin).
#include "cts_util.hpp"

namespace cts {
namespace {

class Random : public CtsTest {};     // backend x {f32, f64, f16, bf16}
class RandomAny : public CtsTest {};  // backend only

// ------------------------------------------------------------ the reference stream

struct Words {
  uint32_t w[4];
};

Words philox10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t a = 0xD2511F53ull * c0, b = 0xCD9E8D57ull * c2;
    const uint32_t n0 = static_cast<uint32_t>(b >> 32) ^ c1 ^ k0;
    const uint32_t n2 = static_cast<uint32_t>(a >> 32) ^ c3 ^ k1;
    c1 = static_cast<uint32_t>(b);
    c3 = static_cast<uint32_t>(a);
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return Words{{c0, c1, c2, c3}};
}

Words stream_block(uint64_t seed, uint64_t offset, uint64_t index) {
  return philox10(static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32),
                  static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32),
                  static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
}

double u24(uint32_t w) { return std::ldexp(static_cast<double>(w >> 8), -24); }
double u53(uint32_t lo, uint32_t hi) {
  return std::ldexp(static_cast<double>(((static_cast<uint64_t>(hi) << 32) | lo) >> 11), -53);
}
double normal(double u1, double u2, int which) {
  constexpr double kPi = 3.14159265358979323846;  // M_PI is not standard C++ (MinGW lacks it)
  const double r = std::sqrt(-2.0 * std::log(1.0 - u1)), t = 2.0 * kPi * u2;
  return which == 0 ? r * std::cos(t) : r * std::sin(t);
}

bool wide(kf_dtype_t d) { return d == KF_FLOAT64; }
uint64_t blocks(int64_t n, kf_dtype_t d) {
  const int64_t per = wide(d) ? 2 : 4;
  return static_cast<uint64_t>((n + per - 1) / per);
}

/// The largest value below 1.0 of a 16-bit float (rand never reaches 1.0).
double below_one(kf_dtype_t d) {
  return d == KF_FLOAT16 ? 1.0 - std::ldexp(1.0, -11) : 1.0 - std::ldexp(1.0, -8);
}

/// Elements [0, n) of the call at `offset`, as the dtype stores them.
Values ref_stream(uint64_t seed, uint64_t offset, int64_t n, kf_dtype_t d, bool normal_dist) {
  Values out(static_cast<size_t>(n));
  const int64_t per = wide(d) ? 2 : 4;
  for (int64_t i = 0; i < n; ++i) {
    const Words b = stream_block(seed, offset, static_cast<uint64_t>(i / per));
    const int j = static_cast<int>(i % per);
    double v;
    if (wide(d)) {
      v = normal_dist ? normal(u53(b.w[0], b.w[1]), u53(b.w[2], b.w[3]), j)
                      : u53(b.w[2 * j], b.w[2 * j + 1]);
    } else if (normal_dist) {
      const int p = j / 2;
      v = round_to(d, static_cast<float>(normal(u24(b.w[2 * p]), u24(b.w[2 * p + 1]), j % 2)));
    } else {
      v = round_to(d, u24(b.w[j]));
      if (d != KF_FLOAT32 && v == 1.0) v = below_one(d);
    }
    out[static_cast<size_t>(i)] = v;
  }
  return out;
}

std::vector<unsigned char> raw(const Tensor& t) {
  std::vector<unsigned char> bytes(static_cast<size_t>(t.numel()) * kf_dtype_size(t.dtype()));
  EXPECT_EQ(kf_tensor_copy_to_host(t.get(), bytes.data(), bytes.size()), KF_OK);
  return bytes;
}

::testing::AssertionResult same_values(const Values& got, const Values& want, kf_dtype_t d,
                                       bool normal_dist) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  for (size_t i = 0; i < got.size(); ++i) {
    const double tol = !normal_dist ? 0.0
                       : d == KF_FLOAT64 ? 1e-14 * (1 + std::fabs(want[i]))
                       : d == KF_FLOAT32 ? 2e-7 * (1 + std::fabs(want[i]))
                                         : tol_for(d).rtol * (1 + std::fabs(want[i]));
    if (!(std::fabs(got[i] - want[i]) <= tol))
      return ::testing::AssertionFailure() << "[" << i << "] got " << got[i] << ", expected "
                                           << want[i] << " (" << dtype_str(d) << ")";
  }
  return ::testing::AssertionSuccess();
}

kf_status_t draw(bool normal_dist, const Shape& s, kf_dtype_t d, kf_device_t dev, Tensor& t) {
  return normal_dist ? kf_randn(s.data(), static_cast<int32_t>(s.size()), d, dev, t.put())
                     : kf_rand(s.data(), static_cast<int32_t>(s.size()), d, dev, t.put());
}

// ------------------------------------------------------------ the test's own Philox

TEST(RandomReference, PhiloxKnownAnswers) {  // Random123's kat_vectors for philox4x32_10
  const Words z = philox10(0, 0, 0, 0, 0, 0);
  EXPECT_EQ(z.w[0], 0x6627e8d5u);
  EXPECT_EQ(z.w[1], 0xe169c58du);
  EXPECT_EQ(z.w[2], 0xbc57ac4cu);
  EXPECT_EQ(z.w[3], 0x9b00dbd8u);
  const uint32_t f = 0xffffffffu;
  const Words o = philox10(f, f, f, f, f, f);
  EXPECT_EQ(o.w[0], 0x408f276du);
  EXPECT_EQ(o.w[3], 0x6d5451fdu);
  const Words p = philox10(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u,
                           0x299f31d0u);
  EXPECT_EQ(p.w[0], 0xd16cfe09u);
  EXPECT_EQ(p.w[1], 0x94fdccebu);
  EXPECT_EQ(p.w[2], 0x5001e420u);
  EXPECT_EQ(p.w[3], 0x24126ea1u);
}

// ------------------------------------------------------------ known values

void check_known(bool normal_dist, kf_dtype_t d, kf_device_t dev) {
  const uint64_t seed = 0x0123456789ABCDEFull;
  CTS_ASSERT_OK(kf_manual_seed(seed));
  Tensor a, b;
  CTS_ASSERT_OK(draw(normal_dist, {2, 5}, d, dev, a));  // 10 elements: a partial last block
  CTS_ASSERT_OK(draw(normal_dist, {7}, d, dev, b));
  ASSERT_EQ(a.dtype(), d);
  ASSERT_EQ(a.shape(), (Shape{2, 5}));
  EXPECT_TRUE(same_values(to_host_double(a), ref_stream(seed, 0, 10, d, normal_dist), d,
                          normal_dist));
  EXPECT_TRUE(same_values(to_host_double(b), ref_stream(seed, blocks(10, d), 7, d, normal_dist),
                          d, normal_dist))
      << "the second call must take the counters after the first call's blocks";
}

TEST_P(Random, RandKnownValues) { check_known(false, dt(), dev()); }
TEST_P(Random, RandnKnownValues) { check_known(true, dt(), dev()); }

TEST_P(Random, KnownValuesWithPyTorchsDefaultSeed) {
  CTS_ASSERT_OK(kf_manual_seed(67280421310721ull));
  Tensor a;
  CTS_ASSERT_OK(draw(false, {9}, dt(), dev(), a));
  EXPECT_TRUE(same_values(to_host_double(a), ref_stream(67280421310721ull, 0, 9, dt(), false),
                          dt(), false));
}

// ------------------------------------------------------------ statistics

void check_moments(bool normal_dist, kf_dtype_t d, kf_device_t dev) {
  CTS_ASSERT_OK(kf_manual_seed(2024));
  const int64_t n = 1 << 17;
  Tensor t;
  CTS_ASSERT_OK(draw(normal_dist, {n}, d, dev, t));
  const Values v = to_host_double(t);
  ASSERT_EQ(static_cast<int64_t>(v.size()), n);
  double sum = 0;
  for (double x : v) {
    if (!normal_dist) {
      ASSERT_GE(x, 0.0) << dtype_str(d);
      ASSERT_LT(x, 1.0) << dtype_str(d);
    }
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
  }
  const double mean = sum / static_cast<double>(n);
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  const double var = ss / static_cast<double>(n - 1);
  // Standard errors: uniform mean sqrt(1/12/n), variance sqrt((1/80 - 1/144)/n); normal mean
  // 1/sqrt(n), variance sqrt(2/n). Five of them, plus the 16-bit floats' rounding.
  const double want_mean = normal_dist ? 0.0 : 0.5, want_var = normal_dist ? 1.0 : 1.0 / 12;
  const double se_mean = std::sqrt((normal_dist ? 1.0 : 1.0 / 12) / n);
  const double se_var = std::sqrt((normal_dist ? 2.0 : 1.0 / 80 - 1.0 / 144) / n);
  const double slack = d == KF_BFLOAT16 ? 2e-3 : d == KF_FLOAT16 ? 2e-4 : 0.0;
  EXPECT_NEAR(mean, want_mean, 5 * se_mean + slack) << dtype_str(d);
  EXPECT_NEAR(var, want_var, 5 * se_var + slack) << dtype_str(d);
}

TEST_P(Random, RandRangeMeanVariance) { check_moments(false, dt(), dev()); }
TEST_P(Random, RandnMeanVariance) { check_moments(true, dt(), dev()); }

// ------------------------------------------------------------ seeding and offsets

TEST_P(Random, SameSeedSameBitsOtherSeedDiffers) {
  for (bool normal_dist : {false, true}) {
    Tensor a, b, c, d;
    CTS_ASSERT_OK(kf_manual_seed(77));
    CTS_ASSERT_OK(draw(normal_dist, {64}, dt(), dev(), a));
    CTS_ASSERT_OK(draw(normal_dist, {64}, dt(), dev(), d));
    CTS_ASSERT_OK(kf_manual_seed(77));
    CTS_ASSERT_OK(draw(normal_dist, {64}, dt(), dev(), b));
    CTS_ASSERT_OK(kf_manual_seed(78));
    CTS_ASSERT_OK(draw(normal_dist, {64}, dt(), dev(), c));
    EXPECT_EQ(raw(a), raw(b)) << "the same seed must give the same bits";
    const Values va = to_host_double(a), vc = to_host_double(c), vd = to_host_double(d);
    int differ_seed = 0, differ_call = 0;
    for (size_t i = 0; i < va.size(); ++i) {
      differ_seed += va[i] != vc[i];
      differ_call += va[i] != vd[i];
    }
    EXPECT_GT(differ_seed, 48) << "another seed must give other numbers";
    EXPECT_GT(differ_call, 48) << "two consecutive calls must give other numbers";
  }
}

TEST_P(Random, SameNumbersWithOneOrTwoThreads) {
  int32_t before = 0;
  CTS_ASSERT_OK(kf_get_num_threads(&before));
  const Shape s{3, 100003};  // above the parallel grain; a partial last block
  for (bool normal_dist : {false, true}) {
    Tensor one_thread, two_threads;
    CTS_ASSERT_OK(kf_set_num_threads(1));
    CTS_ASSERT_OK(kf_manual_seed(5));
    CTS_ASSERT_OK(draw(normal_dist, s, dt(), dev(), one_thread));
    CTS_ASSERT_OK(kf_set_num_threads(2));
    CTS_ASSERT_OK(kf_manual_seed(5));
    CTS_ASSERT_OK(draw(normal_dist, s, dt(), dev(), two_threads));
    EXPECT_EQ(raw(one_thread), raw(two_threads)) << (normal_dist ? "randn" : "rand");
    // The tail of the big call is where the threads' ranges end: check it against the layout.
    const Values v = to_host_double(two_threads);
    const int64_t n = numel_of(s), tail = 9;
    const Values want = ref_stream(5, 0, n, dt(), normal_dist);
    EXPECT_TRUE(same_values(Values(v.end() - tail, v.end()), Values(want.end() - tail, want.end()),
                            dt(), normal_dist));
  }
  if (before > 0) CTS_EXPECT_OK(kf_set_num_threads(before));
}

TEST_P(Random, EmptyAndZeroDim) {
  CTS_ASSERT_OK(kf_manual_seed(11));
  Tensor e, z, after;
  CTS_ASSERT_OK(draw(false, {0, 3}, dt(), dev(), e));
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(e.dtype(), dt());
  CTS_ASSERT_OK(draw(true, {}, dt(), dev(), z));
  EXPECT_EQ(z.ndim(), 0);
  EXPECT_EQ(z.numel(), 1);
  EXPECT_TRUE(same_values(to_host_double(z), ref_stream(11, 0, 1, dt(), true), dt(), true))
      << "an empty call takes no counters";
  CTS_ASSERT_OK(draw(false, {3}, dt(), dev(), after));
  EXPECT_TRUE(same_values(to_host_double(after), ref_stream(11, 1, 3, dt(), false), dt(), false))
      << "a 0-dim call takes one block";
}

TEST_P(Random, LikeFollowsShapeDtypeDevice) {
  Tensor base = make(Values(6, 0.0), {2, 3}), a, b, c;
  CTS_ASSERT_OK(kf_manual_seed(99));
  CTS_ASSERT_OK(kf_rand_like(base.get(), KF_DTYPE_UNDEFINED, a.put()));
  CTS_ASSERT_OK(kf_randn_like(base.get(), KF_DTYPE_UNDEFINED, b.put()));
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.dtype(), dt());
  EXPECT_EQ(a.device().type, dev().type);
  EXPECT_TRUE(same_values(to_host_double(a), ref_stream(99, 0, 6, dt(), false), dt(), false));
  EXPECT_TRUE(same_values(to_host_double(b), ref_stream(99, blocks(6, dt()), 6, dt(), true),
                          dt(), true));
  Tensor ints = make(Values{1, 2, 3}, {3}, KF_INT64);
  CTS_ASSERT_OK(kf_rand_like(ints.get(), dt(), c.put()));
  EXPECT_EQ(c.dtype(), dt());
  EXPECT_EQ(c.shape(), (Shape{3}));
}

// ------------------------------------------------------------ dtype-independent

TEST_P(RandomAny, DefaultDtypeIsFloat32) {
  const Shape s{4};
  Tensor a, b;
  CTS_ASSERT_OK(kf_rand(s.data(), 1, KF_DTYPE_UNDEFINED, dev(), a.put()));
  CTS_ASSERT_OK(kf_randn(s.data(), 1, KF_DTYPE_UNDEFINED, dev(), b.put()));
  EXPECT_EQ(a.dtype(), KF_FLOAT32);
  EXPECT_EQ(b.dtype(), KF_FLOAT32);
  EXPECT_EQ(a.device().type, dev().type);
}

TEST_P(RandomAny, IntegerAndBoolDtypesAreRefused) {
  const Shape s{4};
  for (kf_dtype_t d : {KF_INT8, KF_UINT8, KF_INT16, KF_INT32, KF_INT64, KF_BOOL}) {
    Tensor t;
    EXPECT_EQ(kf_rand(s.data(), 1, d, dev(), t.put()), KF_INVALID_ARGUMENT) << dtype_str(d);
    std::string msg = kf_last_error_message();
    EXPECT_NE(msg.find("rand"), std::string::npos) << msg;
    EXPECT_NE(msg.find("floating"), std::string::npos) << msg;
    EXPECT_NE(msg.find(kf_dtype_name(d)), std::string::npos) << msg;
    EXPECT_EQ(kf_randn(s.data(), 1, d, dev(), t.put()), KF_INVALID_ARGUMENT) << dtype_str(d);
    msg = kf_last_error_message();
    EXPECT_NE(msg.find("randn"), std::string::npos) << msg;
  }
  Tensor ints = make(Values{1, 2}, {2}, KF_INT32), t;
  EXPECT_EQ(kf_rand_like(ints.get(), KF_DTYPE_UNDEFINED, t.put()), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("rand_like"), std::string::npos);
  EXPECT_EQ(kf_randn_like(ints.get(), KF_DTYPE_UNDEFINED, t.put()), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("randn_like"), std::string::npos);
}

TEST_P(RandomAny, NegativeSizeIsRefused) {
  const Shape s{2, -1};
  Tensor t;
  EXPECT_EQ(kf_rand(s.data(), 2, KF_FLOAT32, dev(), t.put()), KF_INVALID_ARGUMENT);
  EXPECT_STRNE(kf_last_error_message(), "");
}

CTS_INSTANTIATE(Random, params_all_float());
CTS_INSTANTIATE(RandomAny, params_any());

}  // namespace
}  // namespace cts
