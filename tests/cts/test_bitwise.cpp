// CTS: bitwise_and, bitwise_or, bitwise_xor, bitwise_not, bitwise_left_shift,
// bitwise_right_shift on every integer dtype (the unsigned ones of ABI 2.0 included) and bool
// (and/or/xor/not only, where they are logical), against an int64 reference wrapped to the
// dtype: negative values in two's complement, shift counts past the width (every bit shifted
// out: 0, or -1 for a negative signed value), broadcasting, in place, out= of a
// non-contiguous view, and the refusal of floating operands naming the op.
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class Bitwise : public CtsTest {};       // backend x every integer dtype and bool
class BitwiseShift : public CtsTest {};  // backend x every integer dtype
class BitwiseAny : public CtsTest {};    // backend

using BinaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t, kf_tensor_t*);
using BinaryInplaceFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);

int bits_of(kf_dtype_t d) { return static_cast<int>(kf_dtype_size(d)) * 8; }
bool is_signed(kf_dtype_t d) { return kf_dtype_kind(d) == 'i'; }

// v for dtype d: magnitudes for the unsigned dtypes, which the int64 reference then reads
// exactly (a negative stored in uint64 would be a double past int64's range).
Values for_dtype(Values v, kf_dtype_t d) {
  if (kf_dtype_kind(d) == 'u') {
    for (double& x : v) x = std::fabs(x);
  }
  return v;
}
Values operands_a(kf_dtype_t d) {
  if (d == KF_BOOL) return {0, 1, 0, 1, 1, 0};
  return for_dtype({12, -7, 5, 0, -128, 127}, d);
}
Values operands_b(kf_dtype_t d) {
  if (d == KF_BOOL) return {0, 0, 1, 1, 1, 0};
  return for_dtype({10, 3, -2, -1, 6, 85}, d);
}

int64_t as_int(double x) { return static_cast<int64_t>(x); }
// x as the dtype stores it, back in double; uint64 keeps the bits of an int64 reference.
double wrapped(kf_dtype_t d, int64_t x) {
  if (d == KF_BOOL) return x != 0 ? 1 : 0;
  return round_to(d, static_cast<double>(x));
}

struct LogicOp {
  const char* name;
  BinaryFn fn;
  BinaryInplaceFn inplace;
  int64_t (*ref)(int64_t, int64_t);
};

const LogicOp kLogic[] = {
    {"bitwise_and", kf_bitwise_and, kf_bitwise_and_, [](int64_t x, int64_t y) { return x & y; }},
    {"bitwise_or", kf_bitwise_or, kf_bitwise_or_, [](int64_t x, int64_t y) { return x | y; }},
    {"bitwise_xor", kf_bitwise_xor, kf_bitwise_xor_, [](int64_t x, int64_t y) { return x ^ y; }},
};

// The stored operands as the int64 they are bit for bit (sign-extended or zero-extended).
std::vector<int64_t> ints(const Values& stored_values) {
  std::vector<int64_t> out;
  for (double x : stored_values) out.push_back(as_int(x));
  return out;
}

TEST_P(Bitwise, AndOrXor) {
  const Values a = stored(operands_a(dt()), dt()), b = stored(operands_b(dt()), dt());
  const std::vector<int64_t> ia = ints(a), ib = ints(b);
  for (const LogicOp& op : kLogic) {
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    SCOPED_TRACE(op.name);
    Values want(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = wrapped(dt(), op.ref(ia[i], ib[i]));
    Tensor x = make(a, {2, 3}), y = make(b, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(x.get(), y.get(), r.put()));
    EXPECT_TRUE(matches(r, want, {2, 3}, dt()));
    // Broadcast a row, and in place.
    Tensor row = make(Values(b.begin(), b.begin() + 3), {3});
    CTS_ASSERT_OK(op.fn(x.get(), row.get(), r.put()));
    Values want_row(a.size());
    for (size_t i = 0; i < a.size(); ++i) want_row[i] = wrapped(dt(), op.ref(ia[i], ib[i % 3]));
    EXPECT_TRUE(matches(r, want_row, {2, 3}, dt()));
    CTS_ASSERT_OK(op.inplace(x.get(), y.get()));
    EXPECT_TRUE(matches(x, want, {2, 3}, dt()));
  }
}

TEST_P(Bitwise, NotAndOutOfAView) {
  CTS_REQUIRE(dt(), "bitwise_not");
  const Values a = stored(operands_a(dt()), dt());
  Values want(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    want[i] = dt() == KF_BOOL ? (a[i] != 0 ? 0 : 1) : wrapped(dt(), ~as_int(a[i]));
  }
  Tensor x = make(a, {2, 3}), r;
  CTS_ASSERT_OK(kf_bitwise_not(x.get(), r.put()));
  EXPECT_TRUE(matches(r, want, {2, 3}, dt()));
  Tensor base, out = transposed_out(2, 3, dt(), dev(), base);
  CTS_ASSERT_OK(kf_bitwise_not_out(x.get(), out.get()));
  EXPECT_TRUE(matches(out, want, {2, 3}, dt()));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2}, dt()));
  CTS_ASSERT_OK(kf_bitwise_not_(x.get()));
  EXPECT_TRUE(matches(x, want, {2, 3}, dt()));
}

TEST_P(BitwiseShift, LeftAndRight) {
  CTS_REQUIRE(dt(), "bitwise_left_shift", "bitwise_right_shift");
  const int w = bits_of(dt());
  const Values a = stored(for_dtype({1, -7, 12, -128, 127, 3, -1, 5}, dt()), dt());
  const Values n = {0, 1, 2, 3, static_cast<double>(w - 1), static_cast<double>(w),
                    static_cast<double>(w + 3), is_signed(dt()) ? -1.0 : 4.0};
  Values left(a.size()), right(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const int64_t x = as_int(a[i]), k = as_int(n[i]);
    const bool out_of_range = k < 0 || k >= w;
    // The left shift in uint64 (wrapping), the right shift on the sign-extended int64.
    const auto shifted_left = static_cast<int64_t>(static_cast<uint64_t>(x) << (k & 63));
    left[i] = out_of_range ? 0 : wrapped(dt(), shifted_left);
    if (out_of_range) {
      right[i] = is_signed(dt()) && x < 0 ? -1 : 0;
    } else {
      right[i] = wrapped(dt(), x >> k);  // x is nonnegative for the unsigned dtypes
    }
  }
  Tensor x = make(a, {8}), k = make(n, {8}), r;
  CTS_ASSERT_OK(kf_bitwise_left_shift(x.get(), k.get(), r.put()));
  EXPECT_TRUE(matches(r, left, {8}, dt()));
  CTS_ASSERT_OK(kf_bitwise_right_shift(x.get(), k.get(), r.put()));
  EXPECT_TRUE(matches(r, right, {8}, dt()));
  CTS_ASSERT_OK(kf_bitwise_right_shift_(x.get(), k.get()));
  EXPECT_TRUE(matches(x, right, {8}, dt()));
}

TEST_P(BitwiseAny, RefusesFloatsAndBoolShifts) {
  const Shape s{3};
  Tensor f = make_tensor({1, 2, 3}, s, KF_FLOAT32, dev());
  Tensor i = make_tensor({1, 2, 3}, s, KF_INT32, dev());
  Tensor b = make_tensor({1, 0, 1}, s, KF_BOOL, dev()), r;
  EXPECT_TRUE(is_invalid(kf_bitwise_and(f.get(), i.get(), r.put()), "bitwise_and"));
  EXPECT_TRUE(is_invalid(kf_bitwise_not(f.get(), r.put()), "bitwise_not"));
  EXPECT_TRUE(is_invalid(kf_bitwise_left_shift(b.get(), b.get(), r.put()), "bitwise_left_shift"));
  // bool with an integer promotes to the integer.
  CTS_ASSERT_OK(kf_bitwise_or(b.get(), i.get(), r.put()));
  EXPECT_TRUE(matches(r, {1, 2, 3}, s, KF_INT32));
}

CTS_INSTANTIATE(Bitwise, params({KF_INT8, KF_UINT8, KF_INT16, KF_UINT16, KF_INT32, KF_UINT32,
                                 KF_INT64, KF_UINT64, KF_BOOL}));
CTS_INSTANTIATE(BitwiseShift, params({KF_INT8, KF_UINT8, KF_INT16, KF_UINT16, KF_INT32,
                                      KF_UINT32, KF_INT64, KF_UINT64}));
CTS_INSTANTIATE(BitwiseAny, params_any());

}  // namespace
}  // namespace cts
