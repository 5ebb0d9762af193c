// The handle table (Note [Handles]): a handle decodes to its object until the object's release,
// never afterwards, even once its slot holds a new object; no handle value is given out twice,
// also across threads and when a slot's generations run out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/handle_table.hpp"

namespace {

struct Thing {
  static constexpr const char* kHandleKind = "thing";
  int value = 0;
};
using Table = kf::HandleTable<Thing, 6, 20>;
using kf::HandleState;

uint32_t slot_of(uint64_t h) { return static_cast<uint32_t>(h); }

TEST(HandleTable, NewHandlesDecodeToTheirObjects) {
  Thing* a = Table::acquire();
  Thing* b = Table::acquire();
  a->value = 1;
  b->value = 2;
  const uint64_t ha = Table::handle_of(a), hb = Table::handle_of(b);
  EXPECT_NE(ha, 0u);
  EXPECT_NE(hb, 0u);
  EXPECT_NE(ha, hb);
  EXPECT_EQ(Table::find(ha), a);
  EXPECT_EQ(Table::find(hb), b);
  EXPECT_EQ(Table::state(ha), HandleState::Live);
  Table::release(a);
  Table::release(b);
}

TEST(HandleTable, AReleasedHandleNeverDecodesAgainOnceItsSlotIsReused) {
  std::vector<uint64_t> stale;
  Thing* t = Table::acquire();
  for (int i = 0; i < 1000; ++i) {
    const uint64_t h = Table::handle_of(t);
    Table::release(t);
    EXPECT_EQ(Table::find(h), nullptr);
    EXPECT_EQ(Table::state(h), HandleState::Released);
    stale.push_back(h);
    t = Table::acquire();
    ASSERT_EQ(slot_of(Table::handle_of(t)), slot_of(h)) << "the freed slot is reused first";
    EXPECT_NE(Table::handle_of(t), h);
    EXPECT_EQ(Table::find(h), nullptr) << "a stale handle decoded to the slot's new object";
  }
  for (uint64_t h : stale) EXPECT_EQ(Table::state(h), HandleState::Released);
  EXPECT_EQ(Table::find(Table::handle_of(t)), t);
  Table::release(t);
}

TEST(HandleTable, NullAndMadeUpValuesAreRefused) {
  EXPECT_EQ(Table::find(0), nullptr);
  EXPECT_EQ(Table::state(0), HandleState::Null);
  Thing* t = Table::acquire();
  const uint64_t h = Table::handle_of(t);
  const uint64_t made_up[] = {
      h + (uint64_t{1} << 32),          // a generation not given out yet
      h | (uint64_t{1} << 31),          // the free bit
      (h & ~uint64_t{0xffffffff}) | 0xfffff,  // an index never made
      0xdeadbeefcafef00dull, ~uint64_t{0}};
  for (uint64_t m : made_up) {
    EXPECT_EQ(Table::find(m), nullptr) << std::hex << m;
    EXPECT_EQ(Table::state(m), HandleState::Foreign) << std::hex << m;
  }
  EXPECT_EQ(Table::find(h), t);
  Table::release(t);
}

// Slots that start at the last generations: after two lives the slot retires.
struct Aged {
  static constexpr const char* kHandleKind = "aged thing";
  int value = 0;
};
using AgedTable = kf::HandleTable<Aged, 6, 20, 0xfffffffeu>;

TEST(HandleTable, ASlotWhoseGenerationsAreSpentIsNeverReused) {
  Aged* a = AgedTable::acquire();
  const uint64_t ha = AgedTable::handle_of(a);
  EXPECT_EQ(ha >> 32, 0xfffffffeu);
  AgedTable::release(a);
  Aged* b = AgedTable::acquire();
  const uint64_t hb = AgedTable::handle_of(b);
  ASSERT_EQ(slot_of(hb), slot_of(ha));
  EXPECT_EQ(hb >> 32, 0xffffffffu);
  AgedTable::release(b);  // the generation would wrap: retired
  for (int i = 0; i < 200; ++i) {
    Aged* c = AgedTable::acquire();
    EXPECT_NE(slot_of(AgedTable::handle_of(c)), slot_of(ha)) << "a retired slot came back";
    EXPECT_EQ(AgedTable::find(ha), nullptr);
    EXPECT_EQ(AgedTable::find(hb), nullptr);
    AgedTable::release(c);
  }
  EXPECT_EQ(AgedTable::state(ha), HandleState::Released);
  EXPECT_EQ(AgedTable::state(hb), HandleState::Released);
}

// Threads create and release at once (their freed slots move between threads through the
// shared list as threads end): every handle decodes while live and never after, and no handle
// value is given out twice.
struct Shared {
  static constexpr const char* kHandleKind = "shared thing";
  int owner = -1;
};
using SharedTable = kf::HandleTable<Shared, 6, 20>;

TEST(HandleTable, ThreadsNeverGetTheSameHandleTwice) {
  constexpr int kThreads = 4, kRounds = 3, kIters = 5000;
  std::vector<std::vector<uint64_t>> issued(kThreads * kRounds);
  std::vector<int> bad(kThreads * kRounds, 0);
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      const int me = round * kThreads + t;
      threads.emplace_back([&, me] {
        std::vector<Shared*> live;
        for (int i = 0; i < kIters; ++i) {
          Shared* s = SharedTable::acquire();
          s->owner = me;
          issued[me].push_back(SharedTable::handle_of(s));
          live.push_back(s);
          if (i % 3 == 2) {  // release two of every three, newest first
            for (int k = 0; k < 2; ++k) {
              Shared* r = live.back();
              live.pop_back();
              const uint64_t h = SharedTable::handle_of(r);
              if (SharedTable::find(h) != r || r->owner != me) ++bad[me];
              SharedTable::release(r);
              if (SharedTable::find(h) != nullptr) ++bad[me];
            }
          }
        }
        for (Shared* s : live) SharedTable::release(s);
      });
    }
    for (std::thread& th : threads) th.join();
  }
  std::vector<uint64_t> all;
  for (int i = 0; i < kThreads * kRounds; ++i) {
    EXPECT_EQ(bad[i], 0) << "thread " << i;
    all.insert(all.end(), issued[i].begin(), issued[i].end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end())
      << "a handle value was given out twice";
  for (uint64_t h : all) ASSERT_EQ(SharedTable::find(h), nullptr) << "all were released";
}

}  // namespace
