// CTS: the unsigned integer dtypes of C ABI 2.0 (uint16, uint32, uint64) with values at the top
// of their ranges, where an implementation that treats them as signed, or reads them through a
// double, goes wrong: wrapping arithmetic, unsigned comparison, sums into uint64, extrema,
// conversions to and from float64 and int64, fill values up to 2^64 - 1, and the promotion
// rules of the array API standard (uint64 with a signed integer has no common dtype). The
// references are exact uint64 arithmetic and long double (wide.hpp).
#include "wide.hpp"

namespace cts {
namespace {

using wide::max_of;
using wide::same_unsigned;

class Unsigned : public CtsTest {
 protected:
  Tensor make_u(const std::vector<uint64_t>& v, const Shape& s) const {
    return wide::make_unsigned(v, s, dt(), dev());
  }
  /// Values near 0 and near the dtype's top (and, for uint64, on both sides of 2^63).
  std::vector<uint64_t> edge_values() const {
    const uint64_t m = max_of(dt());
    return {0, 1, 2, 3, 7, m, m - 1, m - 2, m / 2, m / 2 + 1, m / 3, 12345};
  }
};

TEST_P(Unsigned, AddSubMulWrapAtTheTop) {
  CTS_REQUIRE(dt(), "add", "sub", "mul");
  const std::vector<uint64_t> a = edge_values();
  std::vector<uint64_t> b(a.rbegin(), a.rend());
  Tensor x = make_u(a, {3, 4}), y = make_u(b, {3, 4}), r;
  std::vector<uint64_t> sum(a.size()), diff(a.size()), prod(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    sum[i] = a[i] + b[i];  // uint64 wraps modulo 2^64; wrap() takes the dtype's bits
    diff[i] = a[i] - b[i];
    prod[i] = a[i] * b[i];
  }
  CTS_ASSERT_OK(kf_add(x.get(), y.get(), one(), r.put()));
  EXPECT_TRUE(same_unsigned(r, sum, dt()));
  CTS_ASSERT_OK(kf_sub(x.get(), y.get(), one(), r.put()));
  EXPECT_TRUE(same_unsigned(r, diff, dt()));
  CTS_ASSERT_OK(kf_mul(x.get(), y.get(), r.put()));
  EXPECT_TRUE(same_unsigned(r, prod, dt()));
}

TEST_P(Unsigned, ComparisonsAreUnsigned) {
  CTS_REQUIRE(dt(), "lt", "gt", "eq");
  const std::vector<uint64_t> a = edge_values();
  std::vector<uint64_t> b(a.rbegin(), a.rend());
  Tensor x = make_u(a, {12}), y = make_u(b, {12}), r;
  std::vector<uint64_t> lt(a.size()), gt(a.size()), eq(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    lt[i] = a[i] < b[i];
    gt[i] = a[i] > b[i];
    eq[i] = a[i] == b[i];
  }
  auto as_bools = [](const Tensor& t) {
    std::vector<uint64_t> out;
    for (unsigned char c : wide::host_bytes(t)) out.push_back(c != 0);
    return out;
  };
  CTS_ASSERT_OK(kf_lt(x.get(), y.get(), r.put()));
  EXPECT_EQ(as_bools(r), lt);
  CTS_ASSERT_OK(kf_gt(x.get(), y.get(), r.put()));
  EXPECT_EQ(as_bools(r), gt);
  CTS_ASSERT_OK(kf_eq(x.get(), y.get(), r.put()));
  EXPECT_EQ(as_bools(r), eq);
}

TEST_P(Unsigned, SumIsUint64AndExtremaAreUnsigned) {
  CTS_REQUIRE(dt(), "sum", "amax", "amin");
  const std::vector<uint64_t> a = edge_values();
  Tensor x = make_u(a, {12}), r;
  uint64_t sum = 0, hi = 0, lo = UINT64_MAX;
  for (uint64_t v : a) {
    sum += v;  // the sum's dtype is uint64 (numpy, the array API): wraps modulo 2^64
    hi = std::max(hi, v);
    lo = std::min(lo, v);
  }
  CTS_ASSERT_OK(kf_sum(x.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(same_unsigned(r, {sum}, KF_UINT64));
  CTS_ASSERT_OK(kf_amax(x.get(), nullptr, 0, false, r.put()));
  EXPECT_TRUE(same_unsigned(r, {hi}, dt()));
  CTS_ASSERT_OK(kf_amin(x.get(), nullptr, 0, false, r.put()));
  EXPECT_TRUE(same_unsigned(r, {lo}, dt()));
}

TEST_P(Unsigned, ConversionsKeepTheValue) {
  CTS_REQUIRE(dt(), "to_dtype");
  const std::vector<uint64_t> a = edge_values();
  Tensor x = make_u(a, {12}), f, back;
  CTS_ASSERT_OK(kf_to_dtype(x.get(), KF_FLOAT64, f.put()));
  const std::vector<unsigned char> bytes = wide::host_bytes(f);
  for (size_t i = 0; i < a.size(); ++i) {
    double got;
    std::memcpy(&got, bytes.data() + 8 * i, 8);
    EXPECT_EQ(got, static_cast<double>(static_cast<wide::Wide>(a[i])))
        << "element " << i << " (" << a[i] << ") as float64";
  }
  // float64 back to the dtype: exact where float64 holds the value (every value but the
  // rounded uint64 tops, which round up to 2^64 and out of range: left out).
  std::vector<uint64_t> exact;
  for (uint64_t v : a) {
    if (static_cast<wide::Wide>(static_cast<double>(v)) == static_cast<wide::Wide>(v)) exact.push_back(v);
  }
  Tensor e = make_u(exact, {static_cast<int64_t>(exact.size())});
  CTS_ASSERT_OK(kf_to_dtype(e.get(), KF_FLOAT64, f.put()));
  CTS_ASSERT_OK(kf_to_dtype(f.get(), dt(), back.put()));
  EXPECT_TRUE(same_unsigned(back, exact, dt()));
}

TEST_P(Unsigned, FillTakesTheWholeRangeAndRefusesBeyondIt) {
  CTS_REQUIRE(dt(), "full");
  const int64_t shape[1] = {3};
  const uint64_t m = max_of(dt());
  const kf_scalar_t top = m > uint64_t{INT64_MAX} ? kf_scalar_u64(m)
                                                   : kf_scalar_i64(static_cast<int64_t>(m));
  Tensor r;
  CTS_ASSERT_OK(kf_full(shape, 1, top, dt(), dev(), r.put()));
  EXPECT_TRUE(same_unsigned(r, {m, m, m}, dt()));
  EXPECT_EQ(kf_full(shape, 1, kf_scalar_i64(-1), dt(), dev(), r.put()), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find(kf_dtype_name(dt())), std::string::npos)
      << kf_last_error_message();
  if (m < UINT64_MAX) {  // one above the top
    EXPECT_EQ(kf_full(shape, 1, kf_scalar_i64(static_cast<int64_t>(m) + 1), dt(), dev(), r.put()),
              KF_INVALID_ARGUMENT);
  }
}

class UnsignedAny : public CtsTest {};

TEST_P(UnsignedAny, PromotionFollowsTheStandardsTable) {
  CTS_REQUIRE(KF_INT64, "add");
  Tensor u32 = wide::make_unsigned({1, 2}, {2}, KF_UINT32, dev());
  Tensor i32 = make_tensor({1, -2}, {2}, KF_INT32, dev());
  Tensor r;
  CTS_ASSERT_OK(kf_add(u32.get(), i32.get(), one(), r.put()));
  EXPECT_EQ(r.dtype(), KF_INT64);  // uint32 with int32: int64, which holds both
  Tensor u64 = wide::make_unsigned({1, 2}, {2}, KF_UINT64, dev());
  Tensor i64 = make_tensor({1, -2}, {2}, KF_INT64, dev());
  EXPECT_EQ(kf_add(u64.get(), i64.get(), one(), r.put()), KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("uint64"), std::string::npos) << msg;
  EXPECT_NE(msg.find("int64"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cast"), std::string::npos) << msg;
}

CTS_INSTANTIATE(Unsigned, params({KF_UINT16, KF_UINT32, KF_UINT64}));
CTS_INSTANTIATE(UnsignedAny, params_any());

}  // namespace
}  // namespace cts
