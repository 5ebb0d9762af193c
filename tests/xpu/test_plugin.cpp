// The plugin's slots (slots.cpp) over the fake driver: what the host calls, end to end.
#include <cstring>
#include <vector>

#include "slots.hpp"
#include "xpu_test_util.hpp"

namespace {

using xpu_test::contains;
using xpu_test::host_record;
using xpu_test::XpuTest;

kf_status_t fake_init(const kf_host_api_t* host, void** out_state) {
  return kf::xpu::init_runtime(fake::api(), xpu_test::fake_library(), nullptr, host, out_state);
}

class Plugin : public XpuTest {
 protected:
  void SetUp() override {
    XpuTest::SetUp();
    plugin_ = kf::xpu::make_plugin(fake_init);
  }
  void TearDown() override {
    if (state_ != nullptr) plugin_.shutdown(state_);
    XpuTest::TearDown();
  }
  void init() {
    ASSERT_EQ(plugin_.init(xpu_test::test_host(), &state_), KF_OK) << host_record().error;
  }
  kf_plugin_t plugin_{};
  void* state_ = nullptr;
};

TEST_F(Plugin, TheTableIsAnAsynchronousXpuPluginOfTheSdksAbi) {
  // Streams came with ABI 1.2 and are in every 2.x; the table says the SDK's version.
  EXPECT_EQ(plugin_.abi_major, static_cast<uint32_t>(KF_PLUGIN_ABI_MAJOR));
  EXPECT_EQ(plugin_.abi_minor, static_cast<uint32_t>(KF_PLUGIN_ABI_MINOR));
  EXPECT_STREQ(plugin_.device_type, "xpu");
  EXPECT_STREQ(plugin_.name, "xpu");
  EXPECT_EQ(plugin_.score(), 1);
  EXPECT_TRUE(fake::state().calls.empty()) << "score touches no driver";
  const void* slots[] = {
      reinterpret_cast<const void*>(plugin_.stream_create),
      reinterpret_cast<const void*>(plugin_.stream_destroy),
      reinterpret_cast<const void*>(plugin_.stream_synchronize),
      reinterpret_cast<const void*>(plugin_.event_create),
      reinterpret_cast<const void*>(plugin_.event_destroy),
      reinterpret_cast<const void*>(plugin_.event_record),
      reinterpret_cast<const void*>(plugin_.event_wait),
      reinterpret_cast<const void*>(plugin_.event_synchronize),
      reinterpret_cast<const void*>(plugin_.event_query),
      reinterpret_cast<const void*>(plugin_.event_elapsed_ms),
      reinterpret_cast<const void*>(plugin_.copy_async),
      reinterpret_cast<const void*>(plugin_.host_allocate),
      reinterpret_cast<const void*>(plugin_.host_deallocate),
      reinterpret_cast<const void*>(plugin_.memset),
      reinterpret_cast<const void*>(plugin_.synchronize),
      reinterpret_cast<const void*>(plugin_.describe),
      reinterpret_cast<const void*>(plugin_.device_properties)};
  for (const void* slot : slots) EXPECT_NE(slot, nullptr);
}

TEST_F(Plugin, InitWithoutADriverIsUnavailableWithTheReason) {
  fake::state().init_result = ZE_RESULT_ERROR_UNINITIALIZED;
  EXPECT_EQ(plugin_.init(xpu_test::test_host(), &state_), KF_UNAVAILABLE);
  EXPECT_EQ(state_, nullptr);
  EXPECT_PRED2(contains, host_record().error,
               "zeInit failed: ZE_RESULT_ERROR_UNINITIALIZED (no Level Zero driver");
}

TEST_F(Plugin, DevicesAndTheirProperties) {
  init();
  EXPECT_EQ(plugin_.device_count(state_), 1);
  kf_device_properties_t p{};
  p.struct_size = sizeof(p);
  ASSERT_EQ(plugin_.device_properties(state_, 0, &p), KF_OK);
  EXPECT_STREQ(p.name, "Fake Arc");
  EXPECT_EQ(p.total_memory, uint64_t{8} << 30);
  EXPECT_EQ(p.compute_units, 64);
  EXPECT_EQ(plugin_.device_properties(state_, 1, &p), KF_INVALID_ARGUMENT);
  EXPECT_PRED2(contains, host_record().error, "xpu: no device 1 (there is 1)");
  char text[512];
  ASSERT_EQ(plugin_.describe(state_, text, sizeof(text)), KF_OK);
  EXPECT_PRED2(contains, text, "Level Zero API 1.3, driver 1.3.26241; xpu:0 Fake Arc");
  char small[8];
  ASSERT_EQ(plugin_.describe(state_, small, sizeof(small)), KF_OK);
  EXPECT_EQ(std::strlen(small), 7u) << "truncated to the buffer";
}

TEST_F(Plugin, MemoryRoundTripThroughTheSlots) {
  init();
  void* dev = nullptr;
  ASSERT_EQ(plugin_.allocate(state_, 0, 16, &dev), KF_OK);
  const char in[16] = "kernforge xpu!";
  char out[16] = {};
  ASSERT_EQ(plugin_.copy(state_, 0, dev, in, 16, KF_COPY_HOST_TO_DEVICE), KF_OK);
  ASSERT_EQ(plugin_.copy(state_, 0, out, dev, 16, KF_COPY_DEVICE_TO_HOST), KF_OK);
  EXPECT_STREQ(out, in);
  ASSERT_EQ(plugin_.memset(state_, 0, dev, 0, 16), KF_OK);
  ASSERT_EQ(plugin_.copy(state_, 0, out, dev, 16, KF_COPY_DEVICE_TO_HOST), KF_OK);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(plugin_.copy(state_, 0, out, dev, 16, 7), KF_INVALID_ARGUMENT);
  EXPECT_PRED2(contains, host_record().error, "unknown copy kind 7");
  EXPECT_EQ(plugin_.copy(state_, 0, nullptr, dev, 16, KF_COPY_DEVICE_TO_HOST),
            KF_INVALID_ARGUMENT);
  EXPECT_EQ(plugin_.copy(state_, 0, nullptr, nullptr, 0, KF_COPY_DEVICE_TO_HOST), KF_OK);
  void* pinned = nullptr;
  ASSERT_EQ(plugin_.host_allocate(state_, 64, &pinned), KF_OK);
  plugin_.host_deallocate(state_, pinned, 64);
  plugin_.deallocate(state_, 0, dev, 16);
  plugin_.deallocate(state_, 5, dev, 16);  // no such device: ignored
  EXPECT_EQ(plugin_.synchronize(state_, 0), KF_OK);
}

TEST_F(Plugin, StreamsAndEventsThroughTheSlots) {
  fake::state().deferred = true;
  init();
  void* s = nullptr;
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(plugin_.stream_create(state_, 0, &s), KF_OK);
  ASSERT_EQ(plugin_.event_create(state_, 0, &a), KF_OK);
  ASSERT_EQ(plugin_.event_create(state_, 0, &b), KF_OK);
  ASSERT_EQ(plugin_.event_record(state_, 0, a, s), KF_OK);
  ASSERT_EQ(plugin_.event_record(state_, 0, b, s), KF_OK);
  ASSERT_EQ(plugin_.event_wait(state_, 0, nullptr, b), KF_OK);
  int32_t done = -1;
  ASSERT_EQ(plugin_.event_query(state_, 0, b, &done), KF_OK);
  EXPECT_EQ(done, 0);
  double ms = -1;
  EXPECT_EQ(plugin_.event_elapsed_ms(state_, 0, a, b, &ms), KF_FAILED_PRECONDITION);
  ASSERT_EQ(plugin_.event_synchronize(state_, 0, b), KF_OK);
  ASSERT_EQ(plugin_.event_query(state_, 0, b, &done), KF_OK);
  EXPECT_EQ(done, 1);
  ASSERT_EQ(plugin_.event_elapsed_ms(state_, 0, a, b, &ms), KF_OK);
  EXPECT_DOUBLE_EQ(ms, 0.002);
  ASSERT_EQ(plugin_.stream_synchronize(state_, 0, nullptr), KF_OK);
  EXPECT_EQ(fake::state().waits_on_unsignalled, 0);
  EXPECT_EQ(plugin_.event_record(state_, 0, a, b), KF_INVALID_ARGUMENT) << "b is no stream";
  plugin_.event_destroy(state_, 0, a);
  plugin_.event_destroy(state_, 0, b);
  plugin_.stream_destroy(state_, 0, s);
}

struct Registered {
  std::vector<kf_kernel_desc_t> kernels;
};

kf_status_t register_kernel(void* ctx, const kf_kernel_desc_t* desc) {
  static_cast<Registered*>(ctx)->kernels.push_back(*desc);
  return KF_OK;
}

TEST_F(Plugin, KernelsAreRegisteredForTheDtypesEveryDeviceRuns) {
  fake::state().drivers[0].devices[0].fp64 = false;
  init();
  Registered got;
  kf_registrar_t reg{};
  reg.struct_size = sizeof(reg);
  reg.ctx = &got;
  reg.register_kernel = register_kernel;
  ASSERT_EQ(plugin_.register_kernels(state_, &reg), KF_OK);
  ASSERT_FALSE(got.kernels.empty());
  for (const kf_kernel_desc_t& k : got.kernels) {
    EXPECT_EQ(k.dtype_mask & (1u << KF_FLOAT64), 0u) << k.op_name << " offered float64";
  }
}

}  // namespace
