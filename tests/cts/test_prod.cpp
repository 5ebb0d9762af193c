// CTS: prod over dims (PyTorch semantics: empty product 1, bool and integers give int64,
// integer products wrap in two's complement).
#include "reduce_ref.hpp"

namespace cts {
namespace {

using red::Dims;

class Prod : public CtsTest {};     // backend x every dtype but bool
class ProdAny : public CtsTest {};  // backend only

kf_dtype_t prod_dtype(kf_dtype_t d) { return is_float(d) ? d : integer_accumulation(d); }

/** The product of g in dtype d's accumulation: double, or wrapping 64-bit integers. */
double prod_of(const Values& g, kf_dtype_t d) {
  if (is_float(d)) {
    double p = 1;
    for (double x : g) p *= x;
    return p;
  }
  uint64_t p = 1;
  for (double x : g) p *= static_cast<uint64_t>(static_cast<int64_t>(x));
  switch (d) {  // stored modulo the width of d
    case KF_INT8: return static_cast<int8_t>(p);
    case KF_UINT8: return static_cast<uint8_t>(p);
    case KF_INT16: return static_cast<int16_t>(p);
    case KF_INT32: return static_cast<int32_t>(p);
    case KF_BOOL: return p != 0;
    case KF_UINT64: return static_cast<double>(p);
    default: return static_cast<double>(static_cast<int64_t>(p));
  }
}

Values small_input(kf_dtype_t d, size_t n, uint32_t seed) {
  Values v = is_float(d) ? pseudo_random(n, -2, 2, seed)
                         : pseudo_random(n, d == KF_UINT8 ? 0 : -3, 4, seed, true);
  for (double& x : v) x = round_to(d, x);
  return v;
}

TEST_P(Prod, Dims) {
  const Shape s{2, 3, 4};
  const Values v = small_input(dt(), 24, 3);
  Tensor t = make(v, s);
  for (const auto& [dims, keep] : red::dim_cases()) {
    SCOPED_TRACE(red::dims_str(dims, keep));
    Tensor r;
    CTS_ASSERT_OK(kf_prod(t.get(), dims.empty() ? nullptr : dims.data(),
                          static_cast<int32_t>(dims.size()), keep, KF_DTYPE_UNDEFINED, r.put()));
    Shape os;
    const Values want = red::reduce(v, s, dims, keep, &os,
                                    [&](const Values& g) { return prod_of(g, prod_dtype(dt())); });
    EXPECT_TRUE(matches(r, want, os, prod_dtype(dt()), 16));
  }
}

TEST_P(Prod, StridedOutAndDtype) {
  const Values v = small_input(dt(), 24, 5);
  Tensor t = make(v, {2, 3, 4}), p, r, out, f64;
  const int64_t perm[3] = {2, 0, 1};
  CTS_ASSERT_OK(kf_permute(t.get(), perm, 3, p.put()));  // [4, 2, 3]
  const Shape ps{4, 2, 3};
  const Values pv = gather_strided(v, 0, ps, {1, 12, 4});
  const int64_t d = 0;
  Shape os;
  const Values want = red::reduce(pv, ps, {0}, false, &os,
                                  [&](const Values& g) { return prod_of(g, prod_dtype(dt())); });
  CTS_ASSERT_OK(kf_prod(p.get(), &d, 1, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, want, os, prod_dtype(dt()), 4));
  CTS_ASSERT_OK(kf_empty(os.data(), 2, prod_dtype(dt()), dev(), out.put()));
  CTS_ASSERT_OK(kf_prod_out(p.get(), &d, 1, false, KF_DTYPE_UNDEFINED, out.get()));
  EXPECT_TRUE(matches(out, want, os, prod_dtype(dt()), 4));
  CTS_ASSERT_OK(kf_prod(p.get(), &d, 1, false, KF_FLOAT64, f64.put()));
  EXPECT_TRUE(matches(f64,
                      red::reduce(pv, ps, {0}, false, nullptr,
                                  [](const Values& g) { return prod_of(g, KF_FLOAT64); }),
                      os, KF_FLOAT64));
}

TEST_P(Prod, EmptyAndZeroDim) {
  Tensor e = make(Values{}, {0, 3}), all, d0, d1, z, zr;
  CTS_ASSERT_OK(kf_prod(e.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, all.put()));
  EXPECT_TRUE(matches(all, Values{1}, {}, prod_dtype(dt())));
  const int64_t zero = 0, one_ = 1;
  CTS_ASSERT_OK(kf_prod(e.get(), &zero, 1, false, KF_DTYPE_UNDEFINED, d0.put()));
  EXPECT_TRUE(matches(d0, Values{1, 1, 1}, {3}, prod_dtype(dt())));
  CTS_ASSERT_OK(kf_prod(e.get(), &one_, 1, true, KF_DTYPE_UNDEFINED, d1.put()));
  EXPECT_TRUE(matches(d1, Values{}, {0, 1}, prod_dtype(dt())));
  z = make(Values{3}, {});
  const int64_t minus1 = -1;
  CTS_ASSERT_OK(kf_prod(z.get(), &minus1, 1, false, KF_DTYPE_UNDEFINED, zr.put()));
  EXPECT_TRUE(matches(zr, Values{3}, {}, prod_dtype(dt())));
}

TEST_P(Prod, LargeAcrossThreads) {
  // 1 << 18 elements, mostly 1 with a few 2s and -1s: exact in every dtype.
  const int64_t n = 1 << 18;
  Values v(static_cast<size_t>(n), 1.0);
  for (int64_t i : {5, 40000, 70001, 200000, 262143}) v[static_cast<size_t>(i)] = 2;
  if (dt() != KF_UINT8) v[100000] = -1;
  Tensor t = make(v, {n}), r, m, c0, c1;
  CTS_ASSERT_OK(kf_prod(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{prod_of(v, prod_dtype(dt()))}, {}, prod_dtype(dt())));
  const Shape ms{512, 512};
  CTS_ASSERT_OK(kf_reshape(t.get(), ms.data(), 2, m.put()));
  const int64_t zero = 0, one_ = 1;
  CTS_ASSERT_OK(kf_prod(m.get(), &zero, 1, false, KF_DTYPE_UNDEFINED, c0.put()));
  CTS_ASSERT_OK(kf_prod(m.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, c1.put()));
  const auto f = [&](const Values& g) { return prod_of(g, prod_dtype(dt())); };
  EXPECT_TRUE(matches(c0, red::reduce(v, ms, {0}, false, nullptr, f), {512}, prod_dtype(dt())));
  EXPECT_TRUE(matches(c1, red::reduce(v, ms, {1}, false, nullptr, f), {512}, prod_dtype(dt())));
}

TEST_P(ProdAny, IntegerOverflowWraps) {
  const struct {
    kf_dtype_t in, dtype;
    Values v;
    double want;
  } cases[] = {
      {KF_INT8, KF_INT8, {100, 3}, 44},              // 300 mod 256
      {KF_INT8, KF_DTYPE_UNDEFINED, {100, 3}, 300},  // int64 by default: no wrap
      {KF_UINT8, KF_UINT8, {16, 17}, 16},            // 272 mod 256
      {KF_INT32, KF_INT32, {65536, 65536}, 0},       // 2^32 mod 2^32
      {KF_INT64, KF_DTYPE_UNDEFINED, {4294967296.0, 4294967296.0, 3}, 0},  // 2^64 wraps
      {KF_INT16, KF_DTYPE_UNDEFINED, {-2, 3, -5}, 30},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(dtype_str(c.in) + " dtype " +
                 (c.dtype == KF_DTYPE_UNDEFINED ? "none" : dtype_str(c.dtype)));
    Tensor t = make(c.v, {static_cast<int64_t>(c.v.size())}, c.in), r;
    CTS_ASSERT_OK(kf_prod(t.get(), nullptr, 0, false, c.dtype, r.put()));
    EXPECT_TRUE(matches(r, Values{c.want}, {}, c.dtype == KF_DTYPE_UNDEFINED ? KF_INT64 : c.dtype));
  }
}

TEST_P(ProdAny, BoolNanInf) {
  Tensor b = make(Values{1, 1, 0, 1, 1, 1}, {2, 3}, KF_BOOL), r, rb;
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_prod(b.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{0, 1}, {2}, KF_INT64));
  CTS_ASSERT_OK(kf_prod(b.get(), &one_, 1, false, KF_BOOL, rb.put()));
  EXPECT_TRUE(matches(rb, Values{0, 1}, {2}, KF_BOOL));
  Tensor f = make(Values{2, NAN, 3, INFINITY, -1, 0, INFINITY, 2}, {4, 2}, KF_FLOAT32), rf;
  CTS_ASSERT_OK(kf_prod(f.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, rf.put()));
  EXPECT_TRUE(matches(rf, Values{NAN, INFINITY, 0, INFINITY}, {4}, KF_FLOAT32));
  // inf * 0 is NaN.
  Tensor g = make(Values{INFINITY, 0}, {2}, KF_FLOAT64), rg;
  CTS_ASSERT_OK(kf_prod(g.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, rg.put()));
  EXPECT_TRUE(matches(rg, Values{NAN}, {}, KF_FLOAT64));
}

TEST_P(ProdAny, InvalidArguments) {
  Tensor t = make(Values{1, 2, 3, 4}, {2, 2}, KF_FLOAT32), r, r2;
  const int64_t bad = 2, dup[2] = {0, -2};
  EXPECT_TRUE(red::refused(kf_prod(t.get(), &bad, 1, false, KF_DTYPE_UNDEFINED, r.put()), "prod"));
  EXPECT_TRUE(red::refused(kf_prod(t.get(), dup, 2, false, KF_DTYPE_UNDEFINED, r2.put()), "prod"));
}

CTS_INSTANTIATE(Prod, params_all_numeric());
CTS_INSTANTIATE(ProdAny, params_any());

}  // namespace
}  // namespace cts
