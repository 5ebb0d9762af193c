// The null backend (backends/null) loaded next to the CPU one: it loads with one device, every
// use of its memory or queues fails with KF_UNIMPLEMENTED naming the slot and its README, and
// the CPU backend and the process-wide calls keep working.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace {

// Loads the null backend once per process (a second load is KF_ALREADY_EXISTS).
void load_null() {
  static const kf_status_t s = kf_load_plugin(KF_NULL_MANIFEST);
  ASSERT_EQ(s, KF_OK) << kf_last_error_message();
}

// The loader's record of the backend called `name`; name is nullptr when there is none.
kf_backend_info_t backend_named(const char* name) {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info;
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) == KF_OK && std::strcmp(info.name, name) == 0) return info;
  }
  kf_backend_info_t none;
  std::memset(&none, 0, sizeof none);
  return none;
}

kf_device_t device(const char* text) {
  kf_device_t d{KF_DEVICE_NONE, 0};
  EXPECT_EQ(kf_device_parse(text, &d), KF_OK) << text << ": " << kf_last_error_message();
  return d;
}

// Expects KF_UNIMPLEMENTED with a message naming `slot` and the README.
void expect_unimplemented(kf_status_t s, const char* slot) {
  EXPECT_EQ(s, KF_UNIMPLEMENTED) << kf_status_name(s);
  const std::string message = kf_last_error_message();
  EXPECT_NE(message.find(std::string("null: ") + slot + " is not implemented"), std::string::npos)
      << message;
  EXPECT_NE(message.find("backends/null/README.md"), std::string::npos) << message;
  // Advice for a full device would mislead here.
  EXPECT_EQ(message.find("kf_empty_cache"), std::string::npos) << message;
}

TEST(NullBackend, LoadsWithOneDevice) {
  load_null();
  const kf_backend_info_t info = backend_named("null");
  ASSERT_NE(info.name, nullptr) << "kf_backend_info lists no backend 'null'";
  EXPECT_EQ(info.state, KF_BACKEND_LOADED) << info.reason;
  EXPECT_EQ(info.device_count, 1);
  EXPECT_STREQ(info.device_type_name, "null");
  EXPECT_NE(std::string(info.details).find("skeleton backend"), std::string::npos)
      << info.details;
}

TEST(NullBackend, AllocatingFailsNamingTheSlotAndTheReadme) {
  load_null();
  const int64_t shape[] = {4};
  kf_tensor_t t = nullptr;
  expect_unimplemented(kf_tensor_empty(shape, 1, KF_FLOAT32, device("null"), &t), "allocate");
  EXPECT_EQ(t, nullptr);
  const float data[] = {1, 2, 3, 4};
  expect_unimplemented(kf_tensor_from_data(data, shape, 1, KF_FLOAT32, device("null:0"), &t),
                       "allocate");
  EXPECT_EQ(t, nullptr);
}

TEST(NullBackend, MovingACpuTensorThereFails) {
  load_null();
  const int64_t shape[] = {2};
  const float data[] = {1, 2};
  kf_tensor_t cpu = nullptr, moved = nullptr;
  ASSERT_EQ(kf_tensor_from_data(data, shape, 1, KF_FLOAT32, kf_device_cpu(), &cpu), KF_OK);
  expect_unimplemented(kf_tensor_to(cpu, device("null"), KF_DTYPE_UNDEFINED, &moved),
                       "allocate");
  EXPECT_EQ(moved, nullptr);
  kf_tensor_release(cpu);
}

TEST(NullBackend, StreamsFailNamingTheSlot) {
  load_null();
  kf_stream_t s = nullptr;
  expect_unimplemented(kf_stream_create(device("null"), &s), "stream_create");
  EXPECT_EQ(s, nullptr);
}

TEST(NullBackend, ProcessWideCallsStillWork) {
  load_null();
  EXPECT_EQ(kf_manual_seed(7), KF_OK) << kf_last_error_message();
  EXPECT_EQ(kf_set_num_threads(2), KF_OK) << kf_last_error_message();
}

TEST(NullBackend, CpuKeepsWorking) {
  load_null();
  kf_tensor_t failed = nullptr;
  const int64_t shape[] = {3};
  ASSERT_NE(kf_tensor_empty(shape, 1, KF_FLOAT32, device("null"), &failed), KF_OK);
  EXPECT_EQ(backend_named("cpu").state, KF_BACKEND_LOADED);
  const float a[] = {1, 2, 3}, b[] = {10, 20, 30};
  kf_tensor_t ta = nullptr, tb = nullptr, sum = nullptr;
  ASSERT_EQ(kf_tensor_from_data(a, shape, 1, KF_FLOAT32, kf_device_cpu(), &ta), KF_OK);
  ASSERT_EQ(kf_tensor_from_data(b, shape, 1, KF_FLOAT32, kf_device_cpu(), &tb), KF_OK);
  ASSERT_EQ(kf_add(ta, tb, kf_scalar_f64(2), &sum), KF_OK) << kf_last_error_message();
  std::vector<float> got(3);
  ASSERT_EQ(kf_tensor_copy_to_host(sum, got.data(), got.size() * sizeof(float)), KF_OK);
  EXPECT_EQ(got, (std::vector<float>{21, 42, 63}));
  for (kf_tensor_t t : {ta, tb, sum}) kf_tensor_release(t);
}

}  // namespace
