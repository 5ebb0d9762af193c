// CTS: bool bytes that are neither 0 nor 1 (Note [Bool bytes], docs/reliability.md). Borrowed
// memory (kf_tensor_from_blob, DLPack) may hold any byte in a bool tensor; every kernel reads a
// bool as its byte != 0 and writes only 0 and 1, and kf_tensor_from_data normalises while it
// copies. The tensors here hold the bytes 2, 0, 1, 255, 0, 16 (true, false, true, true, false,
// true): borrowed CPU memory, moved byte for byte to the device of another backend.
#include "cts_util.hpp"

namespace cts {
namespace {

class BoolBytes : public CtsTest {
 protected:
  /// A bool tensor on this case's device over the bytes of `raw` (which must outlive it).
  Tensor raw_bools(std::vector<unsigned char>& raw) {
    const int64_t n = static_cast<int64_t>(raw.size());
    Tensor blob, t;
    EXPECT_EQ(kf_tensor_from_blob(raw.data(), &n, nullptr, 1, KF_BOOL, kf_device_cpu(), nullptr,
                                  nullptr, blob.put()), KF_OK) << kf_last_error_message();
    if (dev().type == KF_DEVICE_CPU) return blob;
    EXPECT_EQ(kf_tensor_to(blob.get(), dev(), KF_DTYPE_UNDEFINED, t.put()), KF_OK)
        << kf_last_error_message();
    return t;
  }
  std::vector<unsigned char> raw_ = {2, 0, 1, 255, 0, 16};
  std::vector<unsigned char> all_true_ = {2, 4, 128};
  const Values truth_ = {1, 0, 1, 1, 0, 1};
};

/// The tensor's bytes as they are (no normalisation on the way out).
std::vector<unsigned char> bytes_of(const Tensor& t) {
  std::vector<unsigned char> b(static_cast<size_t>(t.numel()) * kf_dtype_size(t.dtype()));
  EXPECT_EQ(kf_tensor_copy_to_host(t.get(), b.data(), b.size()), KF_OK);
  return b;
}

/// A bool result: the values `want`, every byte 0 or 1.
::testing::AssertionResult bools_are(const Tensor& t, const Values& want) {
  if (t.dtype() != KF_BOOL) return ::testing::AssertionFailure() << "not bool";
  const std::vector<unsigned char> b = bytes_of(t);
  std::vector<unsigned char> w;
  for (double x : want) w.push_back(x != 0 ? 1 : 0);
  if (b == w) return ::testing::AssertionSuccess();
  std::ostringstream os;
  for (unsigned char x : b) os << int(x) << ' ';
  return ::testing::AssertionFailure() << "bytes " << os.str();
}

TEST_P(BoolBytes, SumCountsTrueElements) {
  CTS_REQUIRE(KF_INT64, "sum", "to_dtype");
  Tensor b = raw_bools(raw_), s, c;
  CTS_ASSERT_OK(kf_sum(b.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()));
  EXPECT_TRUE(matches(s, Values{4}, {}, KF_INT64));
  CTS_ASSERT_OK(kf_cumsum(b.get(), 0, KF_DTYPE_UNDEFINED, c.put()));
  EXPECT_TRUE(matches(c, Values{1, 1, 2, 3, 3, 4}, {6}, KF_INT64));
}

TEST_P(BoolBytes, CountNonzeroAndMaskedSelectReadTheBytes) {
  CTS_REQUIRE(KF_INT64, "count_nonzero");
  CTS_REQUIRE(KF_FLOAT32, "masked_select_static");
  std::vector<unsigned char> long_raw(1000, 0);  // past a vector's width: the vector paths
  for (size_t i = 0; i < long_raw.size(); i += 3) {
    long_raw[i] = static_cast<unsigned char>(i % 250 + 2);
  }
  Tensor b = raw_bools(raw_), l = raw_bools(long_raw), c, lc;
  CTS_ASSERT_OK(kf_count_nonzero(b.get(), nullptr, 0, false, c.put()));
  EXPECT_TRUE(matches(c, Values{4}, {}, KF_INT64));
  CTS_ASSERT_OK(kf_count_nonzero(l.get(), nullptr, 0, false, lc.put()));
  EXPECT_TRUE(matches(lc, Values{334}, {}, KF_INT64));
  Tensor x = make(iota(1000), {1000}, KF_FLOAT32), sel;
  CTS_ASSERT_OK(kf_masked_select(x.get(), l.get(), sel.put()));
  EXPECT_TRUE(matches(sel, iota(334, 0, 3), {334}, KF_FLOAT32));
  Tensor own;  // the bool tensor's own true elements: written as 1, whatever their bytes were
  CTS_ASSERT_OK(kf_masked_select(l.get(), l.get(), own.put()));
  EXPECT_TRUE(bools_are(own, Values(334, 1)));
}

TEST_P(BoolBytes, CompareWithTrue) {
  CTS_REQUIRE(KF_BOOL, "eq", "ne", "logical_and", "logical_or");
  Tensor b = raw_bools(raw_), t = make(Values(6, 1), {6}, KF_BOOL), r;
  Tensor yes = make_tensor(Values{1}, {}, KF_BOOL, kf_device_cpu());  // Python's True
  CTS_ASSERT_OK(kf_eq(b.get(), yes.get(), r.put()));
  EXPECT_TRUE(bools_are(r, truth_));
  CTS_ASSERT_OK(kf_eq(b.get(), t.get(), r.put()));
  EXPECT_TRUE(bools_are(r, truth_));
  CTS_ASSERT_OK(kf_ne(b.get(), t.get(), r.put()));
  EXPECT_TRUE(bools_are(r, Values{0, 1, 0, 0, 1, 0}));
  CTS_ASSERT_OK(kf_logical_and(b.get(), b.get(), r.put()));
  EXPECT_TRUE(bools_are(r, truth_));
  CTS_ASSERT_OK(kf_logical_or(b.get(), b.get(), r.put()));
  EXPECT_TRUE(bools_are(r, truth_));
}

TEST_P(BoolBytes, ArithmeticIsLogic) {
  CTS_REQUIRE(KF_BOOL, "add", "mul", "maximum");
  Tensor b = raw_bools(raw_), r;
  CTS_ASSERT_OK(kf_add(b.get(), b.get(), one(), r.put()));  // or
  EXPECT_TRUE(bools_are(r, truth_));
  CTS_ASSERT_OK(kf_mul(b.get(), b.get(), r.put()));  // and
  EXPECT_TRUE(bools_are(r, truth_));
  CTS_ASSERT_OK(kf_maximum(b.get(), b.get(), r.put()));
  EXPECT_TRUE(bools_are(r, truth_));
}

TEST_P(BoolBytes, AnyAllProdMax) {
  CTS_REQUIRE(KF_BOOL, "all", "any", "amax", "argmax");
  Tensor b = raw_bools(raw_), t = raw_bools(all_true_), r;
  CTS_ASSERT_OK(kf_all(b.get(), nullptr, 0, false, r.put()));
  EXPECT_TRUE(bools_are(r, Values{0}));
  CTS_ASSERT_OK(kf_all(t.get(), nullptr, 0, false, r.put()));
  EXPECT_TRUE(bools_are(r, Values{1}));
  CTS_ASSERT_OK(kf_any(b.get(), nullptr, 0, false, r.put()));
  EXPECT_TRUE(bools_are(r, Values{1}));
  CTS_ASSERT_OK(kf_amax(t.get(), nullptr, 0, false, r.put()));
  EXPECT_TRUE(bools_are(r, Values{1}));
  CTS_ASSERT_OK(kf_argmax(b.get(), nullptr, false, r.put()));
  EXPECT_TRUE(matches(r, Values{0}, {}, KF_INT64));
  CTS_REQUIRE(KF_INT64, "prod");
  CTS_ASSERT_OK(kf_prod(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{1}, {}, KF_INT64));
}

TEST_P(BoolBytes, WhereCondition) {
  CTS_REQUIRE(KF_FLOAT32, "where");
  Tensor b = raw_bools(raw_), x = make(iota(6, 1), {6}, KF_FLOAT32), y, r;
  y = make(iota(6, -1, -1), {6}, KF_FLOAT32);
  CTS_ASSERT_OK(kf_where(b.get(), x.get(), y.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, -2, 3, 4, -5, 6}, {6}, KF_FLOAT32));
}

TEST_P(BoolBytes, CastsAndCopies) {
  CTS_REQUIRE(KF_INT32, "to_dtype");
  CTS_REQUIRE(KF_FLOAT32, "to_dtype");
  CTS_REQUIRE(KF_BOOL, "to_dtype", "index_select", "copy_");
  Tensor b = raw_bools(raw_), r;
  for (kf_dtype_t d : {KF_INT32, KF_FLOAT32, KF_UINT8}) {
    CTS_ASSERT_OK(kf_to_dtype(b.get(), d, r.put()));
    EXPECT_TRUE(matches(r, truth_, {6}, d)) << kf_dtype_name(d);
  }
  CTS_ASSERT_OK(kf_tensor_to(b.get(), dev(), KF_BOOL, r.put()));  // a copy of one dtype
  EXPECT_TRUE(bools_are(r, truth_));
  const std::vector<int64_t> at = {0, 3, 5, 1};
  const int64_t n = 4;
  Tensor idx, out = make(Values(6, 0), {6}, KF_BOOL);
  CTS_ASSERT_OK(kf_tensor_from_data(at.data(), &n, 1, KF_INT64, dev(), idx.put()));
  CTS_ASSERT_OK(kf_index_select(b.get(), 0, idx.get(), r.put()));
  EXPECT_TRUE(bools_are(r, Values{1, 1, 1, 0}));
  CTS_ASSERT_OK(kf_copy_(out.get(), b.get()));
  EXPECT_TRUE(bools_are(out, truth_));
}

TEST_P(BoolBytes, FromDataNormalises) {
  const std::vector<unsigned char> raw = {2, 0, 255};
  const int64_t n = 3;
  Tensor t;
  CTS_ASSERT_OK(kf_tensor_from_data(raw.data(), &n, 1, KF_BOOL, dev(), t.put()));
  EXPECT_TRUE(bools_are(t, Values{1, 0, 1}));
}

CTS_INSTANTIATE(BoolBytes, params_any());

}  // namespace
}  // namespace cts
