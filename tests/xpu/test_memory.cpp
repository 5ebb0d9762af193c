// Memory: device USM through zeMemAllocDevice, its bookkeeping, copies, memset, host memory.
#include <cstring>
#include <numeric>
#include <vector>

#include "xpu_test_util.hpp"

namespace {

using xpu_test::contains;
using xpu_test::XpuTest;

class Memory : public XpuTest {};

TEST_F(Memory, AllocationsAreDeviceMemoryAndAreBookkept) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* a = d.allocate(1000);
  void* b = d.allocate(24);
  EXPECT_EQ(fake::state().device_memory.at(a), 1000u);
  EXPECT_EQ(d.allocations().count(), 2u);
  EXPECT_EQ(d.allocations().bytes(), 1024u);
  d.deallocate(a);
  EXPECT_EQ(fake::state().device_memory.count(a), 0u);
  EXPECT_EQ(d.allocations().bytes(), 24u);
  d.deallocate(b);
  EXPECT_EQ(d.allocations().count(), 0u);
}

TEST_F(Memory, ZeroBytesGetAnAddressOfTheirOwn) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  void* a = rt->at(0).allocate(0);
  void* b = rt->at(0).allocate(0);
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  rt->at(0).deallocate(a);
  rt->at(0).deallocate(b);
}

TEST_F(Memory, APointerTheDeviceDidNotGiveIsNeverFreed) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  int local = 0;
  void* a = rt->at(0).allocate(64);
  rt->at(0).deallocate(a);
  const size_t frees = std::count(fake::state().calls.begin(), fake::state().calls.end(),
                                  std::string("zeMemFree"));
  rt->at(0).deallocate(&local);
  rt->at(0).deallocate(a);  // twice
  EXPECT_EQ(std::count(fake::state().calls.begin(), fake::state().calls.end(),
                       std::string("zeMemFree")),
            static_cast<ptrdiff_t>(frees));
  ASSERT_EQ(xpu_test::host_record().logs.size(), 2u);
  EXPECT_PRED2(contains, xpu_test::host_record().logs[0], "which this device did not allocate");
}

TEST_F(Memory, RunningOutIsKfOutOfMemoryWithTheReason) {
  fake::state().drivers[0].devices[0].memory = 1 << 20;
  fake::state().drivers[0].devices[0].max_alloc = 512 << 10;
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  try {
    d.allocate(600 << 10);
    FAIL() << "an allocation above maxMemAllocSize succeeded";
  } catch (const kf::xpu::ZeError& e) {
    EXPECT_EQ(e.status(), KF_OUT_OF_MEMORY);
    EXPECT_PRED2(contains, e.what(), "more than the largest allocation the device allows");
  }
  void* a = d.allocate(500 << 10);
  void* b = d.allocate(500 << 10);
  try {
    d.allocate(100 << 10);
    FAIL() << "an allocation beyond the device's memory succeeded";
  } catch (const kf::xpu::ZeError& e) {
    EXPECT_EQ(e.status(), KF_OUT_OF_MEMORY);
    EXPECT_PRED2(contains, e.what(), "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY");
  }
  EXPECT_EQ(d.allocations().count(), 2u) << "a failed allocation is not recorded";
  d.deallocate(a);
  d.deallocate(b);
}

TEST_F(Memory, ShutdownFreesWhatTheHostLeft) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  rt->at(0).allocate(128);
  rt->host_allocate(256);
  EXPECT_EQ(fake::state().device_memory.size(), 1u);
  rt.reset();
  EXPECT_TRUE(fake::state().device_memory.empty());
  EXPECT_TRUE(fake::state().host_memory.empty());
}

TEST_F(Memory, ACopyHasRunWhenItReturns) {
  fake::state().deferred = true;  // nothing runs until the host waits
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  std::vector<int> in(100), out(100, -1);
  std::iota(in.begin(), in.end(), 7);
  void* dev = d.allocate(sizeof(int) * in.size());
  d.copy(dev, in.data(), sizeof(int) * in.size());
  d.copy(out.data(), dev, sizeof(int) * out.size());
  EXPECT_EQ(out, in);
  EXPECT_TRUE(fake::state().queue.empty());
  d.deallocate(dev);
}

TEST_F(Memory, ASynchronousCopyWaitsForTheDefaultStreamsWork) {
  fake::state().deferred = true;
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  std::vector<unsigned char> in(64, 5), out(64, 0);
  void* dev = d.allocate(64);
  d.copy_async(dev, in.data(), 64, nullptr);  // queued on the default stream, not run
  EXPECT_FALSE(fake::state().queue.empty());
  d.copy(out.data(), dev, 64);
  EXPECT_EQ(out, in);
  const std::vector<std::string> expected{"copy", "barrier", "copy"};
  EXPECT_EQ(fake::state().list_ops, expected) << "a barrier orders the second copy";
  d.deallocate(dev);
}

TEST_F(Memory, MemsetFillsTheBytes) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* dev = d.allocate(32);
  d.memset(dev, 0x1ab, 32);  // the low byte
  std::vector<unsigned char> out(32, 0);
  d.copy(out.data(), dev, 32);
  EXPECT_EQ(out, std::vector<unsigned char>(32, 0xab));
  d.deallocate(dev);
}

TEST_F(Memory, HostMemoryIsLevelZeroHostMemory) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  void* p = rt->host_allocate(4096);
  EXPECT_EQ(fake::state().host_memory.count(p), 1u);
  int local = 0;
  rt->host_deallocate(&local);  // not ours: ignored
  rt->host_deallocate(p);
  EXPECT_EQ(fake::state().host_memory.count(p), 0u);
}

TEST_F(Memory, AFailedCopyIsReportedAndLeavesNoEvent) {
  auto rt = make_runtime();
  ASSERT_NE(rt, nullptr);
  kf::xpu::XpuDevice& d = rt->at(0);
  void* dev = d.allocate(16);
  fake::state().fail["zeCommandListAppendMemoryCopy"] = ZE_RESULT_ERROR_DEVICE_LOST;
  char buf[16] = {};
  try {
    d.copy(dev, buf, 16);
    FAIL() << "the copy did not fail";
  } catch (const kf::xpu::ZeError& e) {
    EXPECT_EQ(e.status(), KF_UNAVAILABLE);
    EXPECT_PRED2(contains, e.what(), "xpu:0 default stream: zeCommandListAppendMemoryCopy "
                                     "failed: ZE_RESULT_ERROR_DEVICE_LOST");
  }
  EXPECT_EQ(d.events().live(), 0u);
  fake::state().fail.clear();
  d.deallocate(dev);
}

}  // namespace
