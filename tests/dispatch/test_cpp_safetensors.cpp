// The C++ frontend's safetensors files (kernforge/safetensors.hpp): a round trip in order with
// metadata, a view written row-major, and a malformed file thrown as kf::Error with its reason;
// and through the C ABI, tensors of another device (testdev) saved and loaded onto it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dispatch_util.hpp"
#include "kernforge/safetensors.hpp"

namespace dispatch_test {
namespace {

std::string temp_file(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("kf_cpp_st_") + std::to_string(::getpid()) + "_" + name)).string();
}

TEST(CppSafetensors, ATensorListAndMetadataRoundTripInOrder) {
  const std::string path = temp_file("round_trip.safetensors");
  const kf::Tensor w = kf::tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  const kf::Tensor b = kf::tensor({7.0, 8.0}, {2});
  kf::save_safetensors(path, {{"w", w.transpose(0, 1)}, {"b", b}}, {{"step", "3"}});
  const kf::SafetensorsFile f = kf::load_safetensors(path);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f.tensors[0].first, "w");
  EXPECT_EQ(f.tensors[1].first, "b");
  EXPECT_EQ(f.at("w").sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(f.at("w").to_vector<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(f.at("b").to_vector<double>(), (std::vector<double>{7, 8}));
  EXPECT_EQ(f.metadata.at("step"), "3");
  EXPECT_TRUE(f.contains("b"));
  EXPECT_THROW(f.at("missing"), kf::Error);
  std::remove(path.c_str());
}

TEST(CppSafetensors, AMalformedFileThrowsWithItsReason) {
  const std::string path = temp_file("bad.safetensors");
  std::ofstream(path, std::ios::binary) << std::string("\x03\x00", 2);
  try {
    kf::load_safetensors(path);
    FAIL() << "a 2-byte file loaded";
  } catch (const kf::Error& e) {
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("shorter than the 8-byte header length"),
              std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

// A testdev tensor (and a transposed view of one) is written as its host bytes; a file loads
// onto testdev:1 with the same bytes.
TEST_F(Dispatch, SafetensorsOfAnotherDeviceSaveAndLoadThere) {
  const std::string path = temp_file("testdev.safetensors");
  T a, at;
  make<int32_t>(a, {1, 2, 3, 4, 5, 6}, {2, 3}, KF_INT32, td0);
  ASSERT_EQ(kf_transpose(a, 0, 1, at.out()), KF_OK) << last_error();
  const char* names[] = {"a", "at"};
  const kf_tensor_t handles[] = {a, at};
  ASSERT_EQ(kf_safetensors_save(path.c_str(), names, handles, 2, nullptr, nullptr, 0), KF_OK)
      << last_error();
  kf_safetensors_t f = nullptr;
  ASSERT_EQ(kf_safetensors_load(path.c_str(), td1, &f), KF_OK) << last_error();
  T back_a, back_at;
  ASSERT_EQ(kf_safetensors_tensor(f, 0, back_a.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_safetensors_tensor(f, 1, back_at.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_safetensors_release(f), KF_OK);
  EXPECT_EQ(device_name(device_of(back_a)), "testdev:1");
  EXPECT_EQ(device_name(device_of(back_at)), "testdev:1");
  EXPECT_EQ(host<int32_t>(back_a), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(host<int32_t>(back_at), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace dispatch_test
