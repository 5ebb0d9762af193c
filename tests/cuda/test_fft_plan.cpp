// The pure host logic of the cuda backend's cuFFT glue, without a GPU: the passes and cuFFT
// advanced layouts (istride, idist, embed) of fft_c2c, fft_r2c and fft_c2r over kernforge dims
// and the decision to move a dim last by a copy (fft_layout.hpp, Note [FFT passes on cuFFT]);
// the plan cache's key and its LRU eviction (fft_layout.hpp, lru_cache.hpp).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "fft_layout.hpp"
#include "kernforge/types.h"
#include "lru_cache.hpp"

namespace {

using kf::cuda::FftKind;
using kf::cuda::FftPass;
using kf::cuda::plan_fft;

TEST(FftLayout, TrailingDimsAreOnePlan) {
  const std::vector<FftPass> p = plan_fft(FftKind::kC2C, {4, 6, 8}, {4, 6, 8}, {2, 1});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].rank, 2);
  EXPECT_EQ(p[0].n[0], 6);
  EXPECT_EQ(p[0].n[1], 8);
  EXPECT_EQ(p[0].istride, 1);
  EXPECT_EQ(p[0].idist, 48);
  EXPECT_EQ(p[0].odist, 48);
  EXPECT_EQ(p[0].batch, 4);
  EXPECT_EQ(p[0].loops, 1);
}

TEST(FftLayout, RealToComplexHalvesTheLastDimInOnePlan) {
  const std::vector<FftPass> p = plan_fft(FftKind::kR2C, {3, 5, 10}, {3, 5, 6}, {1, 2});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].rank, 2);
  EXPECT_EQ(p[0].n[1], 10);
  EXPECT_EQ(p[0].inembed[1], 10);
  EXPECT_EQ(p[0].onembed[1], 6);
  EXPECT_EQ(p[0].idist, 50);
  EXPECT_EQ(p[0].odist, 30);
  EXPECT_EQ(p[0].batch, 3);
}

TEST(FftLayout, ComplexToRealOverSeveralDimsRunsItsC2cPassesFirst) {
  // c2r of [3, 5, 6] to last_dim_size 10 over dims (1, 2): a c2c pass over dim 1, then c2r
  // over dim 2 (n = 10 real outputs from 6 bins).
  const std::vector<FftPass> p = plan_fft(FftKind::kC2R, {3, 5, 6}, {3, 5, 10}, {1, 2});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].kind, FftKind::kC2C);
  EXPECT_EQ(p[0].axis, 1);
  EXPECT_EQ(p[0].n[0], 5);
  EXPECT_EQ(p[1].kind, FftKind::kC2R);
  EXPECT_EQ(p[1].n[0], 10);
  EXPECT_EQ(p[1].idist, 6);
  EXPECT_EQ(p[1].odist, 10);
  EXPECT_EQ(p[1].batch, 15);
  // One dim: one plan.
  EXPECT_EQ(plan_fft(FftKind::kC2R, {3, 6}, {3, 11}, {1}).size(), 1u);
}

TEST(FftLayout, AnInnerDimBatchesOverTheLargerSideAndLoopsOverTheSmaller) {
  // dim 1 of [2, 7, 100]: sequences 100 apart; batch over inner (100), loop over outer (2).
  FftPass p = kf::cuda::axis_pass(FftKind::kC2C, {2, 7, 100}, {2, 7, 100}, 1);
  EXPECT_FALSE(p.move_last);
  EXPECT_EQ(p.n[0], 7);
  EXPECT_EQ(p.istride, 100);
  EXPECT_EQ(p.idist, 1);
  EXPECT_EQ(p.batch, 100);
  EXPECT_EQ(p.loops, 2);
  EXPECT_EQ(p.in_step, 700);
  // dim 1 of [100, 7, 2]: batch over outer (dist 14), loop over inner (2).
  p = kf::cuda::axis_pass(FftKind::kC2C, {100, 7, 2}, {100, 7, 2}, 1);
  EXPECT_EQ(p.istride, 2);
  EXPECT_EQ(p.idist, 14);
  EXPECT_EQ(p.batch, 100);
  EXPECT_EQ(p.loops, 2);
  EXPECT_EQ(p.in_step, 1);
}

TEST(FftLayout, ManyLoopsMoveTheDimLastInstead) {
  const FftPass p = kf::cuda::axis_pass(FftKind::kC2C, {100, 7, 100}, {100, 7, 100}, 1);
  EXPECT_TRUE(p.move_last);
  EXPECT_EQ(p.batch, 10000);
  EXPECT_EQ(p.istride, 1);
  EXPECT_EQ(p.idist, 7);
  EXPECT_EQ(p.loops, 1);
  std::vector<int64_t> moved, strides;
  kf::cuda::moved_last({100, 7, 100}, 1, moved, strides);
  EXPECT_EQ(moved, (std::vector<int64_t>{100, 100, 7}));
  EXPECT_EQ(strides, (std::vector<int64_t>{700, 1, 100}));
}

TEST(FftLayout, NonTrailingDimsGoOneAtATimeInTheOpsOrder) {
  const std::vector<FftPass> p = plan_fft(FftKind::kC2C, {4, 6, 8}, {4, 6, 8}, {1, 0});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].axis, 1);
  EXPECT_EQ(p[1].axis, 0);
  // r2c over a dim that is not the last: its halving pass first, then c2c over the others.
  const std::vector<FftPass> r = plan_fft(FftKind::kR2C, {4, 6, 8}, {4, 4, 8}, {2, 1});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kind, FftKind::kR2C);
  EXPECT_EQ(r[0].axis, 1);
  EXPECT_EQ(r[0].n[0], 6);
  EXPECT_EQ(r[0].onembed[0], 4);
  EXPECT_EQ(r[1].kind, FftKind::kC2C);
  EXPECT_EQ(r[1].axis, 2);
}

TEST(FftLayout, NoElementNoPass) {
  EXPECT_TRUE(plan_fft(FftKind::kC2C, {0, 8}, {0, 8}, {1}).empty());
  EXPECT_TRUE(plan_fft(FftKind::kR2C, {3, 0}, {3, 1}, {1}).empty());
}

TEST(FftPlanKey, SplitsOnWhatAPlanDependsOn) {
  const FftPass a = kf::cuda::axis_pass(FftKind::kC2C, {4, 8}, {4, 8}, 1);
  const kf::cuda::FftPlanKey k = kf::cuda::plan_key(0, KF_COMPLEX64, a);
  EXPECT_EQ(k, kf::cuda::plan_key(0, KF_COMPLEX64, a));
  EXPECT_EQ(kf::cuda::FftPlanKeyHash{}(k), kf::cuda::FftPlanKeyHash{}(k));
  EXPECT_FALSE(k == kf::cuda::plan_key(1, KF_COMPLEX64, a));   // device
  EXPECT_FALSE(k == kf::cuda::plan_key(0, KF_COMPLEX128, a));  // dtype
  FftPass b = a;
  b.batch = 5;
  EXPECT_FALSE(k == kf::cuda::plan_key(0, KF_COMPLEX64, b));
  b = a;
  b.istride = 2;
  EXPECT_FALSE(k == kf::cuda::plan_key(0, KF_COMPLEX64, b));
  b = a;
  b.kind = FftKind::kR2C;
  EXPECT_FALSE(k == kf::cuda::plan_key(0, KF_COMPLEX64, b));
  b = a;
  b.n[2] = 99;  // beyond the rank: not part of the plan
  b.loops = 7;  // executions reuse the plan
  EXPECT_EQ(k, kf::cuda::plan_key(0, KF_COMPLEX64, b));
}

struct Counted {
  int* alive;
  explicit Counted(int* a) : alive(a) { ++*alive; }
  ~Counted() { --*alive; }
};

struct IntHash {
  size_t operator()(int v) const { return std::hash<int>{}(v); }
};

TEST(LruCache, EvictsTheLeastRecentlyUsed) {
  int alive = 0;
  kf::cuda::LruCache<int, Counted, IntHash> cache(2);
  cache.insert(1, std::make_shared<Counted>(&alive));
  cache.insert(2, std::make_shared<Counted>(&alive));
  ASSERT_NE(cache.find(1), nullptr);  // 1 is now the most recent
  cache.insert(3, std::make_shared<Counted>(&alive));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(alive, 2);  // 2 went
  EXPECT_EQ(cache.find(2), nullptr);
  EXPECT_NE(cache.find(1), nullptr);
  EXPECT_NE(cache.find(3), nullptr);
}

TEST(LruCache, AnEntryInUseOutlivesItsEviction) {
  int alive = 0;
  kf::cuda::LruCache<int, Counted, IntHash> cache(1);
  std::shared_ptr<Counted> held = cache.insert(1, std::make_shared<Counted>(&alive));
  cache.insert(2, std::make_shared<Counted>(&alive));
  EXPECT_EQ(alive, 2);  // 1 evicted but still held
  held.reset();
  EXPECT_EQ(alive, 1);
}

TEST(LruCache, ASecondInsertKeepsTheFirstAndABoundOfZeroKeepsNothing) {
  int alive = 0;
  kf::cuda::LruCache<int, Counted, IntHash> cache(4);
  const auto first = cache.insert(1, std::make_shared<Counted>(&alive));
  const auto again = cache.insert(1, std::make_shared<Counted>(&alive));
  EXPECT_EQ(first, again);
  EXPECT_EQ(alive, 1);
  cache.set_capacity(0);
  EXPECT_EQ(cache.size(), 0u);
  const auto unkept = cache.insert(5, std::make_shared<Counted>(&alive));
  EXPECT_NE(unkept, nullptr);  // the caller still gets it
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
