// The null backend (backends/null) loaded next to the CPU one: its table has every slot and the
// SDK's kf_plugin_get, it loads with one device, every use of its memory or queues fails with
// KF_UNIMPLEMENTED naming the slot and its README, and the CPU backend and the process-wide
// calls keep working. Then the README's smallest backend (tiny_plugin.cpp, device type mydev)
// loads and adds on its own.
#include <gtest/gtest.h>

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"

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

// The null plugin's kf_plugin_get, from its library opened by hand (as the loader opens it).
kf_plugin_get_fn null_entry() {
#if defined(_WIN32)
  HMODULE lib = LoadLibraryA(KF_NULL_LIBRARY);
  return lib != nullptr ? reinterpret_cast<kf_plugin_get_fn>(
                              reinterpret_cast<void*>(GetProcAddress(lib, KF_PLUGIN_ENTRY_SYMBOL)))
                        : nullptr;
#else
  void* lib = dlopen(KF_NULL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  return lib != nullptr ? reinterpret_cast<kf_plugin_get_fn>(dlsym(lib, KF_PLUGIN_ENTRY_SYMBOL))
                        : nullptr;
#endif
}

TEST(NullBackend, TableHasTheHeaderAndEverySlot) {
  const kf_plugin_get_fn get = null_entry();
  ASSERT_NE(get, nullptr) << KF_NULL_LIBRARY << " exports no " << KF_PLUGIN_ENTRY_SYMBOL;
  const kf_plugin_t* p = get(KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(get(KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR + 7), p) << "one table, any minor";
  EXPECT_EQ(get(KF_PLUGIN_ABI_MAJOR + 1, 0), nullptr) << "another major gets none";
  EXPECT_EQ(p->struct_size, sizeof(kf_plugin_t));
  EXPECT_EQ(p->abi_major, static_cast<uint32_t>(KF_PLUGIN_ABI_MAJOR));
  EXPECT_EQ(p->abi_minor, static_cast<uint32_t>(KF_PLUGIN_ABI_MINOR));
  EXPECT_STREQ(p->name, "null");
  EXPECT_STREQ(p->device_type, "null");
  // Every member after the header is a slot (a function pointer): the skeleton sets them all.
  for (size_t at = offsetof(kf_plugin_t, score); at < sizeof(kf_plugin_t); at += sizeof(void*)) {
    void* slot = nullptr;
    std::memcpy(&slot, reinterpret_cast<const char*>(p) + at, sizeof(slot));
    EXPECT_NE(slot, nullptr) << "the slot at byte " << at << " of kf_plugin_t is NULL";
  }
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

// The README's smallest backend: the SDK's table, entry and host memory, one kernel.
TEST(TinyBackend, HoldsTensorsAndAddsOnItsOwn) {
  ASSERT_EQ(kf_load_plugin(KF_TINY_MANIFEST), KF_OK) << kf_last_error_message();
  EXPECT_EQ(backend_named("null_tiny").state, KF_BACKEND_LOADED);
  const int64_t shape[] = {2, 2};
  const float a[] = {1, 2, 3, 4}, b[] = {10, 20, 30, 40};
  kf_tensor_t ta = nullptr, tb = nullptr, sum = nullptr, neg = nullptr;
  ASSERT_EQ(kf_tensor_from_data(a, shape, 2, KF_FLOAT32, device("mydev"), &ta), KF_OK)
      << kf_last_error_message();
  ASSERT_EQ(kf_tensor_from_data(b, shape, 2, KF_FLOAT32, device("mydev"), &tb), KF_OK);
  ASSERT_EQ(kf_add(ta, tb, kf_scalar_i64(2), &sum), KF_OK) << kf_last_error_message();
  int32_t tiny = -1;
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t b_info;
    std::memset(&b_info, 0, sizeof b_info);
    b_info.struct_size = sizeof b_info;
    if (kf_backend_info(i, &b_info) == KF_OK && std::strcmp(b_info.name, "null_tiny") == 0) {
      tiny = i;
    }
  }
  ASSERT_GE(tiny, 0);
  kf_op_t add = nullptr;
  kf_kernel_info_t info;
  std::memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  ASSERT_EQ(kf_op_find("add", &add), KF_OK);
  ASSERT_EQ(kf_op_kernel_info(add, tiny, &info), KF_OK) << kf_last_error_message();
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND) << "add runs on mydev's own kernel";
  EXPECT_NE(info.dtype_mask & (1u << KF_FLOAT32), 0u);
  ASSERT_EQ(kf_neg(ta, &neg), KF_OK) << "neg through the CPU fallback: " << kf_last_error_message();
  std::vector<float> got(4);
  ASSERT_EQ(kf_tensor_copy_to_host(sum, got.data(), got.size() * sizeof(float)), KF_OK);
  EXPECT_EQ(got, (std::vector<float>{21, 42, 63, 84}));
  ASSERT_EQ(kf_tensor_copy_to_host(neg, got.data(), got.size() * sizeof(float)), KF_OK);
  EXPECT_EQ(got, (std::vector<float>{-1, -2, -3, -4}));
  for (kf_tensor_t t : {ta, tb, sum, neg}) kf_tensor_release(t);
}

}  // namespace
