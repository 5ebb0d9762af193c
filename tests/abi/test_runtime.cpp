// Bad input at the C ABI: the boxed path, parsing, the runtime report, plugin loading.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "abi_util.hpp"

namespace kfabi {
namespace {

constexpr auto IA = KF_INVALID_ARGUMENT;

kf_op_t find(const char* name) {
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find(name, &op), KF_OK) << kf_last_error_message();
  return op;
}

TEST(AbiBoxed, UnknownOpName) {
  kf_op_t op = nullptr;
  EXPECT_TRUE(fails_with(kf_op_find("no_such_op_xyz", &op), KF_NOT_FOUND,
                         {{"no_such_op_xyz"}, {}}));
  EXPECT_EQ(op, nullptr);
  EXPECT_TRUE(fails_with(kf_op_find(nullptr, &op), IA, {{"name"}, {}}));
  EXPECT_TRUE(fails_with(kf_op_find("add", nullptr), IA, {{"out"}, {}}));
}

TEST(AbiBoxed, OpAtOutOfRange) {
  kf_op_t op = nullptr;
  const int32_t n = kf_op_count();
  EXPECT_TRUE(fails_with(kf_op_at(n, &op), {IA, KF_OUT_OF_RANGE},
                         {{std::to_string(n)}, {}}));
  EXPECT_TRUE(fails_with(kf_op_at(-1, &op), {IA, KF_OUT_OF_RANGE}, {{"-1"}, {}}));
}

TEST(AbiBoxed, WrongArgumentCount) {
  kf_op_t add = find("add");
  Tensor a = full({2}, 1);
  kf_value_t res[1] = {};
  const kf_value_t one[1] = {vtensor(a.get())};
  EXPECT_TRUE(fails_with(kf_op_call(add, one, 1, res, 1), IA, {{"add", "other"}, {}}))
      << "a missing argument without a default is named";
  const kf_value_t four[4] = {vtensor(a.get()), vtensor(a.get()),
                              kf_value_scalar(kf_scalar_i64(1)), vint(3)};
  EXPECT_TRUE(fails_with(kf_op_call(add, four, 4, res, 1), IA, {{"add", "4", "3"}, {}}));
  const kf_value_t two[2] = {vtensor(a.get()), vtensor(a.get())};
  kf_value_t res2[2] = {};
  EXPECT_TRUE(fails_with(kf_op_call(add, two, 2, res2, 2), IA, {{"add"}, {}, {"result", "return"}}));
  EXPECT_TRUE(fails_with(kf_op_call(add, two, 2, nullptr, 1), IA, {{"result"}, {}}));
  EXPECT_TRUE(fails_with(kf_op_call(nullptr, two, 2, res, 1), IA, {{"op"}, {}}));
  EXPECT_TRUE(fails_with(kf_op_call(add, nullptr, 2, res, 1), IA, {{"arg"}, {}}));
}

TEST(AbiBoxed, WrongArgumentTags) {
  kf_op_t add = find("add");
  Tensor a = full({2}, 1);
  kf_value_t res[1] = {};
  const kf_value_t bad_self[2] = {vint(3), vtensor(a.get())};
  EXPECT_TRUE(fails_with(kf_op_call(add, bad_self, 2, res, 1), IA, {{"self", "Tensor"}, {}}));
  const kf_value_t bad_alpha[3] = {vtensor(a.get()), vtensor(a.get()), vtensor(a.get())};
  EXPECT_TRUE(fails_with(kf_op_call(add, bad_alpha, 3, res, 1), IA, {{"alpha", "Scalar"}, {}}));
  kf_value_t bogus[2] = {vtensor(a.get()), vtensor(a.get())};
  bogus[1].tag = 99;
  EXPECT_TRUE(fails_with(kf_op_call(add, bogus, 2, res, 1), IA, {{"other"}, {}}));
  // sum's dim is int[]?: a tensor there is wrong.
  kf_op_t sum = find("sum");
  const kf_value_t bad_dim[2] = {vtensor(a.get()), vtensor(a.get())};
  EXPECT_TRUE(fails_with(kf_op_call(sum, bad_dim, 2, res, 1), IA, {{"dim", "int"}, {}}));
  // A required tensor given as NONE.
  const kf_value_t none_self[2] = {kf_value_none(), vtensor(a.get())};
  EXPECT_TRUE(fails_with(kf_op_call(add, none_self, 2, res, 1), IA, {{"self"}, {}}));
}

TEST(AbiParse, DeviceParse) {
  kf_device_t d{};
  EXPECT_TRUE(fails_with(kf_device_parse("gpu:x", &d), IA, {{"gpu:x"}, {}}));
  EXPECT_TRUE(fails_with(kf_device_parse("cuda:-1", &d), IA, {{"cuda:-1"}, {}}));
  EXPECT_TRUE(fails_with(kf_device_parse("cuda:", &d), IA, {{"cuda:"}, {}}));
  EXPECT_TRUE(fails_with(kf_device_parse("", &d), IA, {{}, {}, {"empty", "\"\"", "''"}}));
  EXPECT_TRUE(fails_with(kf_device_parse(nullptr, &d), IA, {{}, {}, {"null", "text"}}));
  EXPECT_TRUE(fails_with(kf_device_parse("cpu", nullptr), IA, {{"out"}, {}}));
  ASSERT_EQ(kf_device_parse("cuda:1", &d), KF_OK) << kf_last_error_message();
  EXPECT_EQ(d.type, KF_DEVICE_CUDA);
  EXPECT_EQ(d.index, 1);
  ASSERT_EQ(kf_device_parse("cpu", &d), KF_OK) << kf_last_error_message();
  EXPECT_EQ(d.type, KF_DEVICE_CPU);
  EXPECT_EQ(d.index, 0);
}

TEST(AbiParse, DeviceName) {
  char buf[16];
  EXPECT_TRUE(fails_with(kf_device_name(kf_device_t{KF_DEVICE_CUDA, 1}, buf, 3),
                         KF_BUFFER_TOO_SMALL, {{}, {}}));
  ASSERT_EQ(kf_device_name(kf_device_t{KF_DEVICE_CUDA, 1}, buf, sizeof buf), KF_OK);
  EXPECT_STREQ(buf, "cuda:1");
}

TEST(AbiParse, DtypeParse) {
  kf_dtype_t d = KF_FLOAT32;
  EXPECT_TRUE(fails_with(kf_dtype_parse("float128", &d), {IA, KF_NOT_FOUND}, {{"float128"}, {}}));
  EXPECT_TRUE(fails_with(kf_dtype_parse(nullptr, &d), IA, {{}, {}}));
  ASSERT_EQ(kf_dtype_parse("f32", &d), KF_OK) << kf_last_error_message();
  EXPECT_EQ(d, KF_FLOAT32);
  ASSERT_EQ(kf_dtype_parse("int64", &d), KF_OK) << kf_last_error_message();
  EXPECT_EQ(d, KF_INT64);
  ASSERT_EQ(kf_dtype_parse("bfloat16", &d), KF_OK) << kf_last_error_message();
  EXPECT_EQ(d, KF_BFLOAT16);
}

TEST(AbiParse, PromoteTypes) {
  kf_dtype_t d = KF_DTYPE_UNDEFINED;
  EXPECT_TRUE(fails_with(kf_promote_types(KF_DTYPE_UNDEFINED, KF_FLOAT32, &d), IA, {{}, {}}));
  EXPECT_TRUE(fails_with(kf_promote_types(KF_INT64, KF_UINT64, &d), IA,
                         {{"no dtype holds both int64 and uint64"}, {}}));
  const struct { kf_dtype_t a, b, want; } cases[] = {
      {KF_INT32, KF_FLOAT32, KF_FLOAT32}, {KF_INT32, KF_INT64, KF_INT64},
      {KF_BOOL, KF_BOOL, KF_BOOL},        {KF_UINT8, KF_INT8, KF_INT16},
      {KF_FLOAT16, KF_BFLOAT16, KF_FLOAT32}, {KF_BOOL, KF_INT8, KF_INT8},
      {KF_INT64, KF_FLOAT16, KF_FLOAT16},  {KF_FLOAT32, KF_FLOAT64, KF_FLOAT64}};
  for (const auto& c : cases) {
    ASSERT_EQ(kf_promote_types(c.a, c.b, &d), KF_OK) << kf_last_error_message();
    EXPECT_EQ(d, c.want) << kf_dtype_name(c.a) << " + " << kf_dtype_name(c.b) << " gave "
                         << kf_dtype_name(d);
  }
}

TEST(AbiRuntime, ReportJsonBufferTooSmall) {
  size_t needed = 0;
  char small[4];
  EXPECT_TRUE(fails_with(kf_runtime_report_json(small, sizeof small, &needed),
                         KF_BUFFER_TOO_SMALL, {{}, {}}));
  EXPECT_GT(needed, sizeof small);
  size_t needed0 = 0;
  EXPECT_EQ(kf_runtime_report_json(nullptr, 0, &needed0), KF_BUFFER_TOO_SMALL);
  EXPECT_EQ(needed0, needed);
  std::string buf(needed, '\0');
  size_t needed2 = 0;
  ASSERT_EQ(kf_runtime_report_json(&buf[0], buf.size(), &needed2), KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(needed2, needed);
  EXPECT_EQ(std::strlen(buf.c_str()) + 1, needed) << "needed counts the NUL";
  EXPECT_EQ(buf[0], '{') << buf;
  EXPECT_TRUE(fails_with(kf_runtime_report_json(nullptr, 16, &needed), IA, {{"buf"}, {}}));
}

TEST(AbiRuntime, BackendInfoOutOfRange) {
  kf_backend_info_t info{};
  info.struct_size = sizeof info;
  const int32_t n = kf_backend_count();
  EXPECT_TRUE(fails_with(kf_backend_info(n, &info), {IA, KF_OUT_OF_RANGE, KF_NOT_FOUND},
                         {{std::to_string(n)}, {}}));
  EXPECT_TRUE(fails_with(kf_backend_info(-1, &info), {IA, KF_OUT_OF_RANGE, KF_NOT_FOUND},
                         {{"-1"}, {}}));
  EXPECT_TRUE(fails_with(kf_backend_info(0, nullptr), IA, {{"out"}, {}}));
}

// Growable output structs: a caller built against an older minor passes a smaller struct_size
// and gets only the fields its struct has (nothing written beyond); one built against a newer
// minor passes a larger one and keeps what follows ours; below the first version: refused.
template <class S>
struct Grown {
  S s;
  unsigned char beyond[32];
};

TEST(AbiRuntime, GrowableStructsAcceptOlderAndNewerSizes) {
  constexpr size_t kBackend10 = offsetof(kf_backend_info_t, manifest_path) + sizeof(const char*);
  Grown<kf_backend_info_t> older;
  std::memset(&older, 0xAB, sizeof older);
  older.s.struct_size = kBackend10;
  ASSERT_EQ(kf_backend_info(0, &older.s), KF_OK) << kf_last_error_message();
  EXPECT_EQ(older.s.struct_size, kBackend10);
  EXPECT_NE(older.s.name, nullptr);
  const auto* tail = reinterpret_cast<const unsigned char*>(&older.s) + kBackend10;
  for (size_t i = 0; i < sizeof older - kBackend10; ++i) {
    ASSERT_EQ(tail[i], 0xAB) << "byte " << i << " past a 1.0 kf_backend_info_t was written";
  }
  Grown<kf_memory_stats_t> newer;
  std::memset(&newer, 0xCD, sizeof newer);
  newer.s.struct_size = sizeof newer;
  ASSERT_EQ(kf_memory_stats(kf_device_cpu(), &newer.s), KF_OK) << kf_last_error_message();
  EXPECT_EQ(newer.s.struct_size, sizeof newer) << "the caller's struct_size is kept";
  for (unsigned char b : newer.beyond) ASSERT_EQ(b, 0xCD) << "fields of a newer minor written";
  Grown<kf_kernel_info_t> info;
  std::memset(&info, 0xEF, sizeof info);
  info.s.struct_size = sizeof info;
  ASSERT_EQ(kf_op_kernel_info(find("add"), 0, &info.s), KF_OK) << kf_last_error_message();
  EXPECT_EQ(info.s.kind, KF_KERNEL_BACKEND);
  for (unsigned char b : info.beyond) ASSERT_EQ(b, 0xEF);
  kf_memory_stats_t tiny{};
  tiny.struct_size = sizeof(size_t);
  EXPECT_TRUE(fails_with(kf_memory_stats(kf_device_cpu(), &tiny), IA, {{"struct_size"}, {}}));
  kf_kernel_info_t small{};
  small.struct_size = 4;
  EXPECT_TRUE(fails_with(kf_op_kernel_info(find("add"), 0, &small), IA, {{"struct_size"}, {}}));
}

// The version the library reports is the header's, and the header's is pinned here: a minor
// grows only with an addition its version rules name (kernforge.h; 2.9: post-accumulate-grad
// hooks; 2.8: kf_comm_split and kf_comm_abort;
// 2.7: collectives and KF_TIMEOUT; 2.6: ops that write several
// tensors, the fused optimizer updates kf_adamw_step_, kf_sgd_step_, kf_fused_adamw, kf_fused_sgd).
TEST(AbiRuntime, AbiVersionIsTheHeadersAndPinned) {
  uint32_t major = 0, minor = 0;
  ASSERT_EQ(kf_abi_version(&major, &minor), KF_OK) << kf_last_error_message();
  EXPECT_EQ(major, static_cast<uint32_t>(KF_ABI_VERSION_MAJOR));
  EXPECT_EQ(minor, static_cast<uint32_t>(KF_ABI_VERSION_MINOR));
  EXPECT_EQ(major, 2u);
  EXPECT_EQ(minor, 9u);
  EXPECT_EQ(kf_abi_version(nullptr, nullptr), KF_OK);
}

TEST(AbiRuntime, StateAndKindNamesComeFromTheAbi) {
  EXPECT_STREQ(kf_backend_state_name(KF_BACKEND_LOADED), "loaded");
  EXPECT_STREQ(kf_backend_state_name(KF_BACKEND_SHADOWED), "shadowed");
  EXPECT_STREQ(kf_backend_state_name(99), "unknown");
  EXPECT_STREQ(kf_kernel_kind_name(KF_KERNEL_BACKEND_FALLBACK), "backend fallback");
  EXPECT_STREQ(kf_kernel_kind_name(-3), "unknown");
  EXPECT_STREQ(kf_op_doc(find("add")),
               "Elementwise self + alpha * other, with broadcasting and type promotion.");
  EXPECT_STREQ(kf_op_doc(nullptr), "");
}

TEST(AbiRuntime, SettingsOutOfRange) {
  EXPECT_TRUE(fails_with(kf_set_num_threads(0), IA, {{"0"}, {}}));
  EXPECT_TRUE(fails_with(kf_set_num_threads(-4), IA, {{"-4"}, {}}));
  // Bounded (Note [A bound on threads]): thousands of OpenMP threads hang under a memory limit.
  EXPECT_TRUE(
      fails_with(kf_set_num_threads(INT32_MAX), IA, {{"2147483647", "between 1 and"}, {}}));
  EXPECT_TRUE(fails_with(kf_set_num_threads(100000), IA, {{"100000", "hardware threads"}, {}}));
  EXPECT_TRUE(fails_with(kf_memory_stats(kf_device_cpu(), nullptr), IA, {{"out"}, {}}));
}

TEST(AbiRuntime, InitAfterStartWithOtherOptions) {
  (void)kf_backend_count();  // initialises with defaults
  kf_init_options_t opt{};
  opt.struct_size = sizeof opt;
  opt.autoload = 0;
  opt.log_level = KF_LOG_DEFAULT;
  EXPECT_TRUE(fails_with(kf_init(&opt), KF_FAILED_PRECONDITION, {{"init"}, {}}));
}

TEST(AbiRuntime, StatusAndDtypeNamesNeverNull) {
  for (int s = 0; s <= 13; ++s) EXPECT_NE(kf_status_name(static_cast<kf_status_t>(s)), nullptr);
  EXPECT_STREQ(kf_status_name(KF_INVALID_ARGUMENT), "KF_INVALID_ARGUMENT");
  EXPECT_NE(kf_dtype_name(static_cast<kf_dtype_t>(42)), nullptr);
  EXPECT_EQ(kf_dtype_size(static_cast<kf_dtype_t>(42)), 0u);
  EXPECT_NE(kf_last_error_message(), nullptr);
}

// ------------------------------------------------------------------ kf_load_plugin

class AbiPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("kf_abi_");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  static void cpu_still_works() {
    Tensor a = full({2}, 1.5), r;
    ASSERT_EQ(kf_add(a.get(), a.get(), kf_scalar_i64(1), r.put()), KF_OK)
        << kf_last_error_message();
    float v[2];
    ASSERT_EQ(kf_tensor_copy_to_host(r.get(), v, sizeof v), KF_OK);
    EXPECT_EQ(v[1], 3.0f);
  }
  std::string dir_;
};

TEST_F(AbiPlugin, MissingFile) {
  const std::string path = dir_ + "/libkernforge_missing.so";
  EXPECT_TRUE(fails_with(kf_load_plugin(path.c_str()), KF_NOT_FOUND, {{path}, {}}));
  cpu_still_works();
}

TEST_F(AbiPlugin, RelativePath) {
  EXPECT_TRUE(fails_with(kf_load_plugin("libkernforge_cpu.so"), IA,
                         {{"libkernforge_cpu.so"}, {}, {"absolute", "relative"}}));
  EXPECT_TRUE(fails_with(kf_load_plugin("./plugins/x.json"), IA, {{"./plugins/x.json"}, {}}));
  EXPECT_TRUE(fails_with(kf_load_plugin(nullptr), IA, {{"path"}, {}}));
  cpu_still_works();
}

TEST_F(AbiPlugin, TextFileAsLibrary) {
  const std::string path = write("libkernforge_text.so", "this is not an ELF file\n");
  const kf_status_t s = kf_load_plugin(path.c_str());
  EXPECT_TRUE(fails_with(s, {IA, KF_UNAVAILABLE, KF_ABI_MISMATCH, KF_FAILED_PRECONDITION},
                         {{"libkernforge_text.so"}, {}}));
  cpu_still_works();
}

TEST_F(AbiPlugin, GarbageManifest) {
  const std::string path = write("broken.json", "{ \"manifest_version\": ");
  EXPECT_TRUE(fails_with(kf_load_plugin(path.c_str()), {IA, KF_FAILED_PRECONDITION},
                         {{"broken.json"}, {}}));
  const std::string other = write("notjson.json", "plain text");
  EXPECT_TRUE(fails_with(kf_load_plugin(other.c_str()), {IA, KF_FAILED_PRECONDITION},
                         {{"notjson.json"}, {}}));
  cpu_still_works();
}

}  // namespace
}  // namespace kfabi
