// Post-accumulate-grad hooks through the C ABI (2.9): when they run and what they see, their
// release, a hook's failure, and bad input (Note [Post-accumulate-grad hooks]).
#include <thread>
#include <vector>

#include "abi_util.hpp"
#include "kernforge/kernforge_ops.h"

namespace kfabi {
namespace {

struct Owned {
  kf_tensor_t h = nullptr;
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (h != nullptr) kf_tensor_release(h);
  }
};

void make_leaf(Owned& t, const std::vector<double>& v, bool grad = true) {
  const int64_t shape[] = {static_cast<int64_t>(v.size())};
  ASSERT_EQ(kf_tensor_from_data(v.data(), shape, 1, KF_FLOAT64, kf_device_cpu(), &t.h), KF_OK)
      << kf_last_error_message();
  if (grad) {
    ASSERT_EQ(kf_tensor_set_requires_grad(t.h, true), KF_OK);
  }
}

std::vector<double> grad_values(kf_tensor_t t) {
  Owned g;
  EXPECT_EQ(kf_tensor_grad(t, &g.h), KF_OK);
  if (g.h == nullptr) return {};
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(g.h, &n), KF_OK);
  std::vector<double> out(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(g.h, out.data(), out.size() * sizeof(double)), KF_OK);
  return out;
}

// sum(x * x) and its backward (.grad += 2x).
kf_status_t square_backward(kf_tensor_t x) {
  Owned y, s;
  kf_status_t st = kf_mul(x, x, &y.h);
  if (st == KF_OK) st = kf_sum(y.h, nullptr, 0, false, KF_DTYPE_UNDEFINED, &s.h);
  if (st == KF_OK) st = kf_backward(&s.h, nullptr, 1, false, false);
  return st;
}

struct Seen {
  std::vector<std::vector<double>> grads;  // .grad as each call saw it
  std::vector<int> order;                  // which hook ran, in order
  std::thread::id thread;
  bool grad_mode = true;
  kf_tensor_t leaf = nullptr;
  int released = 0;
};

struct Hook {
  Seen* seen;
  int tag;
};

kf_status_t record(kf_tensor_t leaf, void* user_data) {
  auto* h = static_cast<Hook*>(user_data);
  h->seen->grads.push_back(grad_values(leaf));
  h->seen->order.push_back(h->tag);
  h->seen->thread = std::this_thread::get_id();
  kf_is_grad_enabled(&h->seen->grad_mode);
  h->seen->leaf = leaf;
  return KF_OK;
}

void count_release(void* user_data) { ++static_cast<Hook*>(user_data)->seen->released; }

TEST(AbiPostAccumulateHooks, RunAfterEachAccumulationInOrderOnTheBackwardThread) {
  Owned x;
  make_leaf(x, {1.0, 2.0});
  Seen seen;
  Hook first{&seen, 1}, second{&seen, 2};
  uint64_t h1 = 0, h2 = 0;
  ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, record, &first, count_release, &h1),
            KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, record, &second, nullptr, &h2),
            KF_OK);
  EXPECT_NE(h1, h2);
  ASSERT_EQ(square_backward(x.h), KF_OK) << kf_last_error_message();
  EXPECT_EQ(seen.order, (std::vector<int>{1, 2}));
  EXPECT_EQ(seen.grads[0], (std::vector<double>{2.0, 4.0}));  // .grad already accumulated
  EXPECT_EQ(seen.thread, std::this_thread::get_id());
  EXPECT_FALSE(seen.grad_mode);
  EXPECT_EQ(seen.leaf, x.h);  // the leaf's own handle
  ASSERT_EQ(square_backward(x.h), KF_OK);
  EXPECT_EQ(seen.grads.back(), (std::vector<double>{4.0, 8.0}));  // the second accumulation
  // grad() accumulates nothing and calls no hook.
  Owned y, s, g;
  ASSERT_EQ(kf_mul(x.h, x.h, &y.h), KF_OK);
  ASSERT_EQ(kf_sum(y.h, nullptr, 0, false, KF_DTYPE_UNDEFINED, &s.h), KF_OK);
  ASSERT_EQ(kf_autograd_grad(&s.h, nullptr, 1, &x.h, 1, false, false, false, &g.h), KF_OK);
  EXPECT_EQ(seen.order.size(), 4u);
  // Removed: called no more, released once.
  ASSERT_EQ(kf_tensor_remove_post_accumulate_grad_hook(x.h, h1), KF_OK);
  EXPECT_EQ(seen.released, 1);
  ASSERT_EQ(square_backward(x.h), KF_OK);
  EXPECT_EQ(seen.order, (std::vector<int>{1, 2, 1, 2, 2}));
}

TEST(AbiPostAccumulateHooks, AFreedLeafReleasesItsHooks) {
  Seen seen;
  Hook hook{&seen, 1};
  {
    Owned x;
    make_leaf(x, {3.0});
    uint64_t h = 0;
    ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, record, &hook, count_release, &h),
              KF_OK);
    ASSERT_EQ(square_backward(x.h), KF_OK);
    EXPECT_EQ(seen.released, 0);
  }
  EXPECT_EQ(seen.released, 1);
}

struct SelfRemoving {
  kf_tensor_t leaf;
  uint64_t handle;
  int calls = 0;
  int released = 0;
};

kf_status_t remove_self(kf_tensor_t leaf, void* user_data) {
  auto* s = static_cast<SelfRemoving*>(user_data);
  ++s->calls;
  return kf_tensor_remove_post_accumulate_grad_hook(leaf, s->handle);
}

void count_self_release(void* user_data) { ++static_cast<SelfRemoving*>(user_data)->released; }

TEST(AbiPostAccumulateHooks, AHookMayRemoveItself) {
  Owned x;
  make_leaf(x, {1.0});
  SelfRemoving s{x.h, 0};
  ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, remove_self, &s,
                                                         count_self_release, &s.handle), KF_OK);
  ASSERT_EQ(square_backward(x.h), KF_OK) << kf_last_error_message();
  ASSERT_EQ(square_backward(x.h), KF_OK);
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(s.released, 1);
}

kf_status_t fail_hook(kf_tensor_t /*leaf*/, void* /*user_data*/) {
  kf_tensor_t out = nullptr;
  return kf_tensor_grad(nullptr, &out);  // a failing call sets the message
}

kf_status_t fail_silently(kf_tensor_t /*leaf*/, void* /*user_data*/) { return KF_UNAVAILABLE; }

TEST(AbiPostAccumulateHooks, AFailingHookStopsBackwardWithItsStatusAndMessage) {
  Owned x;
  make_leaf(x, {1.0, 2.0});
  uint64_t h = 0;
  ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, fail_hook, nullptr, nullptr, &h),
            KF_OK);
  EXPECT_TRUE(fails_with(square_backward(x.h), KF_INVALID_ARGUMENT,
                         {{"post-accumulate-grad hook", "kf_tensor_grad", "float64"}, {}}));
  EXPECT_EQ(grad_values(x.h), (std::vector<double>{2.0, 4.0}));  // accumulated before the hook
  ASSERT_EQ(kf_tensor_remove_post_accumulate_grad_hook(x.h, h), KF_OK);
  ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, fail_silently, nullptr, nullptr,
                                                         &h), KF_OK);
  EXPECT_TRUE(fails_with(square_backward(x.h), KF_UNAVAILABLE,
                         {{"post-accumulate-grad hook", "no message"}, {}}));
}

TEST(AbiPostAccumulateHooks, BadInputIsAClearError) {
  Owned x, other, plain, y;
  make_leaf(x, {1.0});
  make_leaf(other, {1.0});
  make_leaf(plain, {1.0}, false);
  ASSERT_EQ(kf_mul(x.h, x.h, &y.h), KF_OK);
  Seen seen;
  Hook hook{&seen, 1};
  uint64_t h = 0;
  const char* reg = "kf_tensor_register_post_accumulate_grad_hook";
  EXPECT_TRUE(fails_with(kf_tensor_register_post_accumulate_grad_hook(nullptr, record, &hook,
                                                                      count_release, &h),
                         KF_INVALID_ARGUMENT, {{reg}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_register_post_accumulate_grad_hook(x.h, nullptr, &hook,
                                                                      count_release, &h),
                         KF_INVALID_ARGUMENT, {{reg, "fn"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_register_post_accumulate_grad_hook(x.h, record, &hook,
                                                                      count_release, nullptr),
                         KF_INVALID_ARGUMENT, {{reg, "out_handle"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_register_post_accumulate_grad_hook(y.h, record, &hook,
                                                                      count_release, &h),
                         KF_INVALID_ARGUMENT, {{"not a leaf", "mul"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_register_post_accumulate_grad_hook(plain.h, record, &hook,
                                                                      count_release, &h),
                         KF_INVALID_ARGUMENT, {{"does not require grad"}, {}}));
  EXPECT_EQ(seen.released, 0);  // a refused registration keeps nothing
  ASSERT_EQ(kf_tensor_register_post_accumulate_grad_hook(x.h, record, &hook, count_release, &h),
            KF_OK);
  const char* rm = "kf_tensor_remove_post_accumulate_grad_hook";
  EXPECT_TRUE(fails_with(kf_tensor_remove_post_accumulate_grad_hook(nullptr, h),
                         KF_INVALID_ARGUMENT, {{rm}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_remove_post_accumulate_grad_hook(other.h, h), KF_NOT_FOUND,
                         {{rm, "no hook"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_remove_post_accumulate_grad_hook(plain.h, h), KF_NOT_FOUND,
                         {{rm}, {}}));
  ASSERT_EQ(kf_tensor_remove_post_accumulate_grad_hook(x.h, h), KF_OK);
  EXPECT_TRUE(fails_with(kf_tensor_remove_post_accumulate_grad_hook(x.h, h), KF_NOT_FOUND,
                         {{"removed already"}, {}}));
  EXPECT_EQ(seen.released, 1);
}

}  // namespace
}  // namespace kfabi
