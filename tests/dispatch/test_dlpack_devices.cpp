// DLPack and device types plugins bring (cdev): kernforge numbers them from
// KF_DEVICE_DYNAMIC_BASE, where DLPack's numbers mean other devices, so such tensors are not
// exported and such numbers are not looked up on import. And the C++ frontend's wrappers.
#include "dispatch_util.hpp"
#include "kernforge/kernforge.hpp"

namespace dispatch_test {
namespace {

TEST_F(Async, DlpackRefusesDeviceTypesPluginsBring) {
  ASSERT_GE(cdev.type, KF_DEVICE_DYNAMIC_BASE);
  const kf::Tensor a = kf::tensor({1.f, 2.f}, {2}).to(kf::Device("cdev"));
  DLManagedTensorVersioned* m = nullptr;
  EXPECT_EQ(kf_tensor_to_dlpack(a.handle(), &m), KF_UNIMPLEMENTED);
  EXPECT_HAS(kf_last_error_message(), "cdev");
  EXPECT_HAS(kf_last_error_message(), "DLPack");
  EXPECT_EQ(m, nullptr);
  DLManagedTensor* l = nullptr;
  EXPECT_EQ(kf_tensor_to_dlpack_legacy(a.handle(), &l), KF_UNIMPLEMENTED);

  // A producer's tensor whose device type happens to be cdev's number is not a cdev tensor.
  float buffer[2] = {1, 2};
  int64_t shape[1] = {2};
  DLManagedTensorVersioned src{};
  src.version = DLPackVersion{1, 1};
  src.dl_tensor.data = buffer;
  src.dl_tensor.device.device_type = static_cast<DLDeviceType>(cdev.type);
  src.dl_tensor.ndim = 1;
  src.dl_tensor.dtype = DLDataType{kDLFloat, 32, 1};
  src.dl_tensor.shape = shape;
  kf_tensor_t out = nullptr;
  EXPECT_EQ(kf_tensor_from_dlpack(&src, &out), KF_UNAVAILABLE);
  EXPECT_HAS(kf_last_error_message(), std::to_string(cdev.type));
  EXPECT_EQ(out, nullptr);
}

TEST_F(Async, CppDlpackWrappers) {
  const kf::Tensor a = kf::tensor({1.f, 2.f, 3.f, 4.f}, {2, 2});
  DLManagedTensorVersioned* m = a.to_dlpack();
  const kf::Tensor b = kf::from_dlpack(m);  // b owns m now
  EXPECT_EQ(b.data_ptr<float>(), a.data_ptr<float>());
  DLManagedTensor* l = a.transpose(0, 1).to_dlpack_legacy();
  const kf::Tensor c = kf::from_dlpack(l);
  EXPECT_EQ(c.strides(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{1, 3, 2, 4}));
  DLManagedTensorVersioned bad{};
  bad.version = DLPackVersion{3, 0};
  try {
    kf::from_dlpack(&bad);
    ADD_FAILURE() << "a DLPack 3.0 struct must throw";
  } catch (const kf::Error& e) {
    EXPECT_EQ(e.status(), KF_ABI_MISMATCH);
    EXPECT_HAS(e.what(), "3.0");
  }
}

}  // namespace
}  // namespace dispatch_test
