// CTS: linear algebra (mm, bmm, matmul, linear).
#include "cts_util.hpp"

namespace cts {
namespace {

class Linalg : public CtsTest {};  // backend x every dtype but bool

constexpr double kScale = 50;  // a dot product of <= 64 terms

/** Inputs as dtype d stores them: in [-1, 1] for floats, small integers (-3..3; 0..3 for
 *  uint8) for integers, whose products wrap like PyTorch's integer matmul (round_to). */
Values rand_for(kf_dtype_t d, size_t n, uint32_t seed) {
  return representable(d, is_float(d) ? pseudo_random(n, -1, 1, seed)
                                      : pseudo_random(n, -3, 4, seed, true));
}

/** C[m,n] = A[m,k] B[k,n], all row-major, in double. */
Values ref_mm(const Values& a, const Values& b, int64_t m, int64_t k, int64_t n,
              size_t a_off = 0, size_t b_off = 0) {
  Values c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += a[a_off + static_cast<size_t>(i * k + p)] * b[b_off + static_cast<size_t>(p * n + j)];
      c[static_cast<size_t>(i * n + j)] = s;
    }
  return c;
}

/** Batched, broadcast matmul of a[..., m, k] and b[..., k, n] (both at least 2-D). */
Values ref_bmm(const Values& a, const Shape& as, const Values& b, const Shape& bs, Shape* os) {
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  const Shape ab(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2);
  const Shape batch = broadcast_shapes(ab, bb);
  Shape af = batch, bf = batch;
  af.push_back(m); af.push_back(k);
  bf.push_back(k); bf.push_back(n);
  const Values ea = expand_to(a, as, af), eb = expand_to(b, bs, bf);
  Values out;
  for (int64_t i = 0; i < numel_of(batch); ++i) {
    const Values c = ref_mm(ea, eb, m, k, n, static_cast<size_t>(i * m * k),
                            static_cast<size_t>(i * k * n));
    out.insert(out.end(), c.begin(), c.end());
  }
  *os = batch;
  os->push_back(m);
  os->push_back(n);
  return out;
}

TEST_P(Linalg, MmSmall) {
  CTS_REQUIRE(dt(), "mm");
  Tensor a = make(Values{1, 2, 3, 4, 5, 6}, {2, 3}), b = make(Values{7, 8, 9, 10, 11, 12}, {3, 2});
  Tensor c;
  CTS_ASSERT_OK(kf_mm(a.get(), b.get(), c.put()));
  EXPECT_TRUE(matches(c, Values{58, 64, 139, 154}, {2, 2}, dt()));
}

TEST_P(Linalg, MmLarge) {
  CTS_REQUIRE(dt(), "mm");
  const Values a = rand_for(dt(), 64 * 48, 1), b = rand_for(dt(), 48 * 32, 2);
  Tensor ta = make(a, {64, 48}), tb = make(b, {48, 32}), c;
  CTS_ASSERT_OK(kf_mm(ta.get(), tb.get(), c.put()));
  EXPECT_TRUE(matches(c, ref_mm(a, b, 64, 48, 32), {64, 32}, dt(), kScale));
}

TEST_P(Linalg, MmBig) {
  CTS_REQUIRE(dt(), "mm");
  const Values a = rand_for(dt(), 200 * 300, 31), b = rand_for(dt(), 300 * 130, 32);
  Tensor ta = make(a, {200, 300}), tb = make(b, {300, 130}), c;
  CTS_ASSERT_OK(kf_mm(ta.get(), tb.get(), c.put()));
  EXPECT_TRUE(matches(c, ref_mm(a, b, 200, 300, 130), {200, 130}, dt(), 4 * kScale));
}

TEST_P(Linalg, MmTransposedInputs) {
  CTS_REQUIRE(dt(), "mm");
  // A^T stored as [48,64], B^T stored as [32,48]; mm of their transposes.
  const Values at = rand_for(dt(), 48 * 64, 3), bt = rand_for(dt(), 32 * 48, 4);
  Tensor sa = make(at, {48, 64}), sb = make(bt, {32, 48}), va, vb, c1, c2, c3;
  CTS_ASSERT_OK(kf_transpose(sa.get(), 0, 1, va.put()));
  CTS_ASSERT_OK(kf_transpose(sb.get(), 0, 1, vb.put()));
  const Values a = gather_strided(at, 0, {64, 48}, {1, 64});
  const Values b = gather_strided(bt, 0, {48, 32}, {1, 48});
  CTS_ASSERT_OK(kf_mm(va.get(), vb.get(), c1.put()));
  EXPECT_TRUE(matches(c1, ref_mm(a, b, 64, 48, 32), {64, 32}, dt(), kScale));
  Tensor cb = make(b, {48, 32}), ca = make(a, {64, 48});
  CTS_ASSERT_OK(kf_mm(va.get(), cb.get(), c2.put()));
  EXPECT_TRUE(matches(c2, ref_mm(a, b, 64, 48, 32), {64, 32}, dt(), kScale));
  CTS_ASSERT_OK(kf_mm(ca.get(), vb.get(), c3.put()));
  EXPECT_TRUE(matches(c3, ref_mm(a, b, 64, 48, 32), {64, 32}, dt(), kScale));
}

TEST_P(Linalg, MmSlicedInput) {
  CTS_REQUIRE(dt(), "mm");
  // Rows 1..3 and columns 2..5 of a [5,7] matrix: a view with a row stride of 7.
  const Values base = rand_for(dt(), 35, 5), b = rand_for(dt(), 3 * 4, 6);
  Tensor tb = make(base, {5, 7}), r1, v, m, c;
  const int64_t r0 = 1, r3 = 4, c2 = 2, c5 = 5;
  CTS_ASSERT_OK(kf_slice(tb.get(), 0, &r0, &r3, 1, r1.put()));
  CTS_ASSERT_OK(kf_slice(r1.get(), 1, &c2, &c5, 1, v.put()));  // [3,3]
  m = make(b, {3, 4});
  CTS_ASSERT_OK(kf_mm(v.get(), m.get(), c.put()));
  const Values a = gather_strided(base, 7 + 2, {3, 3}, {7, 1});
  EXPECT_TRUE(matches(c, ref_mm(a, b, 3, 3, 4), {3, 4}, dt(), kScale));
}

TEST_P(Linalg, MmOut) {
  CTS_REQUIRE(dt(), "mm");
  const Values a = rand_for(dt(), 12, 7), b = rand_for(dt(), 20, 8);
  Tensor ta = make(a, {3, 4}), tb = make(b, {4, 5}), out;
  const Shape s{3, 5};
  CTS_ASSERT_OK(kf_empty(s.data(), 2, dt(), dev(), out.put()));
  CTS_ASSERT_OK(kf_mm_out(ta.get(), tb.get(), out.get()));
  EXPECT_TRUE(matches(out, ref_mm(a, b, 3, 4, 5), s, dt(), kScale));
}

TEST_P(Linalg, Bmm) {
  CTS_REQUIRE(dt(), "bmm");
  const Values a = rand_for(dt(), 3 * 4 * 5, 9), b = rand_for(dt(), 3 * 5 * 2, 10);
  Tensor ta = make(a, {3, 4, 5}), tb = make(b, {3, 5, 2}), c;
  CTS_ASSERT_OK(kf_bmm(ta.get(), tb.get(), c.put()));
  Shape os;
  const Values want = ref_bmm(a, {3, 4, 5}, b, {3, 5, 2}, &os);
  EXPECT_TRUE(matches(c, want, {3, 4, 2}, dt(), kScale));
  // The same with the second operand stored as [3,2,5] and transposed.
  const Values bt = gather_strided(b, 0, {3, 2, 5}, {10, 1, 2});
  Tensor sb = make(bt, {3, 2, 5}), vb, c2;
  CTS_ASSERT_OK(kf_transpose(sb.get(), 1, 2, vb.put()));
  CTS_ASSERT_OK(kf_bmm(ta.get(), vb.get(), c2.put()));
  EXPECT_TRUE(matches(c2, want, {3, 4, 2}, dt(), kScale));
}

TEST_P(Linalg, Matmul1Dx1D) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values av{1, 2, 3, 4}, bv = in({-1, 3, 2, 1});
  Tensor a = make(av, {4}), b = make(bv, {4}), c;
  CTS_ASSERT_OK(kf_matmul(a.get(), b.get(), c.put()));
  EXPECT_TRUE(matches(c, ref_mm(av, bv, 1, 4, 1), {}, dt()));
}

TEST_P(Linalg, Matmul2Dx1D) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values a = rand_for(dt(), 12, 11), b = rand_for(dt(), 4, 12);
  Tensor ta = make(a, {3, 4}), tb = make(b, {4}), c;
  CTS_ASSERT_OK(kf_matmul(ta.get(), tb.get(), c.put()));
  EXPECT_TRUE(matches(c, ref_mm(a, b, 3, 4, 1), {3}, dt(), kScale));
}

TEST_P(Linalg, Matmul1Dx2D) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values a = rand_for(dt(), 4, 13), b = rand_for(dt(), 20, 14);
  Tensor ta = make(a, {4}), tb = make(b, {4, 5}), c;
  CTS_ASSERT_OK(kf_matmul(ta.get(), tb.get(), c.put()));
  EXPECT_TRUE(matches(c, ref_mm(a, b, 1, 4, 5), {5}, dt(), kScale));
}

TEST_P(Linalg, MatmulBatched3Dx2D) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values a = rand_for(dt(), 2 * 3 * 4, 15), b = rand_for(dt(), 4 * 5, 16);
  Tensor ta = make(a, {2, 3, 4}), tb = make(b, {4, 5}), c;
  CTS_ASSERT_OK(kf_matmul(ta.get(), tb.get(), c.put()));
  Shape os;
  const Values want = ref_bmm(a, {2, 3, 4}, b, {4, 5}, &os);
  EXPECT_EQ(os, (Shape{2, 3, 5}));
  EXPECT_TRUE(matches(c, want, os, dt(), kScale));
}

TEST_P(Linalg, Matmul2Dx3D) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values a = rand_for(dt(), 3 * 4, 17), b = rand_for(dt(), 2 * 4 * 5, 18);
  Tensor ta = make(a, {3, 4}), tb = make(b, {2, 4, 5}), c;
  CTS_ASSERT_OK(kf_matmul(ta.get(), tb.get(), c.put()));
  Shape os;
  const Values want = ref_bmm(a, {3, 4}, b, {2, 4, 5}, &os);
  EXPECT_TRUE(matches(c, want, {2, 3, 5}, dt(), kScale));
}

TEST_P(Linalg, Matmul4Dx4DBroadcast) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values a = rand_for(dt(), 2 * 1 * 3 * 4, 19), b = rand_for(dt(), 1 * 2 * 4 * 5, 20);
  Tensor ta = make(a, {2, 1, 3, 4}), tb = make(b, {1, 2, 4, 5}), c;
  CTS_ASSERT_OK(kf_matmul(ta.get(), tb.get(), c.put()));
  Shape os;
  const Values want = ref_bmm(a, {2, 1, 3, 4}, b, {1, 2, 4, 5}, &os);
  EXPECT_EQ(os, (Shape{2, 2, 3, 5}));
  EXPECT_TRUE(matches(c, want, os, dt(), kScale));
}

TEST_P(Linalg, MatmulTransposedBatch) {
  CTS_REQUIRE(dt(), "matmul", "mm", "bmm");
  const Values a = rand_for(dt(), 2 * 3 * 4, 21), bt = rand_for(dt(), 2 * 5 * 4, 22);
  Tensor ta = make(a, {2, 3, 4}), sb = make(bt, {2, 5, 4}), vb, c;
  CTS_ASSERT_OK(kf_transpose(sb.get(), -1, -2, vb.put()));  // [2,4,5]
  CTS_ASSERT_OK(kf_matmul(ta.get(), vb.get(), c.put()));
  const Values b = gather_strided(bt, 0, {2, 4, 5}, {20, 1, 4});
  Shape os;
  const Values want = ref_bmm(a, {2, 3, 4}, b, {2, 4, 5}, &os);
  EXPECT_TRUE(matches(c, want, {2, 3, 5}, dt(), kScale));
}

/** input[..., in] @ weight[out, in]^T + bias[out]. */
Values ref_linear(const Values& x, int64_t rows, int64_t in, const Values& w, int64_t out,
                  const Values* bias) {
  Values y(static_cast<size_t>(rows * out));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < out; ++o) {
      double s = bias ? (*bias)[static_cast<size_t>(o)] : 0.0;
      for (int64_t i = 0; i < in; ++i)
        s += x[static_cast<size_t>(r * in + i)] * w[static_cast<size_t>(o * in + i)];
      y[static_cast<size_t>(r * out + o)] = s;
    }
  return y;
}

TEST_P(Linalg, LinearWithAndWithoutBias) {
  CTS_REQUIRE(dt(), "linear", "mm", "bmm", "add");
  const Values x = rand_for(dt(), 4 * 5, 23), w = rand_for(dt(), 3 * 5, 24),
               b = rand_for(dt(), 3, 25);
  Tensor tx = make(x, {4, 5}), tw = make(w, {3, 5}), tb = make(b, {3}), y, yb;
  CTS_ASSERT_OK(kf_linear(tx.get(), tw.get(), nullptr, y.put()));
  EXPECT_TRUE(matches(y, ref_linear(x, 4, 5, w, 3, nullptr), {4, 3}, dt(), kScale));
  CTS_ASSERT_OK(kf_linear(tx.get(), tw.get(), tb.get(), yb.put()));
  EXPECT_TRUE(matches(yb, ref_linear(x, 4, 5, w, 3, &b), {4, 3}, dt(), kScale));
}

TEST_P(Linalg, Linear3DInput) {
  CTS_REQUIRE(dt(), "linear", "mm", "bmm", "add");
  const Values x = rand_for(dt(), 2 * 4 * 5, 26), w = rand_for(dt(), 3 * 5, 27),
               b = rand_for(dt(), 3, 28);
  Tensor tx = make(x, {2, 4, 5}), tw = make(w, {3, 5}), tb = make(b, {3}), y;
  CTS_ASSERT_OK(kf_linear(tx.get(), tw.get(), tb.get(), y.put()));
  EXPECT_TRUE(matches(y, ref_linear(x, 8, 5, w, 3, &b), {2, 4, 3}, dt(), kScale));
}

TEST_P(Linalg, EmptyInnerDim) {
  CTS_REQUIRE(dt(), "mm");
  // [2,0] @ [0,3] = zeros [2,3].
  Tensor a = make(Values{}, {2, 0}), b = make(Values{}, {0, 3}), c;
  CTS_ASSERT_OK(kf_mm(a.get(), b.get(), c.put()));
  EXPECT_TRUE(matches(c, Values(6, 0.0), {2, 3}, dt()));
}

TEST_P(Linalg, IntegerProductsWrap) {
  // int8 [1,2] @ [2,1] with 100 * 2 + 60 * 1 = 260: PyTorch's int8 mm gives 260 - 256 = 4.
  if (is_float(dt())) GTEST_SKIP() << "integer dtypes only";
  CTS_REQUIRE(dt(), "mm");
  const Values av{100, 60}, bv{2, 1};
  Tensor a = make(av, {1, 2}), b = make(bv, {2, 1}), c;
  CTS_ASSERT_OK(kf_mm(a.get(), b.get(), c.put()));
  EXPECT_TRUE(matches(c, Values{260}, {1, 1}, dt()));  // round_to wraps 260 for int8/uint8
}

CTS_INSTANTIATE(Linalg, params_all_numeric());

}  // namespace
}  // namespace cts
