// The SPIR-V modules spirv.cmake built and embedded: one per family and dtype, twice (with and
// without fp64) except float64, each a SPIR-V module, and none built without fp64 using doubles.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "clkernels/kernels.hpp"
#include "clkernels/spirv_modules.hpp"

namespace {

using kf::clk::Family;
using kf::clk::ProgramKey;

uint32_t word(const unsigned char* bytes, size_t index) {
  uint32_t w = 0;
  std::memcpy(&w, bytes + 4 * index, 4);
  return w;
}

bool declares_float64(const unsigned char* bytes, size_t size) {
  for (size_t i = 5; 4 * (i + 2) <= size && word(bytes, i) == 0x00020011u; i += 2) {
    if (word(bytes, i + 1) == 10u) return true;  // OpCapability Float64
  }
  return false;
}

TEST(SpirvModules, EveryFamilyAndDtypeHasAModuleWithAndWithoutFp64) {
  size_t expected = 0;
  for (int32_t f = 0; f < kf::clk::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    ASSERT_NE(kf::clk::family_source(family), nullptr)
        << "Family " << kf::clk::family_name(family) << " has no kernels/<family>.cl: the enum "
        << "and the kernel files disagree";
    for (int32_t dtype = 0; dtype < KF_DTYPE_COUNT; ++dtype) {
      for (bool fp64 : {false, true}) {
        size_t size = 0;
        const unsigned char* m = kf::clk::spirv_module(ProgramKey{family, dtype}, fp64, &size);
        const char* name = kf::clk::family_name(family);
        if (kf_dtype_kind(dtype) == 'c') {
          EXPECT_EQ(m, nullptr) << name << ": no complex kernels (those run on the CPU fallback)";
          continue;
        }
        if (dtype == KF_FLOAT64 && !fp64) {
          EXPECT_EQ(m, nullptr) << name << ": float64 exists only with fp64";
          continue;
        }
        ++expected;
        ASSERT_NE(m, nullptr) << name << " dtype " << dtype << " fp64 " << fp64;
        ASSERT_GE(size, 20u);
        EXPECT_EQ(size % 4, 0u);
        EXPECT_EQ(word(m, 0), 0x07230203u) << "the SPIR-V magic number";
        EXPECT_LE(word(m, 1), 0x00010200u) << "SPIR-V 1.2 at most";
        if (!fp64) {
          EXPECT_FALSE(declares_float64(m, size)) << name << " dtype " << dtype;
        }
      }
    }
  }
  EXPECT_GT(expected, 0u);
  EXPECT_EQ(kf::clk::spirv_module_count(), expected);
}

TEST(SpirvModules, UnknownProgramsHaveNone) {
  size_t size = 99;
  EXPECT_EQ(kf::clk::spirv_module(ProgramKey{Family::Copy, 77}, true, &size), nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(kf::clk::spirv_module_by_name("nosuchfamily", 0, true, &size), nullptr);
  EXPECT_EQ(kf::clk::spirv_module_by_name(nullptr, 0, true, &size), nullptr);
}

TEST(SpirvModules, Float64ModulesDeclareFloat64) {
  size_t size = 0;
  const unsigned char* m = kf::clk::spirv_module(ProgramKey{Family::Copy, KF_FLOAT64}, true, &size);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(declares_float64(m, size)) << "the scan would not see a Float64 capability";
}

}  // namespace
