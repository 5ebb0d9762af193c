// CTS: written tensors that share memory with the call's inputs or with themselves.
//
// An out= tensor or an in-place self that overlaps an input other than itself is computed as if
// the inputs had been read first (the core reads such an input from a copy); one whose own
// elements share memory (stride 0, overlapping strides) is refused; an output that is exactly its
// input (same address, dtype, shape and strides) of a pointwise op is written in place, with no
// temporary. Every expected value is computed here from the values before the call.
#include "cts_util.hpp"

namespace cts {
namespace {

class Overlap : public CtsTest {  // backend x every dtype but bool
 protected:
  // [start, end) of 1-D `t`.
  Tensor slice(const Tensor& t, int64_t start, int64_t end, int64_t step = 1) const {
    Tensor s;
    const kf_status_t st = kf_slice(t.get(), 0, &start, &end, step, s.put());
    if (st != KF_OK) ADD_FAILURE() << "kf_slice -> " << status_text(st);
    return s;
  }
  // A tensor over `base`'s memory from element `offset` on, with its own shape and strides.
  Tensor alias(const Tensor& base, int64_t offset, const Shape& shape, const Shape& strides) const {
    Tensor t;
    char* p = const_cast<char*>(base.data()) + offset * static_cast<int64_t>(kf_dtype_size(dt()));
    const kf_status_t s = kf_tensor_from_blob(p, shape.data(), strides.data(),
                                              static_cast<int32_t>(shape.size()), dt(), dev(),
                                              nullptr, nullptr, t.put());
    if (s != KF_OK) ADD_FAILURE() << "kf_tensor_from_blob -> " << status_text(s);
    return t;
  }
  uint64_t allocs() const {
    kf_memory_stats_t m;
    std::memset(&m, 0, sizeof m);
    m.struct_size = sizeof m;
    if (kf_memory_stats(dev(), &m) != KF_OK) ADD_FAILURE() << "kf_memory_stats failed";
    return m.num_allocs;
  }
};

constexpr int64_t kN = 64;  // long enough that any chunked kernel crosses a chunk boundary

// base[0, kN] = 0, 1, ..., kN; the values the shifted tests start from.
const Values& base_values() {
  static const Values v = iota(kN + 1);
  return v;
}

// The value of `base` after writing f(base[in + i]) to base[out + i] for i < kN, all reads first.
Values shifted_result(int64_t in, int64_t out, const std::function<double(double, size_t)>& f) {
  Values v = base_values();
  const Values old = v;
  for (int64_t i = 0; i < kN; ++i) {
    v[static_cast<size_t>(out + i)] = f(old[static_cast<size_t>(in + i)], static_cast<size_t>(i));
  }
  return v;
}

// The two shifts: out one element after the input (a forward loop reads what it just wrote) and
// one element before it (a backward loop would).
constexpr int64_t kShifts[2][2] = {{0, 1}, {1, 0}};  // {input start, out start}

TEST_P(Overlap, AddOutPartialOverlap) {
  CTS_REQUIRE(dt(), "add");
  const Values bv = in(pseudo_random(kN, -5, 5, 1, true));
  Tensor b = make(bv, {kN});
  for (const auto& sh : kShifts) {
    Tensor base = make(base_values(), {kN + 1});
    Tensor in = slice(base, sh[0], sh[0] + kN), out = slice(base, sh[1], sh[1] + kN);
    for (int i = 0; i < 2; ++i) {  // the thread now has a call plan for add of these operands
      Tensor r;
      CTS_ASSERT_OK(kf_add(in.get(), b.get(), kf_scalar_i64(2), r.put()));
    }
    CTS_ASSERT_OK(kf_add_out(in.get(), b.get(), kf_scalar_i64(2), out.get()));
    EXPECT_TRUE(matches(base, shifted_result(sh[0], sh[1], [&](double x, size_t i) {
                          return x + 2 * bv[i];
                        }), {kN + 1}, dt()))
        << "input starts at " << sh[0] << ", out at " << sh[1];
  }
}

TEST_P(Overlap, MulOutPartialOverlapOnEitherInput) {
  CTS_REQUIRE(dt(), "mul");
  const Values bv = in(pseudo_random(kN, -3, 3, 2, true));
  Tensor b = make(bv, {kN});
  for (const auto& sh : kShifts) {
    Tensor base = make(base_values(), {kN + 1});
    Tensor in = slice(base, sh[0], sh[0] + kN), out = slice(base, sh[1], sh[1] + kN);
    CTS_ASSERT_OK(kf_mul_out(b.get(), in.get(), out.get()));  // the overlap is on `other`
    EXPECT_TRUE(matches(base, shifted_result(sh[0], sh[1], [&](double x, size_t i) {
                          return bv[i] * x;
                        }), {kN + 1}, dt()));
  }
}

TEST_P(Overlap, MulOutIntoTheTransposeOfAnInput) {
  CTS_REQUIRE(dt(), "mul");
  // out covers exactly a's memory, but transposed: not the in-place case.
  const Shape s{8, 8};
  const Values av = iota(64), bv = in(pseudo_random(64, -3, 3, 3, true));
  Tensor a = make(av, s), b = make(bv, s), at;
  CTS_ASSERT_OK(kf_transpose(a.get(), 0, 1, at.put()));
  CTS_ASSERT_OK(kf_mul_out(a.get(), b.get(), at.get()));
  const Values prod = ref_binary(av, s, bv, s, std::multiplies<double>(), nullptr);
  EXPECT_TRUE(matches(at, prod, s, dt()));
  EXPECT_TRUE(matches(a, gather_strided(prod, 0, s, {1, 8}), s, dt()));
}

TEST_P(Overlap, NegOutPartialOverlap) {
  CTS_REQUIRE(dt(), "neg");
  for (const auto& sh : kShifts) {
    Tensor base = make(base_values(), {kN + 1});
    Tensor in = slice(base, sh[0], sh[0] + kN), out = slice(base, sh[1], sh[1] + kN);
    CTS_ASSERT_OK(kf_neg_out(in.get(), out.get()));
    EXPECT_TRUE(matches(base, shifted_result(sh[0], sh[1], [](double x, size_t) { return -x; }),
                        {kN + 1}, dt()));
  }
}

TEST_P(Overlap, CopyPartialOverlap) {
  CTS_REQUIRE(dt(), "copy_");
  for (const auto& sh : kShifts) {
    Tensor base = make(base_values(), {kN + 1});
    Tensor src = slice(base, sh[0], sh[0] + kN), self = slice(base, sh[1], sh[1] + kN);
    CTS_ASSERT_OK(kf_copy_(self.get(), src.get()));
    EXPECT_TRUE(matches(base, shifted_result(sh[0], sh[1], [](double x, size_t) { return x; }),
                        {kN + 1}, dt()));
  }
}

TEST_P(Overlap, CopyPartialOverlapThroughOpCall) {
  CTS_REQUIRE(dt(), "copy_");
  kf_op_t copy = nullptr;
  CTS_ASSERT_OK(kf_op_find("copy_", &copy));
  for (const auto& sh : kShifts) {
    Tensor base = make(base_values(), {kN + 1});
    Tensor src = slice(base, sh[0], sh[0] + kN), self = slice(base, sh[1], sh[1] + kN);
    const kf_value_t args[2] = {kf_value_tensor(self.get()), kf_value_tensor(src.get())};
    kf_value_t res[1] = {kf_value_none()};
    CTS_ASSERT_OK(kf_op_call(copy, args, 2, res, 1));
    Tensor r(res[0].v.tensor);
    EXPECT_EQ(r.data(), self.data()) << "copy_ returns self";
    EXPECT_TRUE(matches(base, shifted_result(sh[0], sh[1], [](double x, size_t) { return x; }),
                        {kN + 1}, dt()));
  }
}

TEST_P(Overlap, OutAliasesBorrowedMemoryOfAnInput) {
  CTS_REQUIRE(dt(), "sub");
  // Two tensors over one buffer (kf_tensor_from_blob): no shared storage object, same memory.
  const Values bv = in(pseudo_random(kN, -5, 5, 4, true));
  Tensor b = make(bv, {kN});
  for (const auto& sh : kShifts) {
    Tensor base = make(base_values(), {kN + 1});
    Tensor in = alias(base, sh[0], {kN}, {1}), out = alias(base, sh[1], {kN}, {1});
    CTS_ASSERT_OK(kf_sub_out(in.get(), b.get(), one(), out.get()));
    EXPECT_TRUE(matches(base, shifted_result(sh[0], sh[1], [&](double x, size_t i) {
                          return x - bv[i];
                        }), {kN + 1}, dt()));
  }
}

// Row-major a @ b of n x n matrices, in double.
Values ref_mm(const Values& a, const Values& b, int64_t n) {
  Values c(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        c[static_cast<size_t>(i * n + j)] +=
            a[static_cast<size_t>(i * n + k)] * b[static_cast<size_t>(k * n + j)];
  return c;
}

TEST_P(Overlap, MmOutIntoOneOfItsInputs) {
  CTS_REQUIRE(dt(), "mm");
  const int64_t n = 24;
  const Shape s{n, n};
  const Values av = in(pseudo_random(n * n, -3, 3, 5, true));
  const Values bv = in(pseudo_random(n * n, -3, 3, 6, true));
  const Values want = ref_mm(av, bv, n);
  {
    Tensor a = make(av, s), b = make(bv, s);
    CTS_ASSERT_OK(kf_mm_out(a.get(), b.get(), a.get()));
    EXPECT_TRUE(matches(a, want, s, dt())) << "out = self";
  }
  {
    Tensor a = make(av, s), b = make(bv, s);
    CTS_ASSERT_OK(kf_mm_out(a.get(), b.get(), b.get()));
    EXPECT_TRUE(matches(b, want, s, dt())) << "out = mat2";
  }
  {  // out is the transpose of self
    Tensor a = make(av, s), b = make(bv, s), at;
    CTS_ASSERT_OK(kf_transpose(a.get(), 0, 1, at.put()));
    CTS_ASSERT_OK(kf_mm_out(a.get(), b.get(), at.get()));
    EXPECT_TRUE(matches(at, want, s, dt())) << "out = self transposed";
  }
}

TEST_P(Overlap, SumOutIntoAColumnOfItsInput) {
  CTS_REQUIRE(dt(), "sum");
  // out[j] = sum_i x[i][j] is written to x[j][c]: column c of x, which every out[j] reads.
  const int64_t n = 6;
  const Shape s{n, n};
  const Values xv = in(pseudo_random(n * n, -9, 9, 7, true));
  for (int64_t c : {int64_t{0}, n - 1}) {
    Tensor x = make(xv, s), col;
    CTS_ASSERT_OK(kf_select(x.get(), 1, c, col.put()));
    const int64_t dim = 0;
    CTS_ASSERT_OK(kf_sum_out(x.get(), &dim, 1, false, dt(), col.get()));
    Values want = xv;
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += xv[static_cast<size_t>(i * n + j)];
      want[static_cast<size_t>(j * n + c)] = sum;
    }
    EXPECT_TRUE(matches(x, want, s, dt())) << "out is column " << c;
  }
}

TEST_P(Overlap, InplaceOnAnExpandedViewIsRefused) {
  CTS_REQUIRE(dt(), "add", "copy_", "neg");
  Tensor row = make(Values{1, 2, 3}, {3}), ex, other = make(Values{1, 1, 1, 1, 1, 1}, {2, 3});
  const Shape es{2, 3};
  CTS_ASSERT_OK(kf_expand(row.get(), es.data(), 2, ex.put()));
  EXPECT_EQ(kf_add_(ex.get(), other.get(), one()), KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("add"), std::string::npos) << msg;
  EXPECT_NE(msg.find("self"), std::string::npos) << msg;
  EXPECT_NE(msg.find("clone"), std::string::npos) << msg;
  EXPECT_EQ(kf_copy_(ex.get(), other.get()), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_neg_(ex.get()), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(matches(row, Values{1, 2, 3}, {3}, dt())) << "a refused call writes nothing";
}

TEST_P(Overlap, WrittenTensorWithOverlappingStridesIsRefused) {
  CTS_REQUIRE(dt(), "add", "copy_", "neg");
  // t[i][j] is element i + j of base: t[0][1] and t[1][0] are one memory location.
  Tensor base = make(Values{1, 2, 3, 4}, {4});
  Tensor t = alias(base, 0, {3, 2}, {1, 1});
  Tensor a = make(Values{1, 2, 3, 4, 5, 6}, {3, 2}), b = make(Values{1, 1, 1, 1, 1, 1}, {3, 2});
  EXPECT_EQ(kf_add_out(a.get(), b.get(), one(), t.get()), KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("add"), std::string::npos) << msg;
  EXPECT_NE(msg.find("out"), std::string::npos) << msg;
  EXPECT_NE(msg.find("memory location"), std::string::npos) << msg;
  EXPECT_EQ(kf_add_(t.get(), b.get(), one()), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_copy_(t.get(), a.get()), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_neg_out(a.get(), t.get()), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(matches(base, Values{1, 2, 3, 4}, {4}, dt())) << "a refused call writes nothing";
  // Reading such a tensor is fine.
  Tensor r;
  CTS_ASSERT_OK(kf_add(t.get(), b.get(), one(), r.put()));
  EXPECT_TRUE(matches(r, Values{2, 3, 3, 4, 4, 5}, {3, 2}, dt()));
}

TEST_P(Overlap, InterleavedButDistinctStridesAreWritten) {
  CTS_REQUIRE(dt(), "neg");
  // Shape [2, 3], strides [4, 3]: offsets 0 3 6 / 4 7 10, all distinct although the strides
  // interleave. Such a tensor can be written.
  Tensor base = make(Values(11, 0.0), {11});
  Tensor t = alias(base, 0, {2, 3}, {4, 3});
  Tensor a = make(Values{1, 2, 3, 4, 5, 6}, {2, 3});
  CTS_ASSERT_OK(kf_neg_out(a.get(), t.get()));
  EXPECT_TRUE(matches(base, Values{-1, 0, 0, -2, -4, 0, -3, -5, 0, 0, -6}, {11}, dt()));
}

TEST_P(Overlap, FullOverlapInPlaceIsDirectAndCorrect) {
  CTS_REQUIRE(dt(), "add", "mul");
  const Values av = in(pseudo_random(kN, -5, 5, 8, true));
  const Values bv = in(pseudo_random(kN, -5, 5, 9, true));
  Tensor a = make(av, {kN}), b = make(bv, {kN});
  const char* before = a.data();
  const uint64_t n0 = allocs();
  CTS_ASSERT_OK(kf_add_(a.get(), b.get(), kf_scalar_i64(2)));
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), a.get()));
  CTS_ASSERT_OK(kf_mul_out(b.get(), b.get(), b.get()));
  EXPECT_EQ(allocs(), n0) << "the in-place case needs no temporary";
  EXPECT_EQ(a.data(), before);
  Values wa(av.size()), wb(bv.size());
  for (size_t i = 0; i < av.size(); ++i) wa[i] = av[i] + 3 * bv[i], wb[i] = bv[i] * bv[i];
  EXPECT_TRUE(matches(a, wa, {kN}, dt()));
  EXPECT_TRUE(matches(b, wb, {kN}, dt()));
  // The same through a transposed view: same address, same strides.
  const Values tv = iota(6, 1);
  Tensor base = make(tv, {3, 2}), t, t2;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t2.put()));
  CTS_ASSERT_OK(kf_add_out(t.get(), t2.get(), one(), t.get()));
  Values w2(tv.size());
  for (size_t i = 0; i < tv.size(); ++i) w2[i] = 2 * tv[i];
  EXPECT_TRUE(matches(base, w2, {3, 2}, dt()));
}

CTS_INSTANTIATE(Overlap, params_all_numeric());

}  // namespace
}  // namespace cts
