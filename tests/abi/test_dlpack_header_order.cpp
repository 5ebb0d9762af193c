// kernforge/dlpack.h next to another dlpack.h: either include order compiles, and the C ABI's
// functions take the other header's structs when it came first. (This file includes the
// other header first; test_dlpack_header_order_after.cpp the other way round.)
#include "dlpack_fixtures/upstream_first_dlpack.h"
#include "kernforge/kernforge.h"

#include <gtest/gtest.h>

#include <type_traits>

static_assert(KF_TEST_UPSTREAM_DLPACK == 1, "the fixture came first");
static_assert(DLPACK_MINOR_VERSION == 0, "kernforge/dlpack.h declared nothing of its own");
static_assert(std::is_same_v<decltype(&kf_tensor_to_dlpack),
                             kf_status_t (*)(kf_tensor_t, DLManagedTensorVersioned**)>,
              "kernforge.h uses the structs of the header included first");

TEST(AbiDlpackHeader, UpstreamFirstExportsThroughItsStructs) {
  kf_tensor_t t = nullptr;
  const int64_t shape[] = {2};
  ASSERT_EQ(kf_full(shape, 1, kf_scalar_f64(3), KF_FLOAT32, kf_device_cpu(), &t), KF_OK);
  DLManagedTensorVersioned* m = nullptr;
  ASSERT_EQ(kf_tensor_to_dlpack(t, &m), KF_OK) << kf_last_error_message();
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(static_cast<float*>(m->dl_tensor.data)[1], 3.f);
  m->deleter(m);
  EXPECT_EQ(kf_tensor_release(t), KF_OK);
}
