// Device names: kf_device_parse / kf_device_name round trips, errors, dynamic device types.
#include <gtest/gtest.h>

#include <string>

#include "core/device_types.hpp"
#include "kernforge/kernforge.h"

namespace {

std::string name_of(kf_device_t d) {
  char buf[64];
  const kf_status_t s = kf_device_name(d, buf, sizeof buf);
  if (s != KF_OK) return std::string("<error ") + kf_status_name(s) + ">";
  return buf;
}

bool has(const std::string& msg, const std::string& part) {
  return msg.find(part) != std::string::npos;
}

TEST(DeviceParse, BuiltInTypesUseDLPackNumbers) {
  const struct {
    const char* text;
    int32_t type;
    int32_t index;
  } cases[] = {{"cpu", 1, 0},   {"cpu:0", 1, 0},   {"cuda", 2, 0},    {"cuda:1", 2, 1},
               {"rocm:3", 10, 3}, {"xpu", 14, 0},  {"xpu:7", 14, 7},  {"cuda:12345678", 2, 12345678}};
  for (const auto& c : cases) {
    kf_device_t d{-5, -5};
    ASSERT_EQ(kf_device_parse(c.text, &d), KF_OK) << c.text << ": " << kf_last_error_message();
    EXPECT_EQ(d.type, c.type) << c.text;
    EXPECT_EQ(d.index, c.index) << c.text;
  }
}

TEST(DeviceName, RoundTrips) {
  // string -> device -> string (cpu:0 is written "cpu", like torch.device("cpu")).
  const struct {
    const char* in;
    const char* out;
  } cases[] = {{"cpu", "cpu"},       {"cpu:0", "cpu"},   {"cuda:0", "cuda:0"},
               {"cuda:1", "cuda:1"}, {"rocm:2", "rocm:2"}, {"xpu:0", "xpu:0"}, {"cpu:3", "cpu:3"}};
  for (const auto& c : cases) {
    kf_device_t d{};
    ASSERT_EQ(kf_device_parse(c.in, &d), KF_OK) << c.in;
    EXPECT_EQ(name_of(d), c.out) << c.in;
  }
  // device -> string -> device.
  for (int32_t type : {KF_DEVICE_CPU, KF_DEVICE_CUDA, KF_DEVICE_ROCM, KF_DEVICE_XPU}) {
    for (int32_t index : {0, 1, 15}) {
      const kf_device_t d{type, index};
      const std::string text = name_of(d);
      kf_device_t back{-1, -1};
      ASSERT_EQ(kf_device_parse(text.c_str(), &back), KF_OK) << text;
      EXPECT_EQ(back.type, type) << text;
      EXPECT_EQ(back.index, index) << text;
    }
  }
}

TEST(DeviceParse, UnknownTypeNamesTheTextAndTheKnownTypes) {
  for (const char* bad : {"gpu", "", "CUDA", " cpu", "cpu ", "mps:0"}) {
    kf_device_t d{7, 7};
    EXPECT_EQ(kf_device_parse(bad, &d), KF_INVALID_ARGUMENT) << "'" << bad << "'";
    const std::string msg = kf_last_error_message();
    EXPECT_TRUE(has(msg, std::string("'") + bad + "'")) << msg;
    EXPECT_TRUE(has(msg, "cuda")) << msg;  // says what would have been accepted
    EXPECT_EQ(d.type, 7) << "out must stay untouched on failure";
  }
}

TEST(DeviceParse, BadIndexIsRejected) {
  for (const char* bad : {"cuda:", "cuda:-1", "cuda:x", "cuda:1:2", "cuda:+1", "cuda: 1",
                          "cuda:123456789012"}) {
    kf_device_t d{7, 7};
    EXPECT_EQ(kf_device_parse(bad, &d), KF_INVALID_ARGUMENT) << bad;
    const std::string msg = kf_last_error_message();
    EXPECT_TRUE(has(msg, "index")) << bad << ": " << msg;
    EXPECT_TRUE(has(msg, bad)) << bad << ": " << msg;
  }
}

TEST(DeviceParse, NullArguments) {
  kf_device_t d{};
  EXPECT_EQ(kf_device_parse(nullptr, &d), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(has(kf_last_error_message(), "NULL"));
  EXPECT_EQ(kf_device_parse("cpu", nullptr), KF_INVALID_ARGUMENT);
}

TEST(DeviceName, BufferTooSmallSaysHowMuchIsNeeded) {
  const kf_device_t d{KF_DEVICE_CUDA, 1};  // "cuda:1" needs 7 bytes with the NUL
  char buf[7];
  EXPECT_EQ(kf_device_name(d, buf, 6), KF_BUFFER_TOO_SMALL);
  EXPECT_TRUE(has(kf_last_error_message(), "7")) << kf_last_error_message();
  EXPECT_EQ(kf_device_name(d, nullptr, 0), KF_BUFFER_TOO_SMALL);
  ASSERT_EQ(kf_device_name(d, buf, 7), KF_OK);
  EXPECT_STREQ(buf, "cuda:1");
}

TEST(DeviceTypes, DynamicTypesGetNumbersAboveTheBuiltIns) {
  const int32_t t = kf::register_device_type("unitnpu");
  EXPECT_GE(t, KF_DEVICE_DYNAMIC_BASE);
  EXPECT_LT(t, kf::kMaxDeviceType);
  EXPECT_EQ(kf::register_device_type("unitnpu"), t) << "a second registration reuses the number";
  EXPECT_EQ(kf::register_device_type("cuda"), KF_DEVICE_CUDA);
  EXPECT_EQ(kf::device_type_from_name("unitnpu"), t);
  EXPECT_STREQ(kf::device_type_name(t), "unitnpu");
  kf_device_t d{};
  ASSERT_EQ(kf_device_parse("unitnpu:2", &d), KF_OK) << kf_last_error_message();
  EXPECT_EQ(d.type, t);
  EXPECT_EQ(d.index, 2);
  EXPECT_EQ(name_of(d), "unitnpu:2");
  EXPECT_EQ(kf::device_type_from_name("nosuchdevice"), KF_DEVICE_NONE);
  EXPECT_EQ(kf::device_type_name(0), nullptr);
  EXPECT_EQ(kf::device_type_name(-3), nullptr);
  EXPECT_EQ(kf::device_type_name(kf::kMaxDeviceType), nullptr);
}

}  // namespace
