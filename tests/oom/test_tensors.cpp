// The sweep through tensor creation on the CPU after start-up: kf_tensor_empty, from_data,
// from_blob, zeros, conversions and views. Each allocation point fails in a fresh child (pools
// and the caching allocator start as the test process left them, so the first tensor of a
// size class goes to the plugin's allocate, which the hook sees too).
#include <gtest/gtest.h>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

const std::vector<float> k06 = {0, 1, 2, 3, 4, 5};

class Tensors : public ::testing::Test {
 protected:
  void SetUp() override {
    g_runtime_started_here = true;
    ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
    std::string problem;
    x_ = make_f32({2, 3}, k06, kCpu, problem);
    ASSERT_NE(x_, nullptr) << problem;
  }
  void TearDown() override { kf_tensor_release(x_); }

  void sweep_one(const char* name, std::function<kf_status_t(kf_tensor_t*)> make,
                 std::vector<float> want, Mode mode = Mode::Once) {
    expect_clean(sweep(one_result(name, Kind::Host, mode, std::move(make), std::move(want))));
  }

  // A view: its handle comes from the handle table, whose slots are made in chunks, so a view
  // usually allocates nothing; when it does (a new chunk), the sweep fails that allocation.
  void sweep_view(const char* name, std::function<kf_status_t(kf_tensor_t*)> make,
                  std::vector<float> want) {
    expect_clean(sweep(one_result(name, Kind::Host, Mode::Once, std::move(make),
                                  std::move(want))),
                 /*may_allocate_nothing=*/true);
  }

  kf_tensor_t x_ = nullptr;  // [[0, 1, 2], [3, 4, 5]]
};

const int64_t kShape23[] = {2, 3};

TEST_F(Tensors, Empty) {
  sweep_one("kf_tensor_empty", [](kf_tensor_t* out) {
    return kf_tensor_empty(kShape23, 2, KF_FLOAT32, kCpu, out);
  }, {});
}

TEST_F(Tensors, EmptyMemoryStaysExhausted) {
  sweep_one("kf_tensor_empty, from N on", [](kf_tensor_t* out) {
    return kf_tensor_empty(kShape23, 2, KF_FLOAT32, kCpu, out);
  }, {}, Mode::FromThenOn);
}

TEST_F(Tensors, FromData) {
  sweep_one("kf_tensor_from_data", [](kf_tensor_t* out) {
    return kf_tensor_from_data(k06.data(), kShape23, 2, KF_FLOAT32, kCpu, out);
  }, k06);
}

// A tensor over the caller's memory: when the call fails, the caller still owns the memory (the
// deleter is not called); when it succeeds, the deleter runs once, at the last release.
TEST_F(Tensors, FromBlob) {
  static float blob[6] = {0, 1, 2, 3, 4, 5};
  static int deleted = 0;
  const kf_deleter_t deleter = [](void*, void*) { ++deleted; };
  Phase p = one_result("kf_tensor_from_blob", Kind::Host, Mode::Once, [deleter](kf_tensor_t* out) {
    return kf_tensor_from_blob(blob, kShape23, nullptr, 2, KF_FLOAT32, kCpu, deleter, nullptr,
                               out);
  }, k06);
  const auto check_tensor = p.verify;
  p.verify = [check_tensor](const Attempt& a) -> std::string {
    if (a.status != KF_OK && deleted != 0) return "the deleter ran although the call failed";
    if (std::string problem = check_tensor(a); !problem.empty()) return problem;
    return deleted == 1 ? "" : "the deleter ran " + std::to_string(deleted) + " times, not once";
  };
  expect_clean(sweep(p));
}

TEST_F(Tensors, Zeros) {
  sweep_one("kf_zeros", [](kf_tensor_t* out) {
    return kf_zeros(kShape23, 2, KF_FLOAT32, kCpu, out);
  }, {0, 0, 0, 0, 0, 0});
}

TEST_F(Tensors, ToFloat64AndBack) {
  kf_tensor_t x = x_;
  sweep_one("kf_tensor_to(float64)", [x](kf_tensor_t* out) {
    return kf_tensor_to(x, kCpu, KF_FLOAT64, out);
  }, {});
}

TEST_F(Tensors, Reshape) {
  kf_tensor_t x = x_;
  sweep_view("kf_reshape", [x](kf_tensor_t* out) {
    const int64_t shape[] = {3, 2};
    return kf_reshape(x, shape, 2, out);
  }, k06);
}

TEST_F(Tensors, Transpose) {
  kf_tensor_t x = x_;
  sweep_view("kf_transpose", [x](kf_tensor_t* out) { return kf_transpose(x, 0, 1, out); },
            {0, 3, 1, 4, 2, 5});
}

TEST_F(Tensors, Slice) {
  kf_tensor_t x = x_;
  sweep_view("kf_slice", [x](kf_tensor_t* out) {
    const int64_t start = 1, end = 3;
    return kf_slice(x, 1, &start, &end, 1, out);
  }, {1, 2, 4, 5});
}

TEST_F(Tensors, Expand) {
  std::string problem;
  kf_tensor_t row = make_f32({1, 3}, {7, 8, 9}, kCpu, problem);
  ASSERT_NE(row, nullptr) << problem;
  sweep_view("kf_expand", [row](kf_tensor_t* out) {
    const int64_t size[] = {2, 3};
    return kf_expand(row, size, 2, out);
  }, {7, 8, 9, 7, 8, 9});
  kf_tensor_release(row);
}

}  // namespace
}  // namespace oomtest
