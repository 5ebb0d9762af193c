// arena_test.cpp — the toy device's allocator on its own (no kernforge needed): first fit,
// merging of freed neighbours, the pointer checks copy() relies on, and many threads at once.
// Exit status 0 when every check passes.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "arena.hpp"

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "FAILED: %s\n", what);
  ++failures;
}

constexpr size_t kA = toy::Arena::kAlignment;

void first_fit_and_alignment() {
  toy::Arena arena(16 * kA);
  char* a = static_cast<char*>(arena.allocate(1));
  char* b = static_cast<char*>(arena.allocate(kA));
  char* c = static_cast<char*>(arena.allocate(0));
  check(a != nullptr && b == a + kA && c == b + kA, "blocks are handed out in address order");
  check(reinterpret_cast<uintptr_t>(a) % kA == 0, "blocks are aligned to 64 bytes");
  check(arena.used() == 3 * kA, "used() counts rounded sizes");
  check(arena.deallocate(b), "deallocate of a block");
  check(arena.allocate(kA) == b, "first fit: the lowest free range that is large enough");
  check(arena.allocate(15 * kA) == nullptr, "a block larger than any free range is nullptr");
}

void merging() {
  toy::Arena arena(64 * kA);
  std::vector<void*> blocks;
  while (void* p = arena.allocate(kA)) blocks.push_back(p);
  check(blocks.size() == 64, "64 blocks of 64 bytes fill a 4 KiB arena");
  // Free the odd blocks, then the even ones: every free must merge with both neighbours.
  for (size_t i = 1; i < blocks.size(); i += 2) arena.deallocate(blocks[i]);
  check(arena.largest_free() == kA, "freed blocks that do not touch stay apart");
  for (size_t i = 0; i < blocks.size(); i += 2) arena.deallocate(blocks[i]);
  check(arena.used() == 0 && arena.largest_free() == 64 * kA, "all freed: one range again");
  check(arena.allocate(64 * kA) != nullptr, "the whole arena in one block after merging");
}

void ownership() {
  toy::Arena arena(8 * kA);
  char* a = static_cast<char*>(arena.allocate(100));  // 128 bytes
  check(arena.owns(a, 128) && arena.owns(a + 64, 64), "ranges inside a block are owned");
  check(!arena.owns(a, 129) && !arena.owns(a + 128, 1), "ranges past a block are not");
  int host = 0;
  check(!arena.owns(&host, sizeof host), "host memory is not owned");
  check(!arena.deallocate(a + 1) && !arena.deallocate(&host), "deallocate refuses non-blocks");
  check(arena.deallocate(a) && !arena.owns(a, 1), "a freed block is no longer owned");
  check(!arena.deallocate(a), "a second deallocate of the same block is refused");
}

// Threads allocate, fill, check and free blocks at random: a block shared by two threads, or
// bookkeeping broken by a race, shows as a pattern overwritten or as memory left in use.
void threads() {
  toy::Arena arena(size_t{1} << 20);
  std::vector<std::thread> workers;
  std::vector<int> bad(4, 0);
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&arena, &bad, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      std::vector<std::pair<unsigned char*, size_t>> mine;
      for (int i = 0; i < 20000; ++i) {
        if (mine.size() < 16 && rng() % 2 == 0) {
          const size_t n = 1 + rng() % 2000;
          auto* p = static_cast<unsigned char*>(arena.allocate(n));
          if (p != nullptr) std::memset(p, t + 1, n);
          if (p != nullptr) mine.emplace_back(p, n);
        } else if (!mine.empty()) {
          const auto [p, n] = mine.back();
          mine.pop_back();
          for (size_t k = 0; k < n; ++k) bad[t] += p[k] != t + 1;
          bad[t] += !arena.deallocate(p);
        }
      }
      for (const auto& [p, n] : mine) bad[t] += !arena.deallocate(p);
    });
  }
  for (std::thread& w : workers) w.join();
  check(bad == std::vector<int>(4, 0), "no block was shared or lost between threads");
  check(arena.used() == 0 && arena.largest_free() == arena.capacity(), "all memory came back");
}

}  // namespace

int main() {
  first_fit_and_alignment();
  merging();
  ownership();
  threads();
  std::printf("%s: %d failure(s)\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
