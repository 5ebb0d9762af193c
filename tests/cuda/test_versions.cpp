// The cuda plugin's version checks (backends/cuda/discovery.hpp) on made-up versions: another
// major of the runtime or of cuBLAS than the build's is refused naming both and the file, an
// older minor is a warning, a driver for an older CUDA major is refused, and versions that fit
// pass. No GPU and no driver needed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "discovery.hpp"

namespace {

using kf::cuda::Versions;

Versions fitting() {
  Versions v;
  v.runtime = v.runtime_built = 13000;
  v.blas = v.blas_built = 130100;
  v.driver = 13000;
  v.runtime_path = "/opt/cuda/lib64/libcudart.so.13";
  v.blas_path = "/opt/cuda/lib64/libcublas.so.13";
  v.driver_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  return v;
}

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

TEST(Versions, ThatFitPass) {
  std::vector<std::string> warnings;
  EXPECT_EQ(kf::cuda::version_problem(fitting(), warnings), "");
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(kf::cuda::driver_problem(fitting()), "");
  Versions newer = fitting();
  newer.runtime = 13020;  // a newer minor than the build's is fine
  newer.blas = 130400;
  EXPECT_EQ(kf::cuda::version_problem(newer, warnings), "");
  EXPECT_TRUE(warnings.empty());
}

TEST(Versions, ARuntimeOfAnotherMajorIsRefusedNamingBothAndTheFile) {
  Versions v = fitting();
  v.runtime = 12040;
  std::vector<std::string> warnings;
  const std::string problem = kf::cuda::version_problem(v, warnings);
  EXPECT_TRUE(has(problem, "is 12.4")) << problem;
  EXPECT_TRUE(has(problem, "built against 13.0")) << problem;
  EXPECT_TRUE(has(problem, v.runtime_path.c_str())) << problem;
  EXPECT_TRUE(has(problem, "KERNFORGE_CUDA_HOME")) << problem;
}

TEST(Versions, AnOlderMinorRuntimeIsAWarning) {
  Versions v = fitting();
  v.runtime_built = 13020;
  std::vector<std::string> warnings;
  EXPECT_EQ(kf::cuda::version_problem(v, warnings), "");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(has(warnings[0], "13.0")) << warnings[0];
  EXPECT_TRUE(has(warnings[0], "13.2")) << warnings[0];
}

TEST(Versions, ACublasOfAnotherMajorIsRefused) {
  Versions v = fitting();
  v.blas = 120402;
  std::vector<std::string> warnings;
  const std::string problem = kf::cuda::version_problem(v, warnings);
  EXPECT_TRUE(has(problem, "cuBLAS")) << problem;
  EXPECT_TRUE(has(problem, "12.4.2")) << problem;
  EXPECT_TRUE(has(problem, "13.1.0")) << problem;
  EXPECT_TRUE(has(problem, v.blas_path.c_str())) << problem;
}

TEST(Versions, ADriverForAnOlderMajorIsRefused) {
  Versions v = fitting();
  v.driver = 12080;
  const std::string problem = kf::cuda::driver_problem(v);
  EXPECT_TRUE(has(problem, "supports CUDA up to 12.8")) << problem;
  EXPECT_TRUE(has(problem, "update the driver")) << problem;
  EXPECT_TRUE(has(problem, v.driver_path.c_str())) << problem;
  v.driver = 0;  // unknown: nothing to say
  EXPECT_EQ(kf::cuda::driver_problem(v), "");
}

}  // namespace
