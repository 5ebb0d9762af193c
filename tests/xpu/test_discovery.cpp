// Enumeration: drivers, GPU devices, their properties, KERNFORGE_XPU_DEVICE, contexts.
#include "clkernels/kernels.hpp"
#include "discovery.hpp"
#include "xpu_test_util.hpp"

namespace {

using xpu_test::contains;
using xpu_test::XpuTest;

fake::DeviceSpec gpu(const std::string& name, bool fp64 = true) {
  fake::DeviceSpec spec;
  spec.name = name;
  spec.fp64 = fp64;
  return spec;
}

class Discovery : public XpuTest {};

TEST_F(Discovery, ZeInitFailingIsUnavailableWithTheResultsName) {
  fake::state().init_result = ZE_RESULT_ERROR_UNINITIALIZED;
  kf_status_t status = KF_OK;
  const std::string message = create_error(&status);
  EXPECT_EQ(status, KF_UNAVAILABLE);
  EXPECT_EQ(message,
            "xpu: zeInit failed: ZE_RESULT_ERROR_UNINITIALIZED (no Level Zero driver is "
            "installed: install Intel's compute runtime, intel-level-zero-gpu)");
  EXPECT_EQ(fake::state().calls, std::vector<std::string>{"zeInit"});
}

TEST_F(Discovery, NoDriverIsUnavailable) {
  fake::state().drivers.clear();
  kf_status_t status = KF_OK;
  EXPECT_PRED2(contains, create_error(&status), "no Level Zero GPU driver");
  EXPECT_EQ(status, KF_UNAVAILABLE);
}

TEST_F(Discovery, DriversWithoutAGpuAreUnavailable) {
  fake::state().drivers[0].devices[0].type = ZE_DEVICE_TYPE_CPU;
  kf_status_t status = KF_OK;
  EXPECT_PRED2(contains, create_error(&status), "no GPU device");
  EXPECT_EQ(status, KF_UNAVAILABLE);
}

TEST_F(Discovery, EveryGpuOfEveryDriverInOrderWithItsProperties) {
  fake::DeviceSpec cpu = gpu("Not a GPU");
  cpu.type = ZE_DEVICE_TYPE_CPU;
  fake::state().drivers = {fake::DriverSpec{}, fake::DriverSpec{}};
  fake::state().drivers[0].devices = {gpu("A"), cpu};
  fake::state().drivers[1].devices = {gpu("B"), gpu("C")};
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  ASSERT_EQ(rt->count(), 3);
  EXPECT_EQ(rt->at(0).info().name, "A");
  EXPECT_EQ(rt->at(1).info().name, "B");
  EXPECT_EQ(rt->at(2).info().name, "C");
  EXPECT_EQ(fake::state().contexts, 2) << "one context per driver";
  const kf::xpu::DeviceInfo& info = rt->at(1).info();
  EXPECT_EQ(info.total_memory, uint64_t{8} << 30) << "both memory ordinals counted";
  EXPECT_EQ(info.compute_units, 64);
  EXPECT_EQ(info.compute_ordinal, 1u) << "the group with compute, not the copy group";
  EXPECT_EQ(info.caps.max_work_group, 512u);
  EXPECT_EQ(info.caps.local_memory, 65536u);
  EXPECT_TRUE(info.caps.fp64);
  for (uint32_t ordinal : fake::state().list_ordinals) EXPECT_EQ(ordinal, 1u);
}

TEST_F(Discovery, TheFilterKeepsTheDevicesItNamesInItsOrder) {
  fake::state().drivers = {fake::DriverSpec{}, fake::DriverSpec{}};
  fake::state().drivers[0].devices = {gpu("A")};
  fake::state().drivers[1].devices = {gpu("B"), gpu("C")};
  auto rt = make_runtime("2,0");
  ASSERT_NE(rt, nullptr);
  ASSERT_EQ(rt->count(), 2);
  EXPECT_EQ(rt->at(0).info().name, "C");
  EXPECT_EQ(rt->at(1).info().name, "A");
  rt.reset();
  auto one = make_runtime("1");
  ASSERT_NE(one, nullptr);
  ASSERT_EQ(one->count(), 1);
  EXPECT_EQ(one->at(0).info().name, "B");
  EXPECT_EQ(fake::state().contexts, 1) << "no context for a driver whose devices are left out";
}

TEST_F(Discovery, AFilterThatNamesNoDeviceIsUnavailableAndListsTheGpus) {
  fake::state().drivers[0].devices = {gpu("A"), gpu("B")};
  for (const char* filter : {"5", "x", "0,", "-1", "1 "}) {
    kf_status_t status = KF_OK;
    const std::string message = create_error(&status, filter);
    EXPECT_EQ(status, KF_UNAVAILABLE) << filter;
    EXPECT_PRED2(contains, message, std::string("KERNFORGE_XPU_DEVICE='") + filter + "'");
    EXPECT_PRED2(contains, message, "0: A, 1: B");
  }
  auto all = make_runtime("");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->count(), 2);
}

TEST_F(Discovery, AGpuWithoutAComputeQueueGroupIsUnavailable) {
  fake::state().drivers[0].devices[0].compute_group = false;
  kf_status_t status = KF_OK;
  EXPECT_PRED2(contains, create_error(&status), "no command queue group for compute");
  EXPECT_EQ(status, KF_UNAVAILABLE);
}

TEST_F(Discovery, AGpuWithoutSpirvIsUnavailable) {
  fake::state().drivers[0].devices[0].spirv = 0;
  kf_status_t status = KF_OK;
  EXPECT_PRED2(contains, create_error(&status), "does not take SPIR-V");
  EXPECT_EQ(status, KF_UNAVAILABLE);
}

TEST_F(Discovery, AFailedCallGivesItsStatusAndLeavesNothingBehind) {
  fake::state().fail["zeCommandListCreateImmediate"] = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  kf_status_t status = KF_OK;
  const std::string message = create_error(&status);
  EXPECT_EQ(status, KF_OUT_OF_MEMORY);
  EXPECT_PRED2(contains, message,
               "zeCommandListCreateImmediate failed: ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY");
  EXPECT_EQ(fake::live_objects(), 0);
  fake::state().fail = {{"zeDeviceGetProperties", ZE_RESULT_ERROR_DEVICE_LOST}};
  EXPECT_PRED2(contains, create_error(&status), "ZE_RESULT_ERROR_DEVICE_LOST");
  EXPECT_EQ(status, KF_UNAVAILABLE);
}

TEST_F(Discovery, TheDtypesAreThoseEveryDeviceRuns) {
  fake::state().drivers[0].devices = {gpu("A", true), gpu("B", false)};
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  const uint32_t mask = rt->dtype_mask();
  EXPECT_EQ(mask & (1u << KF_FLOAT64), 0u) << "B has no fp64";
  EXPECT_NE(mask & (1u << KF_FLOAT32), 0u);
  EXPECT_EQ(mask, kf::clk::supported_dtypes(rt->at(1).capabilities(), false));
}

TEST_F(Discovery, DescribeNamesTheApiTheDriverAndTheDevices) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  const std::string text = rt->describe();
  EXPECT_PRED2(contains, text, "Level Zero API 1.3, driver 1.3.26241");
  EXPECT_PRED2(contains, text, "xpu:0 Fake Arc (64 EUs, 8.0 GiB, fp64 yes, SPIR-V 1.2)");
  EXPECT_PRED2(contains, text, "copy/float32 built at init, the rest on first use");
}

TEST(DriverVersion, IntelsEncoding) {
  EXPECT_EQ(kf::xpu::driver_version_text((1u << 24) | (3u << 16) | 26241u), "1.3.26241");
}

}  // namespace
