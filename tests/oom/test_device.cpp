// The sweep on a device that is not the CPU (the oomdev plugin): its device allocations fail
// through its allocate slot (Kind::Device), and the host allocations of the same calls fail too
// (Kind::Host): tensor creation, copies between the device and the host, a kernel of the
// device, the CPU fallback (inputs copied to the CPU, the result copied back) and an op the
// plugin defines.
//
// One failed device allocation is absorbed: the caching allocator gives its cached blocks back
// and asks again (KF_OK). Device memory that stays exhausted gives KF_OUT_OF_MEMORY.
#include <gtest/gtest.h>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

class Device : public ::testing::Test {
 protected:
  void SetUp() override {
    g_runtime_started_here = true;
    ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
    if (records_named("oomdev") == 0) {  // once per process
      ASSERT_EQ(kf_load_plugin(oomdev_manifest()), KF_OK) << kf_last_error_message();
    }
    std::string problem;
    a_ = make_f32({3}, {1, 2, 3}, oomdev(), problem);
    ASSERT_NE(a_, nullptr) << problem;
    b_ = make_f32({3}, {10, 20, 30}, oomdev(), problem);
    ASSERT_NE(b_, nullptr) << problem;
    h_ = make_f32({3}, {4, 5, 6}, kCpu, problem);
    ASSERT_NE(h_, nullptr) << problem;
  }
  void TearDown() override {
    kf_tensor_release(a_);
    kf_tensor_release(b_);
    kf_tensor_release(h_);
  }

  // Sweeps `make` with device allocations failing (once, then from N on) and with host
  // allocations failing. `on_device`: the call allocates on oomdev (not a copy to the host).
  void sweep_all(const std::string& name, const std::function<kf_status_t(kf_tensor_t*)>& make,
                 const std::vector<float>& want, bool on_device = true) {
    expect_clean(sweep(one_result(name + ", device", Kind::Device, Mode::Once, make, want)),
                 !on_device);
    expect_clean(sweep(one_result(name + ", device from N on", Kind::Device, Mode::FromThenOn,
                                  make, want)), !on_device);
    expect_clean(sweep(one_result(name + ", host", Kind::Host, Mode::Once, make, want)));
  }

  kf_tensor_t a_ = nullptr;  // [1, 2, 3] on oomdev
  kf_tensor_t b_ = nullptr;  // [10, 20, 30] on oomdev
  kf_tensor_t h_ = nullptr;  // [4, 5, 6] on the CPU
};

TEST_F(Device, Empty) {
  sweep_all("kf_tensor_empty(oomdev)", [](kf_tensor_t* out) {
    const int64_t shape[] = {5};
    return kf_tensor_empty(shape, 1, KF_FLOAT32, oomdev(), out);
  }, {});
}

TEST_F(Device, FromData) {
  sweep_all("kf_tensor_from_data(oomdev)", [](kf_tensor_t* out) {
    const int64_t shape[] = {2};
    const float values[] = {7, 8};
    return kf_tensor_from_data(values, shape, 1, KF_FLOAT32, oomdev(), out);
  }, {7, 8});
}

TEST_F(Device, HostToDevice) {
  kf_tensor_t h = h_;
  sweep_all("kf_tensor_to(cpu -> oomdev)", [h](kf_tensor_t* out) {
    return kf_tensor_to(h, oomdev(), KF_DTYPE_UNDEFINED, out);
  }, {4, 5, 6});
}

TEST_F(Device, DeviceToHost) {
  kf_tensor_t a = a_;
  sweep_all("kf_tensor_to(oomdev -> cpu)", [a](kf_tensor_t* out) {
    return kf_tensor_to(a, kCpu, KF_DTYPE_UNDEFINED, out);
  }, {1, 2, 3}, /*on_device=*/false);
}

TEST_F(Device, Kernel) {
  kf_tensor_t a = a_, b = b_;
  sweep_all("kf_add(oomdev)", [a, b](kf_tensor_t* out) {
    return kf_add(a, b, kf_scalar_f64(1.0), out);
  }, {11, 22, 33});
}

TEST_F(Device, CpuFallback) {
  kf_tensor_t a = a_, b = b_;
  sweep_all("kf_mul(oomdev, CPU fallback)", [a, b](kf_tensor_t* out) {
    return kf_mul(a, b, out);
  }, {10, 40, 90});
}

TEST_F(Device, DefinedOp) {
  kf_tensor_t a = a_;
  sweep_all("oomdev::twice", [a](kf_tensor_t* out) {
    kf_op_t op = nullptr;
    if (kf_status_t s = kf_op_find("oomdev::twice", &op); s != KF_OK) return s;
    const kf_value_t arg = kf_value_tensor(a);
    kf_value_t result = kf_value_none();
    const kf_status_t s = kf_op_call(op, &arg, 1, &result, 1);
    if (s == KF_OK) *out = result.v.tensor;
    return s;
  }, {2, 4, 6});
}

}  // namespace
}  // namespace oomtest
