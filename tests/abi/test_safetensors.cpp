// Safetensors files at the C ABI (2.5, kernforge.h section "safetensors files"): round trips of
// every dtype with metadata, non-contiguous input, the layout on disk, the handle of a loaded
// file, and every refusal of a malformed file or bad argument with its status and a message
// that names the problem.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "abi_util.hpp"

namespace kfabi {
namespace {

namespace fs = std::filesystem;

class Safetensors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("kf_safetensors_");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (fs::path(dir_) / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  static std::string read(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  std::string dir_;
};

/// An owning kf_safetensors_t.
struct File {
  kf_safetensors_t h = nullptr;
  ~File() { kf_safetensors_release(h); }
};

/// A file: 8 bytes of the JSON's length, the JSON, the data.
std::string file_of(const std::string& json, const std::string& data = "") {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
  return out + json + data;
}

std::vector<unsigned char> bytes_of(kf_tensor_t t) {
  int64_t n = 0;
  kf_dtype_t d = KF_FLOAT32;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK);
  EXPECT_EQ(kf_tensor_dtype(t, &d), KF_OK);
  std::vector<unsigned char> out(static_cast<size_t>(n) * kf_dtype_size(d));
  EXPECT_EQ(kf_tensor_copy_to_host(t, out.data(), out.size()), KF_OK) << kf_last_error_message();
  return out;
}

Shape shape_of(kf_tensor_t t) {
  int32_t nd = 0;
  const int64_t* s = nullptr;
  EXPECT_EQ(kf_tensor_ndim(t, &nd), KF_OK);
  EXPECT_EQ(kf_tensor_shape(t, &s), KF_OK);
  return Shape(s, s + nd);
}

/// A [2, 3] tensor of `dtype` whose bytes count up (bool: alternating 0 and 1).
Tensor counting(kf_dtype_t dtype) {
  const Shape shape = {2, 3};
  std::vector<unsigned char> bytes(6 * kf_dtype_size(dtype));
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<unsigned char>(dtype == KF_BOOL ? i % 2 : (i * 7 + 1) % 61);
  }
  Tensor t;
  EXPECT_EQ(kf_tensor_from_data(bytes.data(), shape.data(), 2, dtype, kf_device_cpu(), t.put()),
            KF_OK) << kf_last_error_message();
  return t;
}

TEST_F(Safetensors, EveryDtypeAndTheMetadataRoundTripInOrder) {
  std::vector<Tensor> tensors;
  std::vector<std::string> names;
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (d == KF_COMPLEX128) continue;  // the format has no code for it
    tensors.push_back(counting(static_cast<kf_dtype_t>(d)));
    names.push_back(std::string("t.") + kf_dtype_name(static_cast<kf_dtype_t>(d)));
  }
  std::vector<const char*> n;
  std::vector<kf_tensor_t> h;
  for (size_t i = 0; i < tensors.size(); ++i) {
    n.push_back(names[i].c_str());
    h.push_back(tensors[i].get());
  }
  const char* keys[] = {"format", "note"};
  const char* values[] = {"pt", "caf\xc3\xa9 \"quoted\""};
  const std::string p = path("all.safetensors");
  ASSERT_EQ(kf_safetensors_save(p.c_str(), n.data(), h.data(), static_cast<int32_t>(h.size()),
                                keys, values, 2), KF_OK) << kf_last_error_message();
  File f;
  ASSERT_EQ(kf_safetensors_load(p.c_str(), kf_device_cpu(), &f.h), KF_OK)
      << kf_last_error_message();
  int32_t count = 0, meta = 0;
  ASSERT_EQ(kf_safetensors_count(f.h, &count), KF_OK);
  ASSERT_EQ(count, static_cast<int32_t>(tensors.size()));
  for (int32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    Tensor t;
    ASSERT_EQ(kf_safetensors_name(f.h, i, &name), KF_OK);
    ASSERT_EQ(kf_safetensors_tensor(f.h, i, t.put()), KF_OK);
    EXPECT_EQ(std::string(name), names[i]);
    kf_dtype_t a = KF_FLOAT32, b = KF_FLOAT32;
    ASSERT_EQ(kf_tensor_dtype(t.get(), &a), KF_OK);
    ASSERT_EQ(kf_tensor_dtype(tensors[i].get(), &b), KF_OK);
    EXPECT_EQ(a, b) << name;
    EXPECT_EQ(shape_of(t.get()), (Shape{2, 3})) << name;
    EXPECT_EQ(bytes_of(t.get()), bytes_of(tensors[i].get())) << name;
  }
  ASSERT_EQ(kf_safetensors_metadata_count(f.h, &meta), KF_OK);
  ASSERT_EQ(meta, 2);
  const char *k = nullptr, *v = nullptr;
  ASSERT_EQ(kf_safetensors_metadata(f.h, 1, &k, &v), KF_OK);
  EXPECT_EQ(std::string(k), "note");
  EXPECT_EQ(std::string(v), values[1]);
}

// The header is padded to 8 bytes and the widest elements come first, so every tensor's bytes
// are aligned to its element size in the file.
TEST_F(Safetensors, TheLayoutOnDiskIsPaddedAndAligned) {
  Tensor a = counting(KF_INT8), b = counting(KF_FLOAT64), c = counting(KF_INT16);
  const char* names[] = {"a", "b", "c"};
  const kf_tensor_t h[] = {a.get(), b.get(), c.get()};
  const std::string p = path("layout.safetensors");
  ASSERT_EQ(kf_safetensors_save(p.c_str(), names, h, 3, nullptr, nullptr, 0), KF_OK)
      << kf_last_error_message();
  const std::string bytes = read(p);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  EXPECT_EQ(n % 8, 0u);
  const std::string json = bytes.substr(8, n);
  EXPECT_NE(json.find("\"b\":{\"dtype\":\"F64\",\"shape\":[2,3],\"data_offsets\":[0,48]}"),
            std::string::npos) << json;
  EXPECT_NE(json.find("\"c\":{\"dtype\":\"I16\",\"shape\":[2,3],\"data_offsets\":[48,60]}"),
            std::string::npos) << json;
  EXPECT_LT(json.find("\"a\""), json.find("\"b\""));  // listed in the order given
  EXPECT_EQ(bytes.size(), 8 + n + 48 + 12 + 6);
}

TEST_F(Safetensors, NonContiguousInputIsWrittenRowMajor) {
  Tensor a, at;
  ASSERT_EQ(kf_arange(kf_scalar_f64(0), kf_scalar_f64(12), kf_scalar_f64(1), KF_FLOAT32,
                      kf_device_cpu(), a.put()), KF_OK);
  Tensor a2;
  const Shape s34 = {3, 4};
  ASSERT_EQ(kf_reshape(a.get(), s34.data(), 2, a2.put()), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_transpose(a2.get(), 0, 1, at.put()), KF_OK);
  const char* names[] = {"t"};
  const kf_tensor_t h[] = {at.get()};
  const std::string p = path("t.safetensors");
  ASSERT_EQ(kf_safetensors_save(p.c_str(), names, h, 1, nullptr, nullptr, 0), KF_OK)
      << kf_last_error_message();
  File f;
  ASSERT_EQ(kf_safetensors_load(p.c_str(), kf_device_cpu(), &f.h), KF_OK);
  Tensor back;
  ASSERT_EQ(kf_safetensors_tensor(f.h, 0, back.put()), KF_OK);
  EXPECT_EQ(shape_of(back.get()), (Shape{4, 3}));
  EXPECT_EQ(bytes_of(back.get()), bytes_of(at.get()));
  bool contiguous = false;
  ASSERT_EQ(kf_tensor_is_contiguous(back.get(), &contiguous), KF_OK);
  EXPECT_TRUE(contiguous);
}

TEST_F(Safetensors, EmptyFilesScalarsAndEmptyTensorsRoundTrip) {
  const std::string p = path("empty.safetensors");
  ASSERT_EQ(kf_safetensors_save(p.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0), KF_OK);
  File f;
  ASSERT_EQ(kf_safetensors_load(p.c_str(), kf_device_cpu(), &f.h), KF_OK);
  int32_t count = -1;
  ASSERT_EQ(kf_safetensors_count(f.h, &count), KF_OK);
  EXPECT_EQ(count, 0);
  Tensor scalar = full({}, 2.5, KF_FLOAT64), none = full({0, 4}, 1.0);
  const char* names[] = {"scalar", "none"};
  const kf_tensor_t h[] = {scalar.get(), none.get()};
  ASSERT_EQ(kf_safetensors_save(p.c_str(), names, h, 2, nullptr, nullptr, 0), KF_OK);
  File g;
  ASSERT_EQ(kf_safetensors_load(p.c_str(), kf_device_cpu(), &g.h), KF_OK);
  Tensor s, e;
  ASSERT_EQ(kf_safetensors_tensor(g.h, 0, s.put()), KF_OK);
  ASSERT_EQ(kf_safetensors_tensor(g.h, 1, e.put()), KF_OK);
  EXPECT_EQ(shape_of(s.get()), Shape{});
  EXPECT_EQ(shape_of(e.get()), (Shape{0, 4}));
  kf_scalar_t v{};
  ASSERT_EQ(kf_tensor_item(s.get(), &v), KF_OK);
  EXPECT_EQ(v.v.f64, 2.5);
}

TEST_F(Safetensors, TensorsOutliveTheirFileAndHandlesAreChecked) {
  Tensor a = counting(KF_FLOAT32);
  const char* names[] = {"a"};
  const kf_tensor_t h[] = {a.get()};
  const std::string p = path("a.safetensors");
  ASSERT_EQ(kf_safetensors_save(p.c_str(), names, h, 1, nullptr, nullptr, 0), KF_OK);
  kf_safetensors_t f = nullptr;
  ASSERT_EQ(kf_safetensors_load(p.c_str(), kf_device_cpu(), &f), KF_OK);
  Tensor t;
  ASSERT_EQ(kf_safetensors_tensor(f, 0, t.put()), KF_OK);
  const char* name = nullptr;
  EXPECT_TRUE(fails_with(kf_safetensors_name(f, 1, &name), KF_OUT_OF_RANGE,
                         {{"index 1", "1 tensors"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_metadata(f, 0, &name, &name), KF_OUT_OF_RANGE,
                         {{"index 0", "metadata"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_count(f, nullptr), KF_INVALID_ARGUMENT,
                         {{"out", "NULL"}, {}}));
  ASSERT_EQ(kf_safetensors_release(f), KF_OK);
  EXPECT_EQ(bytes_of(t.get()), bytes_of(a.get()));  // the tensor lives on
  int32_t count = 0;
  EXPECT_TRUE(fails_with(kf_safetensors_count(f, &count), KF_INVALID_ARGUMENT, {{"released"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_release(f), KF_INVALID_ARGUMENT, {{"released"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_count(nullptr, &count), KF_INVALID_ARGUMENT,
                         {{"NULL"}, {}}));
  EXPECT_EQ(kf_safetensors_release(nullptr), KF_OK);
}

TEST_F(Safetensors, SavingRefusesWhatTheFormatCannotHold) {
  Tensor c = full({2}, 1.0, KF_COMPLEX128), a = counting(KF_FLOAT32);
  const std::string p = path("bad.safetensors");
  const char* cn[] = {"z"};
  const kf_tensor_t ch[] = {c.get()};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), cn, ch, 1, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"'z'", "complex128", "C64", "complex64"}, {}}));
  EXPECT_FALSE(fs::exists(p));
  const char* twice[] = {"a", "a"};
  const kf_tensor_t hh[] = {a.get(), a.get()};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), twice, hh, 2, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"'a'", "unique"}, {}}));
  const char* reserved[] = {"__metadata__"};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), reserved, hh, 1, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"__metadata__", "rename"}, {}}));
  const char* not_utf8[] = {"\xff\xfe"};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), not_utf8, hh, 1, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"UTF-8", "tensor name"}, {}}));
  const char* keys[] = {"k", "k"};
  const char* values[] = {"1", "2"};
  const char* one[] = {"a"};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), one, hh, 1, keys, values, 2),
                         KF_INVALID_ARGUMENT, {{"metadata key 'k'", "twice"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), one, hh, 1, keys, nullptr, 1),
                         KF_INVALID_ARGUMENT, {{"metadata_values", "metadata_count (1)"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_save(nullptr, one, hh, 1, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"path", "NULL"}, {}}));
  const char* null_name[] = {nullptr};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), null_name, hh, 1, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"names[0]", "NULL"}, {}}));
  const kf_tensor_t dead[] = {nullptr};
  EXPECT_TRUE(fails_with(kf_safetensors_save(p.c_str(), one, dead, 1, nullptr, nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"kf_safetensors_save", "NULL"}, {}}));
  const std::string in_missing_folder = path("no/such/folder/x.safetensors");
  EXPECT_TRUE(fails_with(kf_safetensors_save(in_missing_folder.c_str(), one, hh, 1, nullptr,
                                             nullptr, 0),
                         KF_INVALID_ARGUMENT, {{"cannot open", "for writing"}, {}}));
}

TEST_F(Safetensors, LoadingRefusesMissingFilesAndFolders) {
  File f;
  const std::string missing = path("missing.safetensors");
  EXPECT_TRUE(fails_with(kf_safetensors_load(missing.c_str(), kf_device_cpu(), &f.h),
                         KF_NOT_FOUND, {{"missing.safetensors", "no file"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_load(dir_.c_str(), kf_device_cpu(), &f.h),
                         KF_INVALID_ARGUMENT, {{"folder"}, {}}));
  EXPECT_TRUE(fails_with(kf_safetensors_load(missing.c_str(), kf_device_cpu(), nullptr),
                         KF_INVALID_ARGUMENT, {{"out", "NULL"}, {}}));
  const kf_device_t nowhere{KF_DEVICE_CPU, 99};
  EXPECT_TRUE(fails_with(kf_safetensors_load(missing.c_str(), nowhere, &f.h),
                         KF_INVALID_ARGUMENT, {{"cpu:99"}, {}}));
  EXPECT_EQ(f.h, nullptr);
}

struct Malformed {
  const char* name;
  std::string bytes;
  Words words;
};

std::string entry(const std::string& name, const std::string& dtype, const std::string& shape,
                  uint64_t begin, uint64_t end) {
  return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape +
         ",\"data_offsets\":[" + std::to_string(begin) + "," + std::to_string(end) + "]}";
}

std::vector<Malformed> malformed_files() {
  const std::string u8a = entry("a", "U8", "[1]", 0, 1);
  std::string huge(8, '\0');
  huge[7] = 0x10;  // 2^60
  return {
      {"short", std::string("\x08\x00", 2), {{"2 bytes", "shorter than the 8-byte"}, {}}},
      {"length_past_end", file_of("{}                ").substr(0, 8) + "{}",
       {{"header length is 18 bytes", "holds only 2"}, {}}},
      {"length_absurd", huge + "{}", {{"1152921504606846976", "100000000"}, {}}},
      {"not_json", file_of("{\"a\" 1}"), {{"not valid JSON"}, {}}},
      {"bad_utf8", file_of("{\"\xff\":{}}"), {{"not valid JSON", "UTF-8"}, {}}},
      {"not_object", file_of("[1]"), {{"must be a JSON object", "an array"}, {}}},
      {"unknown_dtype", file_of("{" + entry("w", "F8_E4M3", "[1]", 0, 1) + "}", "x"),
       {{"'w'", "unknown dtype", "F8_E4M3"}, {}}},
      {"negative_shape", file_of("{" + entry("w", "F32", "[-2]", 0, 4) + "}", "xxxx"),
       {{"'w'", "shape", "-2"}, {}}},
      {"float_shape", file_of("{" + entry("w", "F32", "[1.5]", 0, 4) + "}", "xxxx"),
       {{"'w'", "shape", "1.5"}, {}}},
      {"shape_overflow",
       file_of("{" + entry("w", "F64", "[4611686018427387904,4]", 0, 8) + "}", "xxxxxxxx"),
       {{"'w'", "int64"}, {{4611686018427387904, 4}}}},
      {"too_many_dims",
       file_of("{" + entry("w", "U8", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]", 0, 1) + "}", "x"),
       {{"'w'", "16 dims"}, {}}},
      {"offsets_not_pair",
       file_of("{\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]}}", "x"),
       {{"'w'", "[begin, end]", "1 number"}, {}}},
      {"offsets_reversed", file_of("{" + entry("w", "U8", "[0]", 1, 0) + "}", "x"),
       {{"'w'", "[1, 0]", "end before they begin"}, {}}},
      {"bytes_mismatch", file_of("{" + entry("w", "F32", "[2]", 0, 4) + "}", "xxxx"),
       {{"'w'", "hold 4 bytes", "F32", "8 bytes"}, {{2}}}},
      {"outside", file_of("{" + entry("w", "U8", "[4]", 0, 4) + "}", "xx"),
       {{"'w'", "[0, 4]", "past the data section", "2 bytes"}, {}}},
      {"overlap",
       file_of("{" + entry("a", "U8", "[2]", 0, 2) + "," + entry("b", "U8", "[2]", 1, 3) + "}",
               "xxx"),
       {{"'a' [0, 2]", "'b' [1, 3]", "overlap"}, {}}},
      {"hole", file_of("{" + u8a + "," + entry("b", "U8", "[1]", 2, 3) + "}", "xxx"),
       {{"[1, 2)", "no tensor", "'b'"}, {}}},
      {"trailing", file_of("{" + u8a + "}", "xyz"),
       {{"3 bytes", "end at byte 1", "2 trailing"}, {}}},
      {"duplicate", file_of("{" + u8a + "," + entry("a", "U8", "[1]", 1, 2) + "}", "xy"),
       {{"'a'", "twice"}, {}}},
      {"metadata_not_string", file_of("{\"__metadata__\":{\"n\":3}}"),
       {{"__metadata__ 'n'", "must be a string", "3"}, {}}},
      {"missing_field", file_of("{\"w\":{\"dtype\":\"U8\",\"shape\":[1]}}", "x"),
       {{"'w'", "data_offsets"}, {}}},
      {"unknown_field",
       file_of("{\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":1}}",
               "x"),
       {{"'w'", "unknown field 'x'"}, {}}},
      {"nul_in_name", file_of("{\"a\\u0000b\":{}}"), {{"NUL"}, {}}},
      {"nested", file_of("{\"w\":{\"dtype\":\"U8\",\"shape\":[[1]],\"data_offsets\":[0,1]}}", "x"),
       {{"'w'", "shape", "an array"}, {}}},
  };
}

TEST_F(Safetensors, EveryMalformedFileIsRefusedWithWhatIsWrong) {
  for (const Malformed& m : malformed_files()) {
    SCOPED_TRACE(m.name);
    const std::string p = write(std::string(m.name) + ".safetensors", m.bytes);
    File f;
    Words w = m.words;
    w.all.push_back(std::string(m.name) + ".safetensors");  // the file is named
    EXPECT_TRUE(fails_with(kf_safetensors_load(p.c_str(), kf_device_cpu(), &f.h),
                           KF_INVALID_ARGUMENT, w));
    EXPECT_EQ(f.h, nullptr);
  }
}

}  // namespace
}  // namespace kfabi
