// The C++ frontend's boxed calls (kf::call, kf::call_all) on ops a plugin defines: the
// frontend reaches them by name through the C ABI, with no generated code of their own.
#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "dispatch_util.hpp"
#include "kernforge/kernforge.hpp"

namespace dispatch_test {
namespace {

// The C++ frontend's element types come from the SDK's list (kernforge/dtypes.hpp).
static_assert(kf::dtype_of<float>::value == kf::Dtype::Float32);
static_assert(kf::dtype_of<kf::Half>::value == kf::Dtype::Float16);
static_assert(kf::dtype_of<kf::BFloat16>::value == kf::Dtype::BFloat16);
static_assert(kf::dtype_of<uint8_t>::value == kf::Dtype::UInt8);
static_assert(kf::dtype_of<bool>::value == kf::Dtype::Bool);

static_assert(kf::dtype_of<uint64_t>::value == kf::Dtype::UInt64);
static_assert(kf::dtype_of<std::complex<float>>::value == kf::Dtype::Complex64);
static_assert(kf::dtype_of<std::complex<double>>::value == kf::Dtype::Complex128);
static_assert(static_cast<int>(kf::Dtype::Complex128) == KF_COMPLEX128);

TEST(CppDtypes, ComplexAndUnsignedValuesRoundTrip) {
  using C = std::complex<double>;
  const kf::Tensor z = kf::tensor({C(1, 2), C(-0.5, 0)}, {2});
  EXPECT_EQ(z.dtype(), kf::Dtype::Complex128);
  const kf::Tensor w = z * kf::Scalar(C(0, 1));  // times i
  EXPECT_EQ(w.dtype(), kf::Dtype::Complex128);
  EXPECT_EQ(w.to_vector<C>(), (std::vector<C>{C(-2, 1), C(0, -0.5)}));
  EXPECT_EQ(kf::tensor(C(3, 4)).item<C>(), C(3, 4));
  EXPECT_THROW(kf::tensor(C(3, 4)).item<double>(), kf::Error);  // the imaginary part is not 0
  EXPECT_EQ(kf::tensor(C(3, 0)).item<double>(), 3.0);
  // float32 times a complex scalar is complex64 (the wrapped number's rule).
  EXPECT_EQ((kf::tensor({1.f, 2.f}, {2}) * kf::Scalar(std::complex<float>(0, 1))).dtype(),
            kf::Dtype::Complex64);
  const uint64_t top = UINT64_MAX;
  const kf::Tensor u = kf::tensor({top, uint64_t{1}}, {2});
  EXPECT_EQ(u.dtype(), kf::Dtype::UInt64);
  EXPECT_EQ((u + kf::Scalar(top)).to_vector<uint64_t>(), (std::vector<uint64_t>{top - 1, 0}));
  EXPECT_EQ(u.amax().item<uint64_t>(), top);
  EXPECT_EQ(kf::Scalar(top).c().tag, KF_SCALAR_UINT64);
  EXPECT_EQ(kf::Scalar(uint64_t{5}).c().tag, KF_SCALAR_INT64);
}

TEST(CppIndex, ABasicKeyReadsAndWritesLikeNumpy) {
  // [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
  kf::Tensor t = kf::tensor({0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f, 10.f, 11.f}, {3, 4});
  using kf::Index;
  const kf::Tensor v = t.index({Index::at(1), Index::slice(std::nullopt, std::nullopt, -2)});
  EXPECT_EQ(v.to_vector<float>(), (std::vector<float>{7.f, 5.f}));  // t[1, ::-2]
  const kf::Tensor w = t.index({Index::ellipsis(), Index::at(-1), Index::new_axis()});
  EXPECT_EQ(w.sizes(), (std::vector<int64_t>{3, 1}));  // t[..., -1, None]
  EXPECT_EQ(w.to_vector<float>(), (std::vector<float>{3.f, 7.f, 11.f}));
  EXPECT_EQ(t.item_at<float>({2, -1}), 11.f);
  t.fill_at({0, 1}, kf::Scalar(2.5));
  EXPECT_EQ(t.item_at<double>({0, 1}), 2.5);
  EXPECT_THROW(t.item_at<float>({3, 0}), kf::Error);  // KF_OUT_OF_RANGE
  EXPECT_THROW(t.index({Index::ellipsis(), Index::ellipsis()}), kf::Error);
}

TEST(CppDtypes, FloatingFollowsTheList) {
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    EXPECT_EQ(kf::is_floating(static_cast<kf::Dtype>(d)), kf_dtype_kind(d) == 'f')
        << kf_dtype_string(d);
  }
}

TEST_F(Async, CppCallsAnOpAPluginDefined) {
  const kf::Tensor a = kf::tensor({1.f, 2.f, 3.f}, {3}).to(kf::Device("cdev"));
  const kf::Tensor r = kf::call("cdev::scale", {a, 2.0});
  EXPECT_EQ(r.device().str(), "cdev:0");
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{2, 4, 6}));
  const kf::Tensor s = kf::call("cdev::axpy", {a, a, kf::Scalar(3)});
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{4, 8, 12}));
  const std::vector<kf::Tensor> all = kf::call_all("cdev::scale", {a, 1});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].to_vector<float>(), (std::vector<float>{1, 2, 3}));
  try {
    kf::call("cdev::nope", {a});
    ADD_FAILURE() << "an unknown op must throw";
  } catch (const kf::Error& e) {
    EXPECT_EQ(e.status(), KF_NOT_FOUND);
    EXPECT_HAS(e.what(), "cdev::nope");
  }
}

}  // namespace
}  // namespace dispatch_test
