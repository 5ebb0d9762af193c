// CTS: sort and argsort (each dim, both directions, stability, NaN above +inf, -0 equal to
// +0 with its sign kept, long lines past the insertion sort, strided inputs, long lines with
// ties on one to three threads, lines of zeros only and of one key, many lines with zeros,
// long lines along an outer dim), nonzero_static and nonzero (row-major coordinates, NaN and
// bool bytes, fill rows, a large random mask cut short on one to three threads), searchsorted
// (both sides, promotion, NaN, strided sequences and values), cumprod; and the errors: complex
// dtypes, bad dims, a 0-dim nonzero, a 2-D sequence.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "reduce_ref.hpp"

namespace cts {
namespace {

class Sort : public CtsTest {};     // backend x every dtype
class SortAny : public CtsTest {};  // backend only

/// The order sort promises: NaN above everything, -0 equal to +0.
bool before(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a < b;
}

std::vector<int64_t> ref_order(const Values& line, bool descending) {
  std::vector<int64_t> idx(line.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t i, int64_t j) {
    return descending ? before(line[j], line[i]) : before(line[i], line[j]);
  });
  return idx;
}

Values sorted_line(const Values& line, bool descending) {
  Values out;
  for (int64_t i : ref_order(line, descending)) out.push_back(line[static_cast<size_t>(i)]);
  return out;
}

Values order_line(const Values& line, bool descending) {
  Values out;
  for (int64_t i : ref_order(line, descending)) out.push_back(static_cast<double>(i));
  return out;
}

/// Values with many ties (so stability shows) in the dtype's range.
Values tied_input(kf_dtype_t d, size_t n, uint32_t seed) {
  Values v = pseudo_random(n, d == KF_BOOL ? 0 : -6, d == KF_BOOL ? 2 : 6, seed, true);
  if (d == KF_UINT8) {
    for (double& x : v) x = std::abs(x);
  }
  if (d == KF_BOOL) {
    for (double& x : v) x = x != 0 ? 1 : 0;
  }
  return v;
}

TEST_P(Sort, EachDimBothDirections) {
  const Shape s{3, 4, 5};
  const Values v = tied_input(dt(), 60, 61);
  Tensor t = make(v, s);
  for (int64_t d : {0, 1, 2, -1}) {
    for (bool desc : {false, true}) {
      SCOPED_TRACE("dim " + std::to_string(d) + (desc ? " descending" : " ascending"));
      Tensor r, p;
      CTS_ASSERT_OK(kf_sort(t.get(), d, desc, true, r.put()));
      EXPECT_TRUE(matches(r, red::map_lines(v, s, d, [&](const Values& l) {
                            return sorted_line(l, desc);
                          }), s, dt()));
      CTS_ASSERT_OK(kf_argsort(t.get(), d, desc, true, p.put()));
      EXPECT_TRUE(matches(p, red::map_lines(v, s, d, [&](const Values& l) {
                            return order_line(l, desc);
                          }), s, KF_INT64));
    }
  }
}

TEST_P(Sort, LongStridedLines) {
  // [300, 700] transposed: lines of 300 (strided) and 700 (contiguous), past the insertion sort.
  const Shape base{300, 700}, ts{700, 300};
  const Values v = tied_input(dt(), 210000, 67);
  Tensor t = make(v, base), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, ts, {1, 700});
  for (int64_t d : {0, 1}) {
    for (bool desc : {false, true}) {
      SCOPED_TRACE("dim " + std::to_string(d) + (desc ? " descending" : " ascending"));
      Tensor r, p;
      CTS_ASSERT_OK(kf_sort(tt.get(), d, desc, false, r.put()));
      EXPECT_TRUE(matches(r, red::map_lines(tv, ts, d, [&](const Values& l) {
                            return sorted_line(l, desc);
                          }), ts, dt()));
      CTS_ASSERT_OK(kf_argsort(tt.get(), d, desc, true, p.put()));
      EXPECT_TRUE(matches(p, red::map_lines(tv, ts, d, [&](const Values& l) {
                            return order_line(l, desc);
                          }), ts, KF_INT64));
    }
  }
}

TEST_P(Sort, EmptyAndZeroDim) {
  Tensor e = make(Values{}, {0, 3}), r, z = make(in(Values{1}), {}), zr, zp;
  CTS_ASSERT_OK(kf_sort(e.get(), 0, false, true, r.put()));
  EXPECT_TRUE(matches(r, Values{}, {0, 3}, dt()));
  CTS_ASSERT_OK(kf_sort(z.get(), -1, true, true, zr.put()));
  EXPECT_TRUE(matches(zr, in(Values{1}), {}, dt()));
  CTS_ASSERT_OK(kf_argsort(z.get(), 0, false, true, zp.put()));
  EXPECT_TRUE(matches(zp, Values{0}, {}, KF_INT64));
}

TEST_P(SortAny, NanAndSignedZeros) {
  const Values v{2, NAN, -0.0, -INFINITY, 0.0, INFINITY, NAN, -0.0, -1};
  for (kf_dtype_t d : {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16}) {
    CTS_REQUIRE_IN_LOOP(d, "sort");
    for (bool desc : {false, true}) {
      SCOPED_TRACE(std::string(dtype_str(d)) + (desc ? " descending" : " ascending"));
      Tensor t = make(v, {9}, d), r, p;
      CTS_ASSERT_OK(kf_sort(t.get(), 0, desc, true, r.put()));
      const Values want = sorted_line(v, desc), got = to_host_double(r);
      EXPECT_TRUE(matches(r, want, {9}, d));
      for (size_t i = 0; i < got.size(); ++i) {
        if (want[i] == 0) {
          EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << "at " << i;
        }
      }
      CTS_ASSERT_OK(kf_argsort(t.get(), 0, desc, true, p.put()));
      EXPECT_TRUE(matches(p, order_line(v, desc), {9}, KF_INT64));
    }
  }
}

TEST_P(SortAny, ExtremesOfEachInteger) {
  struct Case { kf_dtype_t d; Values v; };
  const Case cases[] = {
      {KF_INT8, {127, -128, 0, -1, 1}},
      {KF_UINT8, {255, 0, 128, 127, 1}},
      {KF_INT64, {9223372036854774784.0, -9223372036854775808.0, 0, -1, 1}},
      {KF_UINT16, {65535, 0, 32768, 32767, 1}},
      {KF_UINT32, {4294967295.0, 0, 2147483648.0, 2147483647.0, 1}},
      {KF_UINT64, {18446744073709549568.0, 0, 9223372036854775808.0, 1, 2}},
  };
  for (const Case& c : cases) {
    CTS_REQUIRE_IN_LOOP(c.d, "sort");
    SCOPED_TRACE(dtype_str(c.d));
    Tensor t = make(c.v, {5}, c.d), r;
    CTS_ASSERT_OK(kf_sort(t.get(), 0, false, true, r.put()));
    EXPECT_TRUE(matches(r, sorted_line(c.v, false), {5}, c.d));
  }
}

TEST_P(SortAny, OneLongLine) {
  // 300k float32 values in one line: the threads share each radix pass.
  Values v = pseudo_random(300000, -1000, 1000, 71);
  for (double& x : v) x = round_to(KF_FLOAT32, x);
  Tensor t = make(v, {300000}, KF_FLOAT32), r, p;
  CTS_ASSERT_OK(kf_sort(t.get(), 0, false, true, r.put()));
  EXPECT_TRUE(matches(r, sorted_line(v, false), {300000}, KF_FLOAT32));
  CTS_ASSERT_OK(kf_argsort(t.get(), 0, true, true, p.put()));
  EXPECT_TRUE(matches(p, order_line(v, true), {300000}, KF_INT64));
}

/// Expects r to hold `want` and, where want is a zero, a zero of want's sign.
void expect_signed_zeros(const Tensor& r, const Values& want) {
  const Values got = to_host_double(r);
  int64_t wrong = 0;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    if (want[i] == 0 && std::signbit(got[i]) != std::signbit(want[i])) ++wrong;
  }
  EXPECT_EQ(wrong, 0) << "zeros with the wrong sign";
}

TEST_P(SortAny, LongLinesWithTiesOnOneToThreeThreads) {
  // 200k values of 2001 levels with NaNs and zeros of both signs: a line that one, two or three
  // threads split into chunks whose sorted runs are merged (an odd run count with three), and
  // long lines of the 16-bit radix sort beside those of the vectorised sort.
  int32_t before = 0;
  CTS_ASSERT_OK(kf_get_num_threads(&before));
  Values v = pseudo_random(200000, -1000, 1000, 73, true);
  for (size_t i = 0; i < v.size(); i += 997) v[i] = NAN;
  for (size_t i = 5; i < v.size(); i += 1009) v[i] = (i / 1009) % 2 == 0 ? -0.0 : 0.0;
  const int64_t n = static_cast<int64_t>(v.size());
  for (kf_dtype_t d : {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_INT32}) {
    CTS_REQUIRE_IN_LOOP(d, "sort");
    Values dv = v;
    if (d == KF_INT32) {
      for (double& x : dv) x = std::isnan(x) ? 7 : x + 0.0;  // an integer's zero has no sign
    }
    Tensor t = make(dv, {n}, d);
    for (int32_t threads : {1, 2, 3}) {
      CTS_ASSERT_OK(kf_set_num_threads(threads));
      for (bool desc : {false, true}) {
        SCOPED_TRACE(std::string(dtype_str(d)) + ", " + std::to_string(threads) + " threads" +
                     (desc ? ", descending" : ", ascending"));
        Tensor r, p;
        CTS_ASSERT_OK(kf_sort(t.get(), 0, desc, true, r.put()));
        const Values want = sorted_line(dv, desc);
        EXPECT_TRUE(matches(r, want, {n}, d));
        expect_signed_zeros(r, want);
        CTS_ASSERT_OK(kf_argsort(t.get(), 0, desc, true, p.put()));
        EXPECT_TRUE(matches(p, order_line(dv, desc), {n}, KF_INT64));
      }
    }
  }
  if (before > 0) CTS_EXPECT_OK(kf_set_num_threads(before));
}

TEST_P(SortAny, ZeroRunsAndEqualKeysOfLongAndManyLines) {
  // Lines whose zeros (of both signs, in a known order) are the whole line, or one run between
  // negatives, NaNs and positives; a long line of one key; and [48, 5000] sorted along each dim
  // (many lines, one a thread, contiguous and strided), on one and two threads.
  int32_t before = 0;
  CTS_ASSERT_OK(kf_get_num_threads(&before));
  const int64_t n = 150000;
  Values zeros(static_cast<size_t>(n)), mixed(static_cast<size_t>(n), 0.0), same(zeros.size(), 3);
  for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = (i * 7919) % 3 == 0 ? -0.0 : 0.0;
  const Values noise = pseudo_random(zeros.size(), -4, 4, 79, true);
  for (size_t i = 0; i < mixed.size(); ++i) {
    if (i % 5 == 1) mixed[i] = i % 4 == 0 ? -0.0 : 0.0;
    if (i % 5 >= 2) mixed[i] = i % 97 == 0 ? NAN : noise[i];
  }
  for (size_t i = 0; i < mixed.size(); i += 10) mixed[i] = -0.0;
  const Values grid = pseudo_random(48 * 5000, -3, 3, 83, true);
  Values signed_grid = grid;
  for (size_t i = 0; i < signed_grid.size(); i += 7) signed_grid[i] = i % 2 ? -0.0 : 0.0;
  struct Case { const Values* v; Shape shape; };
  const Case cases[] = {{&zeros, {n}}, {&mixed, {n}}, {&same, {n}}, {&signed_grid, {48, 5000}}};
  for (kf_dtype_t d : {KF_FLOAT32, KF_FLOAT64, KF_BFLOAT16}) {
    CTS_REQUIRE_IN_LOOP(d, "sort");
    for (const Case& c : cases) {
      Tensor t = make(*c.v, c.shape, d);
      for (int32_t threads : {1, 2}) {
        CTS_ASSERT_OK(kf_set_num_threads(threads));
        for (int64_t dim = 0; dim < static_cast<int64_t>(c.shape.size()); ++dim) {
          for (bool desc : {false, true}) {
            SCOPED_TRACE(std::string(dtype_str(d)) + ", " + std::to_string(c.v->size()) +
                         " values, dim " + std::to_string(dim) + ", " + std::to_string(threads) +
                         (desc ? " threads, descending" : " threads, ascending"));
            Tensor r, p;
            CTS_ASSERT_OK(kf_sort(t.get(), dim, desc, true, r.put()));
            const Values want = red::map_lines(*c.v, c.shape, dim, [&](const Values& l) {
              return sorted_line(l, desc);
            });
            EXPECT_TRUE(matches(r, want, c.shape, d));
            expect_signed_zeros(r, want);
            CTS_ASSERT_OK(kf_argsort(t.get(), dim, desc, true, p.put()));
            const Values order = red::map_lines(*c.v, c.shape, dim, [&](const Values& l) {
              return order_line(l, desc);
            });
            EXPECT_TRUE(matches(p, order, c.shape, KF_INT64));
          }
        }
      }
    }
  }
  if (before > 0) CTS_EXPECT_OK(kf_set_num_threads(before));
}

TEST_P(SortAny, LongLinesAlongAnOuterDim) {
  // [20000, 3] along dim 0: three strided lines longer than a work-group's block on the OpenCL
  // backends (their global passes), of few levels with NaNs and zeros of both signs; 64-bit
  // keys (float64, int64: argsort compares positions by self's keys), 8- to 32-bit ones
  // (argsort's packed pairs) and bool.
  const int64_t n = 20000;
  const Shape s{n, 3};
  Values v = pseudo_random(static_cast<size_t>(3 * n), -20, 20, 89, true);
  for (size_t i = 0; i < v.size(); i += 31) v[i] = NAN;
  for (size_t i = 7; i < v.size(); i += 17) v[i] = (i / 17) % 2 == 0 ? -0.0 : 0.0;
  for (kf_dtype_t d : {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_INT64, KF_UINT8, KF_BOOL}) {
    CTS_REQUIRE_IN_LOOP(d, "sort");
    Values dv = v;
    for (double& x : dv) {
      if (kf_dtype_kind(d) != 'f') x = std::isnan(x) ? 5 : x + 0.0;
      if (d == KF_UINT8) x = std::fabs(x);
      if (d == KF_BOOL) x = x != 0 ? 1 : 0;
    }
    Tensor t = make(dv, s, d);
    for (int64_t dim : {0, 1}) {
      for (bool desc : {false, true}) {
        SCOPED_TRACE(std::string(dtype_str(d)) + ", dim " + std::to_string(dim) +
                     (desc ? ", descending" : ", ascending"));
        Tensor r, p;
        CTS_ASSERT_OK(kf_sort(t.get(), dim, desc, true, r.put()));
        const Values want = red::map_lines(dv, s, dim, [&](const Values& l) {
          return sorted_line(l, desc);
        });
        EXPECT_TRUE(matches(r, want, s, d));
        expect_signed_zeros(r, want);
        CTS_ASSERT_OK(kf_argsort(t.get(), dim, desc, false, p.put()));
        EXPECT_TRUE(matches(p, red::map_lines(dv, s, dim, [&](const Values& l) {
                              return order_line(l, desc);
                            }), s, KF_INT64));
      }
    }
  }
}

TEST_P(SortAny, Refusals) {
  Tensor c, f = make(Values{1, 2}, {2}, KF_FLOAT32), r;
  const int64_t two = 2;
  CTS_ASSERT_OK(kf_zeros(&two, 1, KF_COMPLEX64, dev(), c.put()));
  EXPECT_TRUE(red::refused(kf_sort(c.get(), 0, false, true, r.put()), "sort"));
  EXPECT_TRUE(red::refused(kf_argsort(c.get(), 0, false, true, r.put()), "argsort"));
  EXPECT_TRUE(red::refused(kf_sort(f.get(), 1, false, true, r.put()), "sort"));
  EXPECT_TRUE(red::refused(kf_argsort(f.get(), -2, false, true, r.put()), "argsort"));
}

// ------------------------------------------------------------------ nonzero

/// The row-major coordinates [n, ndim] of the nonzero values of v (shape s), flattened.
Values ref_nonzero(const Values& v, const Shape& s, int64_t* count) {
  Values out;
  *count = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0) continue;  // NaN is nonzero
    ++*count;
    Values coord(s.size());
    int64_t rest = static_cast<int64_t>(i);
    for (size_t d = s.size(); d-- > 0;) {
      coord[d] = static_cast<double>(rest % s[d]);
      rest /= s[d];
    }
    out.insert(out.end(), coord.begin(), coord.end());
  }
  return out;
}

TEST_P(Sort, NonzeroRowMajor) {
  const Shape s{3, 4, 5};
  const Values v = tied_input(dt(), 60, 73);
  Tensor t = make(v, s), r, st, tt;
  int64_t n = 0;
  const Values want = ref_nonzero(v, s, &n);
  CTS_ASSERT_OK(kf_nonzero(t.get(), r.put()));
  EXPECT_TRUE(matches(r, want, {n, 3}, KF_INT64));
  // Fewer rows than found, and more (filled).
  CTS_ASSERT_OK(kf_nonzero_static(t.get(), 2, -1, st.put()));
  EXPECT_TRUE(matches(st, Values(want.begin(), want.begin() + std::min<int64_t>(6, 3 * n)),
                      {2, 3}, KF_INT64));
  Tensor more;
  CTS_ASSERT_OK(kf_nonzero_static(t.get(), n + 2, 7, more.put()));
  Values filled = want;
  for (int k = 0; k < 6; ++k) filled.push_back(7);
  EXPECT_TRUE(matches(more, filled, {n + 2, 3}, KF_INT64));
  // A transposed view: the coordinates are the view's.
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 2, tt.put()));
  Tensor rt;
  CTS_ASSERT_OK(kf_nonzero(tt.get(), rt.put()));
  int64_t nt = 0;
  const Values tv = gather_strided(v, 0, {5, 4, 3}, {1, 5, 20});
  const Values want_t = ref_nonzero(tv, {5, 4, 3}, &nt);
  EXPECT_TRUE(matches(rt, want_t, {nt, 3}, KF_INT64));
}

TEST_P(SortAny, NonzeroLargeNanAndErrors) {
  Values v(200000, 0.0);
  for (size_t i = 0; i < v.size(); i += 7) v[i] = (i % 3 == 0) ? NAN : -0.5;
  Tensor t = make(v, {400, 500}, KF_FLOAT32), r, z = make(Values{1}, {}, KF_FLOAT32), zr;
  int64_t n = 0;
  const Values want = ref_nonzero(v, {400, 500}, &n);
  CTS_ASSERT_OK(kf_nonzero(t.get(), r.put()));
  EXPECT_TRUE(matches(r, want, {n, 2}, KF_INT64));
  EXPECT_TRUE(red::refused(kf_nonzero(z.get(), zr.put()), "nonzero"));
  EXPECT_TRUE(red::refused(kf_nonzero_static(t.get(), -1, 0, zr.put()), "nonzero_static"));
}

TEST_P(SortAny, NonzeroOfALargeMaskOnOneToThreeThreads) {
  // 300k bools, about half true at random: each thread's chunk holds many runs of positions;
  // a size of half the count ends inside the first thread's rows or the second's.
  int32_t before_threads = 0;
  CTS_ASSERT_OK(kf_get_num_threads(&before_threads));
  Values v = pseudo_random(300000, 0, 2, 79, true);
  for (double& x : v) x = x != 0 ? 1 : 0;
  const int64_t n = static_cast<int64_t>(v.size());
  int64_t count = 0;
  const Values want = ref_nonzero(v, {n}, &count);
  Tensor t = make(v, {n}, KF_BOOL);
  for (int32_t threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    CTS_ASSERT_OK(kf_set_num_threads(threads));
    Tensor r, half, more;
    CTS_ASSERT_OK(kf_nonzero(t.get(), r.put()));
    EXPECT_TRUE(matches(r, want, {count, 1}, KF_INT64));
    for (int64_t size : {count / 2, count * 2 / 3}) {
      CTS_ASSERT_OK(kf_nonzero_static(t.get(), size, -1, half.put()));
      EXPECT_TRUE(matches(half, Values(want.begin(), want.begin() + size), {size, 1}, KF_INT64));
    }
    CTS_ASSERT_OK(kf_nonzero_static(t.get(), count + 3, -9, more.put()));
    Values filled = want;
    filled.insert(filled.end(), 3, -9);
    EXPECT_TRUE(matches(more, filled, {count + 3, 1}, KF_INT64));
  }
  if (before_threads > 0) CTS_EXPECT_OK(kf_set_num_threads(before_threads));
}

// ------------------------------------------------------------------ searchsorted

int64_t ref_search(const Values& seq, double v, bool right) {
  int64_t i = 0;
  while (i < static_cast<int64_t>(seq.size()) &&
         (right ? !before(v, seq[static_cast<size_t>(i)])
                : before(seq[static_cast<size_t>(i)], v)))
    ++i;
  return i;
}

TEST_P(Sort, SearchsortedBothSides) {
  const Values seq = sorted_line(tied_input(dt(), 40, 79), false);
  const Values vals = tied_input(dt(), 24, 83);
  Tensor s = make(seq, {40}), x = make(vals, {4, 6});
  for (bool right : {false, true}) {
    SCOPED_TRACE(right ? "right" : "left");
    Tensor r;
    CTS_ASSERT_OK(kf_searchsorted(s.get(), x.get(), right, r.put()));
    Values want;
    for (double v : vals) want.push_back(static_cast<double>(ref_search(seq, v, right)));
    EXPECT_TRUE(matches(r, want, {4, 6}, KF_INT64));
  }
}

TEST_P(SortAny, SearchsortedPromotesAndNan) {
  Tensor s = make(Values{-1, 0, 0, 2, INFINITY, NAN}, {6}, KF_FLOAT32);
  Tensor x = make(Values{0.5, -0.0, NAN, INFINITY, -5, 3}, {6}, KF_FLOAT64), r, q;
  CTS_ASSERT_OK(kf_searchsorted(s.get(), x.get(), false, r.put()));
  EXPECT_TRUE(matches(r, Values{3, 1, 5, 4, 0, 4}, {6}, KF_INT64));
  CTS_ASSERT_OK(kf_searchsorted(s.get(), x.get(), true, q.put()));
  EXPECT_TRUE(matches(q, Values{3, 3, 6, 5, 0, 4}, {6}, KF_INT64));
  Tensor i = make(Values{1, 2, 3}, {3}, KF_INT32), v = make(Values{2.5}, {}, KF_FLOAT32), ri;
  CTS_ASSERT_OK(kf_searchsorted(i.get(), v.get(), false, ri.put()));
  EXPECT_TRUE(matches(ri, Values{2}, {}, KF_INT64));
  Tensor two_d = make(Values{1, 2, 3, 4}, {2, 2}, KF_FLOAT32), bad;
  EXPECT_TRUE(red::refused(kf_searchsorted(two_d.get(), x.get(), false, bad.put()), "searchsorted"));
}

TEST_P(SortAny, SearchsortedStridedSequenceAndValues) {
  // The sequence every second element of a longer one, the values a transposed view, with
  // NaNs, zeros of both signs and infinities among both.
  const Values base{-INFINITY, 0, -3, 0, -0.0, 0, 0.0, 0, 1.5, 0, 1.5, 0, INFINITY, 0, NAN, 0};
  const Values vals{1.5, -0.0, NAN, 7, -INFINITY, 0.0, 1, -4, INFINITY, 1.5, 0.0, -3};
  for (kf_dtype_t d : {KF_FLOAT32, KF_FLOAT64, KF_BFLOAT16}) {
    CTS_REQUIRE_IN_LOOP(d, "searchsorted");
    Tensor b = make(base, {8, 2}, d), seq, x = make(vals, {3, 4}, d), xt;
    CTS_ASSERT_OK(kf_select(b.get(), 1, 0, seq.put()));
    CTS_ASSERT_OK(kf_transpose(x.get(), 0, 1, xt.put()));
    const Values sv = gather_strided(base, 0, {8}, {2});
    const Values tv = gather_strided(vals, 0, {4, 3}, {1, 4});
    for (bool right : {false, true}) {
      SCOPED_TRACE(std::string(dtype_str(d)) + (right ? ", right" : ", left"));
      Tensor r;
      CTS_ASSERT_OK(kf_searchsorted(seq.get(), xt.get(), right, r.put()));
      Values want;
      for (double v : tv) want.push_back(static_cast<double>(ref_search(sv, v, right)));
      EXPECT_TRUE(matches(r, want, {4, 3}, KF_INT64));
    }
  }
}

// ------------------------------------------------------------------ cumprod

TEST_P(SortAny, CumprodLinesAndWrap) {
  const Values v{1, 2, 3, 4, -1, 0.5, 2, 2};
  Tensor t = make(v, {2, 4}, KF_FLOAT64), r, c;
  CTS_ASSERT_OK(kf_cumprod(t.get(), 1, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{1, 2, 6, 24, -1, -0.5, -1, -2}, {2, 4}, KF_FLOAT64));
  CTS_ASSERT_OK(kf_cumprod(t.get(), 0, KF_DTYPE_UNDEFINED, c.put()));
  EXPECT_TRUE(matches(c, Values{1, 2, 3, 4, -1, 1, 6, 8}, {2, 4}, KF_FLOAT64));
  Tensor i8 = make(Values{16, 16, 2}, {3}, KF_INT8), ri, wi;
  CTS_ASSERT_OK(kf_cumprod(i8.get(), 0, KF_DTYPE_UNDEFINED, ri.put()));
  EXPECT_TRUE(matches(ri, Values{16, 256, 512}, {3}, KF_INT64));
  CTS_ASSERT_OK(kf_cumprod(i8.get(), 0, KF_INT8, wi.put()));
  EXPECT_TRUE(matches(wi, Values{16, 0, 0}, {3}, KF_INT8));
}

CTS_INSTANTIATE(Sort, params_all());
CTS_INSTANTIATE(SortAny, params_any());

}  // namespace
}  // namespace cts
