// The embedded SPIR-V modules, run. There is no Level Zero device here, and PoCL takes no
// SPIR-V, but it takes SPIR 1.2 (LLVM bitcode, cl_khr_spir): each module is translated back
// with `llvm-spirv-15 -r` and built by PoCL, and its kernels are run against results computed
// on the host. This checks what spirv.cmake and spirv_ir.py did to the kernels (the freeze
// rewrite, the block reordering and renumbering) on real arithmetic: the tiled matmul of the
// integer and bfloat16 modules is the code whose blocks had to be reordered, the strided
// kernels the code whose index arithmetic had freeze; argsort runs sort.cl's local-memory and
// global passes.
//
// Skipped, with the reason, without an OpenCL device that has cl_khr_spir or without
// llvm-spirv-15 (the one the build used, KF_LLVM_SPIRV).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "clkernels/kernels.hpp"
#include "clkernels/spirv_modules.hpp"

namespace {

using kf::clk::Family;

struct Layout {  // common.clh's kf_layout
  int64_t shape[16];
  int64_t stride[4][16];
  int32_t ndim;
  int32_t pad;
};

struct MmShape {  // linalg.cl's kf_mm_shape
  int64_t m, n, k;
  int64_t a[3], b[3], o[3];
};

class SpirvOnPocl : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  /// The module of (family, dtype) for devices with fp64, built by PoCL from its
  /// back-translation.
  cl_program program(Family family, int32_t dtype);
  cl_mem buffer(const void* data, size_t bytes);
  void read(cl_mem m, void* out, size_t bytes);
  void run(cl_kernel k, size_t dims, const size_t* global, const size_t* local);

  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_program> programs_;
  std::vector<cl_mem> buffers_;
  std::vector<cl_kernel> kernels_;
  cl_kernel kernel(cl_program p, const char* name);
};

std::vector<unsigned char> back_translate(const unsigned char* spv, size_t size);

void SpirvOnPocl::SetUp() {
  if (access(KF_LLVM_SPIRV, X_OK) != 0) GTEST_SKIP() << KF_LLVM_SPIRV << " is not installed";
  cl_platform_id platform = nullptr;
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) {
    GTEST_SKIP() << "no OpenCL platform (install pocl-opencl-icd)";
  }
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device_, &n) != CL_SUCCESS || n == 0) {
    GTEST_SKIP() << "no OpenCL device";
  }
  char extensions[4096] = {};
  clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS, sizeof(extensions) - 1, extensions, nullptr);
  if (std::strstr(extensions, "cl_khr_spir") == nullptr) {
    GTEST_SKIP() << "the OpenCL device does not take SPIR (cl_khr_spir)";
  }
  cl_int err = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
}

void SpirvOnPocl::TearDown() {
  for (cl_kernel k : kernels_) clReleaseKernel(k);
  for (cl_mem m : buffers_) clReleaseMemObject(m);
  for (cl_program p : programs_) clReleaseProgram(p);
  if (queue_ != nullptr) clReleaseCommandQueue(queue_);
  if (context_ != nullptr) clReleaseContext(context_);
}

std::vector<unsigned char> back_translate(const unsigned char* spv, size_t size) {
  char dir[] = "/tmp/kf_spirv_XXXXXX";
  if (mkdtemp(dir) == nullptr) return {};
  const std::string in = std::string(dir) + "/m.spv", out = std::string(dir) + "/m.bc";
  std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(spv),
                                            static_cast<std::streamsize>(size));
  const std::string command = std::string("'") + KF_LLVM_SPIRV +
                              "' -r --spirv-target-env=CL1.2 '" + in + "' -o '" + out + "'";
  std::vector<unsigned char> bitcode;
  if (std::system(command.c_str()) == 0) {
    std::ifstream f(out, std::ios::binary);
    bitcode.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  std::remove(in.c_str());
  std::remove(out.c_str());
  rmdir(dir);
  return bitcode;
}

cl_program SpirvOnPocl::program(Family family, int32_t dtype) {
  size_t size = 0;
  const unsigned char* spv = kf::clk::spirv_module({family, dtype}, true, &size);
  EXPECT_NE(spv, nullptr);
  if (spv == nullptr) return nullptr;
  const std::vector<unsigned char> bitcode = back_translate(spv, size);
  EXPECT_FALSE(bitcode.empty()) << "llvm-spirv -r failed on " << kf::clk::family_name(family);
  if (bitcode.empty()) return nullptr;
  const unsigned char* binaries[] = {bitcode.data()};
  const size_t sizes[] = {bitcode.size()};
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithBinary(context_, 1, &device_, sizes, binaries, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (err != CL_SUCCESS) return nullptr;
  programs_.push_back(p);
  err = clBuildProgram(p, 1, &device_, "-x spir -spir-std=1.2", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, nullptr);
    ADD_FAILURE() << "PoCL did not build " << kf::clk::family_name(family) << ": " << log;
    return nullptr;
  }
  return p;
}

cl_kernel SpirvOnPocl::kernel(cl_program p, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name, &err);
  EXPECT_EQ(err, CL_SUCCESS) << name;
  if (k != nullptr) kernels_.push_back(k);
  return k;
}

cl_mem SpirvOnPocl::buffer(const void* data, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                            const_cast<void*>(data), &err);
  EXPECT_EQ(err, CL_SUCCESS);
  buffers_.push_back(m);
  return m;
}

void SpirvOnPocl::read(cl_mem m, void* out, size_t bytes) {
  ASSERT_EQ(clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, bytes, out, 0, nullptr, nullptr),
            CL_SUCCESS);
}

void SpirvOnPocl::run(cl_kernel k, size_t dims, const size_t* global, const size_t* local) {
  ASSERT_EQ(clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(dims), nullptr, global, local,
                                   0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue_), CL_SUCCESS);
}

/// `values` as the bytes of `dtype` (small integers: exact in every dtype used here).
std::vector<unsigned char> bytes_of(int32_t dtype, const std::vector<int64_t>& values) {
  std::vector<unsigned char> out;
  for (int64_t v : values) {
    unsigned char b[8] = {};
    size_t n = 0;
    if (dtype == KF_FLOAT32) {
      const float f = static_cast<float>(v);
      std::memcpy(b, &f, n = 4);
    } else if (dtype == KF_BFLOAT16) {
      const float f = static_cast<float>(v);
      uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      const uint16_t h = static_cast<uint16_t>(bits >> 16);
      std::memcpy(b, &h, n = 2);
    } else if (dtype == KF_INT16) {
      const int16_t x = static_cast<int16_t>(v);
      std::memcpy(b, &x, n = 2);
    } else if (dtype == KF_INT32) {
      const int32_t x = static_cast<int32_t>(v);
      std::memcpy(b, &x, n = 4);
    } else {
      std::memcpy(b, &v, n = 8);
    }
    out.insert(out.end(), b, b + n);
  }
  return out;
}

int64_t value_at(int32_t dtype, const std::vector<unsigned char>& bytes, size_t i) {
  if (dtype == KF_FLOAT32) {
    float f = 0;
    std::memcpy(&f, bytes.data() + 4 * i, 4);
    return static_cast<int64_t>(std::lround(f));
  }
  if (dtype == KF_BFLOAT16) {
    uint16_t h = 0;
    std::memcpy(&h, bytes.data() + 2 * i, 2);
    const uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f = 0;
    std::memcpy(&f, &bits, 4);
    return static_cast<int64_t>(std::lround(f));
  }
  if (dtype == KF_INT16) {
    int16_t x = 0;
    std::memcpy(&x, bytes.data() + 2 * i, 2);
    return x;
  }
  if (dtype == KF_INT32) {
    int32_t x = 0;
    std::memcpy(&x, bytes.data() + 4 * i, 4);
    return x;
  }
  int64_t x = 0;
  std::memcpy(&x, bytes.data() + 8 * i, 8);
  return x;
}

TEST_F(SpirvOnPocl, TheTiledMatmulOfEveryReorderedModuleIsExact) {
  const int64_t m = 20, n = 18, k = 33;  // partial tiles in every direction
  std::vector<int64_t> a(m * k), b(k * n), expected(m * n, 0);
  for (int64_t i = 0; i < m * k; ++i) a[i] = (i * 7) % 5 - 2;
  for (int64_t i = 0; i < k * n; ++i) b[i] = (i * 3) % 7 - 3;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      for (int64_t j = 0; j < k; ++j) expected[r * n + c] += a[r * k + j] * b[j * n + c];
    }
  }
  for (int32_t dtype : {KF_FLOAT32, KF_BFLOAT16, KF_INT16, KF_INT32, KF_INT64}) {
    SCOPED_TRACE(kf::clk::short_name(dtype));
    cl_program p = program(Family::Linalg, dtype);
    ASSERT_NE(p, nullptr);
    cl_kernel kern = kernel(p, "mm_tile16");
    ASSERT_NE(kern, nullptr);
    const auto ab = bytes_of(dtype, a), bb = bytes_of(dtype, b);
    std::vector<unsigned char> out(bytes_of(dtype, expected).size(), 0xff);
    cl_mem mo = buffer(out.data(), out.size()), ma = buffer(ab.data(), ab.size()),
           mb = buffer(bb.data(), bb.size());
    const MmShape shape{m, n, k, {0, k, 1}, {0, n, 1}, {0, n, 1}};
    clSetKernelArg(kern, 0, sizeof(cl_mem), &mo);
    clSetKernelArg(kern, 1, sizeof(cl_mem), &ma);
    clSetKernelArg(kern, 2, sizeof(cl_mem), &mb);
    clSetKernelArg(kern, 3, sizeof(shape), &shape);
    const size_t global[3] = {32, 32, 1}, local[3] = {16, 16, 1};
    run(kern, 3, global, local);
    read(mo, out.data(), out.size());
    for (int64_t i = 0; i < m * n; ++i) {
      ASSERT_EQ(value_at(dtype, out, static_cast<size_t>(i)), expected[i]) << "element " << i;
    }
  }
}

TEST_F(SpirvOnPocl, AStridedBroadcastAddIsExact) {
  // out (2 x 3, dense) = a^T (a stored 3 x 2) + 2 * b (3 values broadcast over the rows)
  const std::vector<int64_t> a{1, 2, 3, 4, 5, 6}, b{10, 20, 30};
  std::vector<int64_t> expected(6);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) expected[r * 3 + c] = a[c * 2 + r] + 2 * b[c];
  }
  Layout layout{};
  layout.ndim = 2;
  layout.shape[0] = 2;
  layout.shape[1] = 3;
  const int64_t strides[3][2] = {{3, 1}, {1, 2}, {0, 1}};
  for (int op = 0; op < 3; ++op) {
    for (int d = 0; d < 2; ++d) layout.stride[op][d] = strides[op][d];
  }
  for (int32_t dtype : {KF_FLOAT32, KF_INT64}) {
    SCOPED_TRACE(kf::clk::short_name(dtype));
    cl_program p = program(Family::Binary, dtype);
    ASSERT_NE(p, nullptr);
    cl_kernel kern = kernel(p, "add_strided");
    ASSERT_NE(kern, nullptr);
    const auto ab = bytes_of(dtype, a), bb = bytes_of(dtype, b);
    std::vector<unsigned char> out(bytes_of(dtype, expected).size(), 0);
    cl_mem mo = buffer(out.data(), out.size()), ma = buffer(ab.data(), ab.size()),
           mb = buffer(bb.data(), bb.size());
    const float alpha_f = 2.0f;
    const int64_t alpha_i = 2, count = 6;
    clSetKernelArg(kern, 0, sizeof(cl_mem), &mo);
    clSetKernelArg(kern, 1, sizeof(cl_mem), &ma);
    clSetKernelArg(kern, 2, sizeof(cl_mem), &mb);
    if (dtype == KF_FLOAT32) {
      clSetKernelArg(kern, 3, sizeof(alpha_f), &alpha_f);
    } else {
      clSetKernelArg(kern, 3, sizeof(alpha_i), &alpha_i);
    }
    clSetKernelArg(kern, 4, sizeof(count), &count);
    clSetKernelArg(kern, 5, sizeof(layout), &layout);
    const size_t global[1] = {64}, local[1] = {64};
    run(kern, 1, global, local);
    read(mo, out.data(), out.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(value_at(dtype, out, i), expected[i]) << "element " << i;
    }
  }
}

TEST_F(SpirvOnPocl, CopyConvertsFloatsToIntegersTowardZero) {
  cl_program p = program(Family::Copy, KF_INT32);
  ASSERT_NE(p, nullptr);
  cl_kernel kern = kernel(p, "copy_from_f32_contig");
  ASSERT_NE(kern, nullptr);
  const float src[4] = {1.75f, -2.5f, 3.0f, -0.25f};
  int32_t out[4] = {9, 9, 9, 9};
  cl_mem mo = buffer(out, sizeof(out)), ms = buffer(src, sizeof(src));
  const int64_t count = 4;
  clSetKernelArg(kern, 0, sizeof(cl_mem), &mo);
  clSetKernelArg(kern, 1, sizeof(cl_mem), &ms);
  clSetKernelArg(kern, 2, sizeof(count), &count);
  const size_t global[1] = {4}, local[1] = {4};
  run(kern, 1, global, local);
  read(mo, out, sizeof(out));
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], -2);
  EXPECT_EQ(out[2], 3);
  EXPECT_EQ(out[3], 0);
}

/// Sets the arguments sort.cl's row kernels start with: one contiguous line of n elements.
void set_line_args(cl_kernel kern, const cl_mem* out, const cl_mem* self, const int64_t* n,
                   const Layout* rows_layout, const int32_t* flags) {
  static const int64_t one = 1;
  clSetKernelArg(kern, 0, sizeof(cl_mem), out);
  clSetKernelArg(kern, 1, sizeof(cl_mem), self);
  clSetKernelArg(kern, 2, sizeof(int64_t), n);
  clSetKernelArg(kern, 3, sizeof(int64_t), &one);  // si
  clSetKernelArg(kern, 4, sizeof(int64_t), &one);  // so
  clSetKernelArg(kern, 5, sizeof(int64_t), &one);  // rows
  clSetKernelArg(kern, 6, sizeof(Layout), rows_layout);
  clSetKernelArg(kern, 7, sizeof(int32_t), flags);
}

TEST_F(SpirvOnPocl, ArgsortThroughBlocksAndGlobalStepsIsStable) {
  // A line of 1000 values of 7 levels, argsorted by the modules' kernels as src/sort_ops.cpp
  // launches them with a block width of 256 and 64 items (GPU-like): blocks in local memory,
  // the steps j >= 256 of stages 512 and 1024 over the line, the merges in local memory.
  // float32 sorts packed key-and-position pairs, int64 positions compared by self's keys.
  const int64_t n = 1000, B = 256, P = 1024, pairs = P / 2;
  std::vector<int64_t> values(n), order(n);
  for (int64_t i = 0; i < n; ++i) values[i] = (i * 37) % 7 - 3;
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return values[a] < values[b]; });
  for (int32_t dtype : {KF_FLOAT32, KF_INT64}) {
    SCOPED_TRACE(kf::clk::short_name(dtype));
    cl_program p = program(Family::Sort, dtype);
    ASSERT_NE(p, nullptr);
    cl_kernel block = kernel(p, "argsort_block"), step = kernel(p, "argsort_step");
    ASSERT_NE(block, nullptr);
    ASSERT_NE(step, nullptr);
    const auto in = bytes_of(dtype, values);
    std::vector<int64_t> out(n, -1);
    cl_mem mo = buffer(out.data(), out.size() * 8), ms = buffer(in.data(), in.size());
    const Layout rows{};  // one row: no dims
    const int32_t flags = dtype == KF_FLOAT32 ? 2 : 0;  // ascending; packed pairs for float32
    set_line_args(block, &mo, &ms, &n, &rows, &flags);
    set_line_args(step, &mo, &ms, &n, &rows, &flags);
    clSetKernelArg(block, 9, sizeof(int64_t), &B);
    clSetKernelArg(block, 10, B * 8, nullptr);
    clSetKernelArg(block, 11, B * 8, nullptr);
    clSetKernelArg(step, 10, sizeof(int64_t), &pairs);
    const size_t blocks_global[1] = {4 * 64}, local[1] = {64}, steps_global[1] = {pairs};
    int32_t mode = 2;  // first
    clSetKernelArg(block, 8, sizeof(int32_t), &mode);
    run(block, 1, blocks_global, local);
    for (int64_t k = 2 * B; k <= P; k *= 2) {
      for (int64_t j = k / 2; j >= B; j /= 2) {
        clSetKernelArg(step, 8, sizeof(int64_t), &k);
        clSetKernelArg(step, 9, sizeof(int64_t), &j);
        run(step, 1, steps_global, local);
      }
      mode = k == P ? 1 | 4 : 1;  // merge; last
      clSetKernelArg(block, 8, sizeof(int32_t), &mode);
      run(block, 1, blocks_global, local);
    }
    read(mo, out.data(), out.size() * 8);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], order[i]) << "place " << i;
  }
}

}  // namespace
