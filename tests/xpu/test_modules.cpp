// Modules (the init policy, build logs, lazy loading, the fp64 builds) and launches (group
// size, arguments, group counts, errors).
#include <cstring>
#include <vector>

#include "xpu_test_util.hpp"

namespace {

using kf::clk::Family;
using kf::clk::Launch;
using kf::clk::ProgramKey;
using xpu_test::contains;
using xpu_test::XpuTest;

class Modules : public XpuTest {
 protected:
  static Launch launch_of(Family family, const char* kernel, size_t global, size_t local) {
    Launch l;
    l.program = ProgramKey{family, KF_FLOAT32};
    l.kernel = kernel;
    l.global[0] = global;
    l.local[0] = local;
    return l;
  }
  static kf_status_t run(kf::xpu::XpuDevice& d, const Launch& l, std::string* error = nullptr) {
    std::string text;
    const kf_status_t s = d.launch(l, nullptr, text);
    if (error != nullptr) *error = text;
    return s;
  }
};

TEST_F(Modules, InitBuildsOnlyTheCopyModuleForFloat32OnEveryDevice) {
  fake::state().drivers[0].devices = {fake::DeviceSpec{}, fake::DeviceSpec{}};
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(fake::state().modules_created, 2);
  EXPECT_EQ(rt->at(0).modules().loaded(), 1u);
  EXPECT_EQ(fake::state().logs, 0) << "build logs are destroyed";
}

TEST_F(Modules, ADriverThatRefusesTheModuleMakesThePluginUnavailableWithItsLog) {
  fake::state().module_result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  fake::state().build_log = "error: SPIR-V capability Int64 is not supported\n";
  kf_status_t status = KF_OK;
  const std::string message = create_error(&status);
  EXPECT_EQ(status, KF_UNAVAILABLE);
  EXPECT_PRED2(contains, message, "xpu:0: the driver refused the SPIR-V module copy/float32");
  EXPECT_PRED2(contains, message, "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE");
  EXPECT_PRED2(contains, message,
               "build log: error: SPIR-V capability Int64 is not supported");
}

TEST_F(Modules, ALongBuildLogIsCut) {
  fake::state().module_result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  fake::state().build_log = std::string(10000, 'x');
  kf_status_t status = KF_OK;
  const std::string message = create_error(&status);
  EXPECT_PRED2(contains, message, std::string(4096, 'x') + "... (5904 more bytes)");
  EXPECT_LT(message.size(), 4500u);
}

TEST_F(Modules, APluginWithoutTheModuleIsUnavailable) {
  kf::xpu::ModuleLibrary empty;
  empty.find = [](ProgramKey, bool, size_t* size) noexcept -> const unsigned char* {
    *size = 0;
    return nullptr;
  };
  try {
    kf::xpu::Runtime::create(fake::api(), empty, nullptr);
    FAIL() << "a runtime without modules was created";
  } catch (const kf::xpu::ZeError& e) {
    EXPECT_EQ(e.status(), KF_UNAVAILABLE);
    EXPECT_PRED2(contains, e.what(), "has no SPIR-V module copy/float32");
  }
}

TEST_F(Modules, EachDeviceTakesTheBuildForItsFp64) {
  static std::vector<bool> asked;
  asked.clear();
  kf::xpu::ModuleLibrary library;
  library.find = [](ProgramKey, bool fp64, size_t* size) noexcept {
    asked.push_back(fp64);
    return fake::fake_module(size);
  };
  fake::state().drivers[0].devices = {fake::DeviceSpec{}, fake::DeviceSpec{}};
  fake::state().drivers[0].devices[1].fp64 = false;
  auto rt = kf::xpu::Runtime::create(fake::api(), library, nullptr);
  EXPECT_EQ(asked, (std::vector<bool>{true, false}));
}

TEST_F(Modules, OtherModulesAreBuiltOnFirstUseAndKept) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  EXPECT_EQ(run(d, launch_of(Family::Binary, "add_contig", 256, 256)), KF_OK);
  EXPECT_EQ(fake::state().modules_created, 2);
  EXPECT_EQ(run(d, launch_of(Family::Binary, "add_contig", 512, 256)), KF_OK);
  EXPECT_EQ(run(d, launch_of(Family::Binary, "mul_contig", 512, 256)), KF_OK);
  EXPECT_EQ(fake::state().modules_created, 2);
  EXPECT_EQ(fake::state().kernels, 2) << "one kernel object per name";
  EXPECT_EQ(fake::state().launches.size(), 3u);
}

TEST_F(Modules, ALaunchSetsGroupSizeArgumentsAndGroupCounts) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  Launch l = launch_of(Family::Linalg, "mm_tiled", 64, 16);
  l.dims = 2;
  l.global[1] = 32;
  l.local[1] = 16;
  int dummy = 0;
  const int64_t n = 1234;
  l.arg(kf::clk::pointer_arg(&dummy)).arg(kf::clk::value_arg(n)).arg(kf::clk::local_arg(1024));
  ASSERT_EQ(run(d, l), KF_OK);
  ASSERT_EQ(fake::state().launches.size(), 1u);
  const fake::LaunchRecord& r = fake::state().launches[0];
  EXPECT_EQ(r.kernel, "mm_tiled");
  EXPECT_EQ(r.group[0], 16u);
  EXPECT_EQ(r.group[1], 16u);
  EXPECT_EQ(r.group[2], 1u);
  EXPECT_EQ(r.count.groupCountX, 4u);
  EXPECT_EQ(r.count.groupCountY, 2u);
  EXPECT_EQ(r.count.groupCountZ, 1u);
  const void* p = nullptr;
  ASSERT_EQ(r.args.at(0).size(), sizeof(void*));
  std::memcpy(&p, r.args.at(0).data(), sizeof(p));
  EXPECT_EQ(p, &dummy) << "a pointer argument passes the pointer's value";
  int64_t got = 0;
  ASSERT_EQ(r.args.at(1).size(), sizeof(got));
  std::memcpy(&got, r.args.at(1).data(), sizeof(got));
  EXPECT_EQ(got, 1234);
  EXPECT_EQ(r.local_args.at(2), 1024u);
}

TEST_F(Modules, TheGroupSizeIsSetOnlyWhenItChanges) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  for (size_t local : {256, 256, 128}) {
    ASSERT_EQ(run(d, launch_of(Family::Unary, "neg_contig", 1024, local)), KF_OK);
  }
  EXPECT_EQ(std::count(fake::state().calls.begin(), fake::state().calls.end(),
                       std::string("zeKernelSetGroupSize")),
            2);
}

TEST_F(Modules, ARangeOfPartGroupsOrTooLargeGroupsIsAnInternalError) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  std::string error;
  EXPECT_EQ(run(d, launch_of(Family::Unary, "neg_contig", 1000, 256), &error), KF_INTERNAL);
  EXPECT_PRED2(contains, error, "global size 1000 is not a whole number of groups of 256");
  EXPECT_EQ(run(d, launch_of(Family::Unary, "neg_contig", 1024, 1024), &error), KF_INTERNAL);
  EXPECT_PRED2(contains, error, "more than the device's 512");
  EXPECT_TRUE(fake::state().launches.empty());
}

TEST_F(Modules, AnEmptyRangeRunsNothing) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(run(rt->at(0), launch_of(Family::Unary, "neg_contig", 0, 256)), KF_OK);
  EXPECT_TRUE(fake::state().launches.empty());
  EXPECT_EQ(fake::state().modules_created, 1) << "not even the module is built";
}

TEST_F(Modules, AKernelTheModuleLacksIsNamed) {
  fake::state().missing_kernels = {"nope_contig"};
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  std::string error;
  EXPECT_EQ(run(rt->at(0), launch_of(Family::Unary, "nope_contig", 256, 256), &error),
            KF_INTERNAL);
  EXPECT_PRED2(contains, error, "finding the kernel 'nope_contig' in the module unary/float32");
  EXPECT_PRED2(contains, error, "ZE_RESULT_ERROR_INVALID_KERNEL_NAME");
}

TEST_F(Modules, AModuleRefusedOnFirstUseFailsEveryLaunchWithoutBuildingAgain) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  fake::state().module_result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  fake::state().build_log = "error: bad things";
  std::string first, second;
  EXPECT_EQ(run(rt->at(0), launch_of(Family::Binary, "add_contig", 256, 256), &first),
            KF_INTERNAL);
  EXPECT_EQ(run(rt->at(0), launch_of(Family::Binary, "add_contig", 256, 256), &second),
            KF_INTERNAL);
  EXPECT_PRED2(contains, first, "binary/float32");
  EXPECT_PRED2(contains, first, "build log: error: bad things");
  EXPECT_EQ(first, second);
  EXPECT_EQ(std::count(fake::state().calls.begin(), fake::state().calls.end(),
                       std::string("zeModuleCreate")),
            2) << "init's copy module, then one attempt";
}

TEST_F(Modules, LaunchesOnAStreamGoToItsList) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* s = d.create_stream();
  std::string error;
  ASSERT_EQ(d.launch(launch_of(Family::Fill, "fill_contig", 256, 256), s, error), KF_OK);
  ASSERT_EQ(d.launch(launch_of(Family::Fill, "fill_contig", 256, 256), nullptr, error), KF_OK);
  ASSERT_EQ(fake::state().launches.size(), 2u);
  EXPECT_NE(fake::state().launches[0].list, fake::state().launches[1].list);
  int not_a_stream = 0;
  EXPECT_EQ(d.launch(launch_of(Family::Fill, "fill_contig", 256, 256), &not_a_stream, error),
            KF_INVALID_ARGUMENT);
  d.destroy_stream(s);
}

}  // namespace
