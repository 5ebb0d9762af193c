// The C++ frontend's boxed calls (kf::call, kf::call_all) on ops a plugin defines: the
// frontend reaches them by name through the C ABI, with no generated code of their own.
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
