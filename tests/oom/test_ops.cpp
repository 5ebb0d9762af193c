// The sweep through ops on the CPU after start-up: the first call of each op in a process (no
// call plan yet, fresh thread-local tables), with a new output, with out=, in place, boxed
// (kf_op_call), with broadcasting and with a dtype conversion; then the warm path, which must
// not allocate at all.
#include <gtest/gtest.h>

#include "phase_util.hpp"
#include "sweep.hpp"

namespace oomtest {
namespace {

class Ops : public ::testing::Test {
 protected:
  void SetUp() override {
    g_runtime_started_here = true;
    map_cpu_plugin_libraries();
    ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
    a_ = make({2, 3}, {0, 1, 2, 3, 4, 5});
    b_ = make({2, 3}, {10, 20, 30, 40, 50, 60});
  }
  void TearDown() override {
    kf_tensor_release(a_);
    kf_tensor_release(b_);
  }

  kf_tensor_t make(const std::vector<int64_t>& shape, const std::vector<float>& values) {
    std::string problem;
    kf_tensor_t t = make_f32(shape, values, kCpu, problem);
    EXPECT_NE(t, nullptr) << problem;
    return t;
  }

  void sweep_one(const char* name, std::function<kf_status_t(kf_tensor_t*)> make,
                 std::vector<float> want, Mode mode = Mode::Once) {
    expect_clean(sweep(one_result(name, Kind::Host, mode, std::move(make), std::move(want))));
  }

  // A phase that writes into `target` (out= or in place); after a failure it runs again.
  // `target` must then hold `want`. Such calls may allocate nothing at all (the output exists).
  void sweep_into(const char* name, kf_tensor_t target, std::function<kf_status_t()> call,
                  std::vector<float> want, Mode mode = Mode::Once) {
    Phase p;
    p.name = name;
    p.mode = mode;
    p.action = call;
    p.verify = [call, target, want](const Attempt& a) -> std::string {
      if (a.status != KF_OK) {
        if (std::string p = ok_or(call(), "the call again"); !p.empty()) return p;
      }
      return check_values(target, want);
    };
    expect_clean(sweep(p), /*may_allocate_nothing=*/true);
  }

  kf_tensor_t a_ = nullptr;  // [[0, 1, 2], [3, 4, 5]]
  kf_tensor_t b_ = nullptr;  // [[10, 20, 30], [40, 50, 60]]
};

const std::vector<float> kSum = {10, 21, 32, 43, 54, 65};

TEST_F(Ops, Add) {
  kf_tensor_t a = a_, b = b_;
  sweep_one("kf_add", [a, b](kf_tensor_t* out) {
    return kf_add(a, b, kf_scalar_f64(1.0), out);
  }, kSum);
}

TEST_F(Ops, AddMemoryStaysExhausted) {
  kf_tensor_t a = a_, b = b_;
  sweep_one("kf_add, from N on", [a, b](kf_tensor_t* out) {
    return kf_add(a, b, kf_scalar_f64(1.0), out);
  }, kSum, Mode::FromThenOn);
}

TEST_F(Ops, AddOut) {
  kf_tensor_t a = a_, b = b_, out = make({2, 3}, {0, 0, 0, 0, 0, 0});
  sweep_into("kf_add_out", out, [a, b, out] {
    return kf_add_out(a, b, kf_scalar_f64(1.0), out);
  }, kSum);
  kf_tensor_release(out);
}

// In place: a failed call must not have changed the tensor (the retry then adds once).
TEST_F(Ops, AddInPlace) {
  kf_tensor_t b = b_, t = make({2, 3}, {0, 1, 2, 3, 4, 5});
  sweep_into("kf_add_", t, [t, b] { return kf_add_(t, b, kf_scalar_f64(1.0)); }, kSum);
  kf_tensor_release(t);
}

TEST_F(Ops, AddBroadcastAndPromote) {
  kf_tensor_t a = a_;
  kf_tensor_t row = nullptr;
  const int64_t shape[] = {3};
  const double values[] = {100, 200, 300};
  ASSERT_EQ(kf_tensor_from_data(values, shape, 1, KF_FLOAT64, kCpu, &row), KF_OK)
      << kf_last_error_message();
  // The result is float64 (not read back here: check_values reads float32).
  Phase p = one_result("kf_add(float32 [2,3], float64 [3])", Kind::Host, Mode::Once,
                       [a, row](kf_tensor_t* out) {
    return kf_add(a, row, kf_scalar_f64(1.0), out);
  }, {});
  expect_clean(sweep(p));
  kf_tensor_release(row);
}

TEST_F(Ops, Matmul) {
  kf_tensor_t a = a_;
  kf_tensor_t bt = make({3, 2}, {1, 0, 0, 1, 1, 1});
  sweep_one("kf_matmul", [a, bt](kf_tensor_t* out) { return kf_matmul(a, bt, out); },
            {2, 3, 8, 9});
  kf_tensor_release(bt);
}

TEST_F(Ops, Sum) {
  kf_tensor_t a = a_;
  sweep_one("kf_sum(dim=1)", [a](kf_tensor_t* out) {
    const int64_t dim[] = {1};
    return kf_sum(a, dim, 1, false, KF_DTYPE_UNDEFINED, out);
  }, {3, 12});
}

TEST_F(Ops, Copy) {
  kf_tensor_t dst = make({2, 3}, {9, 9, 9, 9, 9, 9});
  kf_tensor_t at = nullptr;
  ASSERT_EQ(kf_transpose(dst, 0, 1, &at), KF_OK) << kf_last_error_message();
  // A strided destination: a copy that is not one memmove.
  kf_tensor_t src = make({3, 2}, {0, 3, 1, 4, 2, 5});
  sweep_into("kf_copy_ (strided)", dst, [at, src] { return kf_copy_(at, src); },
             {0, 1, 2, 3, 4, 5});
  kf_tensor_release(src);
  kf_tensor_release(at);
  kf_tensor_release(dst);
}

TEST_F(Ops, Boxed) {
  kf_tensor_t a = a_, b = b_;
  sweep_one("kf_op_call(add)", [a, b](kf_tensor_t* out) {
    kf_op_t op = nullptr;
    if (kf_status_t s = kf_op_find("add", &op); s != KF_OK) return s;
    const kf_value_t args[2] = {kf_value_tensor(a), kf_value_tensor(b)};
    kf_value_t result = kf_value_none();
    const kf_status_t s = kf_op_call(op, args, 2, &result, 1);
    if (s == KF_OK) *out = result.v.tensor;
    return s;
  }, kSum);
}

// After one call the same call takes the planned path with its output from the cache and its
// tensor objects from the pool: no heap allocation at all.
TEST_F(Ops, WarmAddDoesNotAllocate) {
  kf_tensor_t out = nullptr;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(kf_add(a_, b_, kf_scalar_f64(1.0), &out), KF_OK) << kf_last_error_message();
    ASSERT_EQ(kf_tensor_release(out), KF_OK);
  }
  const Attempt warm = attempt(Kind::Host, 0, Mode::Once, [&] {
    return kf_add(a_, b_, kf_scalar_f64(1.0), &out);
  });
  EXPECT_EQ(warm.status, KF_OK) << warm.message;
  EXPECT_EQ(warm.count, 0) << "the warm path of kf_add allocates";
  kf_tensor_release(out);
}

}  // namespace
}  // namespace oomtest
