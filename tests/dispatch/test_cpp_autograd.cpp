// The C++ frontend's autograd: requires_grad_, backward, grad, detach, kf::NoGradGuard and
// moves between devices, over the C ABI's autograd functions.
#include <vector>

#include "dispatch_util.hpp"
#include "kernforge/kernforge.hpp"

namespace dispatch_test {
namespace {

TEST(CppAutograd, BackwardFillsGradAndNoGradGuardRecordsNothing) {
  kf::Tensor x = kf::tensor({1.0, 2.0, 3.0}, {3});
  x.requires_grad_();
  EXPECT_TRUE(x.requires_grad());
  EXPECT_TRUE(x.is_leaf());
  EXPECT_FALSE(x.grad().defined());
  const kf::Tensor y = (x * x).sum();
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  y.backward();
  EXPECT_EQ(x.grad().to_vector<double>(), (std::vector<double>{2.0, 4.0, 6.0}));
  {
    kf::NoGradGuard no_grad;
    const kf::Tensor z = x * x;
    EXPECT_FALSE(z.requires_grad());
    x -= x.grad();  // an update of a leaf that requires grad
  }
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{-1.0, -2.0, -3.0}));
  EXPECT_TRUE((x * x).requires_grad());
  x.set_grad(kf::Tensor());
  EXPECT_FALSE(x.grad().defined());
  EXPECT_FALSE(x.detach().requires_grad());
  EXPECT_THROW((x * x).backward(), kf::Error);  // not one element, no gradient given
}

// A move to another device records: the gradient comes back to the source's device, both
// ways, and a dtype change with the move records as to_dtype after it.
TEST_F(Dispatch, CppAutogradGradientsFlowAcrossDevices) {
  kf::Tensor x = kf::tensor({1.0, 2.0, 3.0}, {3});
  x.requires_grad_();
  const kf::Tensor on_dev = x.to(kf::Device(td0));
  EXPECT_TRUE(on_dev.requires_grad());
  EXPECT_EQ(on_dev.device(), kf::Device(td0));
  (on_dev * on_dev).sum().backward();
  EXPECT_EQ(x.grad().device(), kf::Device::cpu());
  EXPECT_EQ(x.grad().to_vector<double>(), (std::vector<double>{2.0, 4.0, 6.0}));

  kf::Tensor w = kf::tensor({0.5, -1.0}, {2}).to(kf::Device(td1));
  w.requires_grad_();
  const kf::Tensor back = w.to(kf::Device::cpu(), kf::Dtype::Float32);
  (back * 4.0).sum().backward();
  EXPECT_EQ(w.grad().device(), kf::Device(td1));
  EXPECT_EQ(w.grad().to(kf::Device::cpu()).to_vector<double>(), (std::vector<double>{4.0, 4.0}));
  {
    kf::NoGradGuard no_grad;
    EXPECT_FALSE(x.to(kf::Device(td0)).requires_grad());
  }
}

}  // namespace
}  // namespace dispatch_test
