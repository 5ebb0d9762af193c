// vector_sort.hpp — a vectorised, multi-threaded sort of 32- and 64-bit unsigned keys, written
// into the caller's buffer without scratch memory: a sample of the keys gives one splitter
// between each two threads' parts; every key goes to its part (or to the run of keys equal to a
// splitter, which needs no sorting, so many equal keys cannot unbalance the parts), and each
// thread sorts one part in place with Highway's vqsort (hwy/contrib/sort, AVX2 or AVX-512
// chosen at run time). Not stable: callers sort keys whose equal values cannot be told apart
// (sort's values), or keys that are all distinct (argsort's key-and-position pairs).
//
// On a 2-core AMD EPYC (AVX2): one vqsort of 16M uint32 keys takes 250 ms, 2.7x less than the
// byte-wise radix sort of radix_sort.hpp on one thread. On a 2-vCPU Xeon (AVX-512) it is
// also ahead of a parallel LSD radix sort with 8- or 11-bit digits and write-combining
// streaming stores (the move of each pass is bound by the memory, and 3 or 4 passes of it cost
// more than vqsort's vectorised partitions; 64-bit keys, 6 passes, twice as slow), and of
// buckets sized to the level-2 cache first (the scalar count and move of every key cost more
// than they save); docs/backends.md, "Sorting", has the numbers. 16-bit keys stay with the
// radix sort (two passes; Highway 1.0's vqsort of them is slower).
//
// Without Highway (KF_CPU_HAVE_HWY=0) kVectorSort is false and callers use radix_sort.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "parallel.hpp"

namespace kf::cpu {

#if KF_CPU_HAVE_HWY
inline constexpr bool kVectorSort = true;
#else
inline constexpr bool kVectorSort = false;
#endif

/// True when keys of type K go through vector_sort_into.
template <class K>
inline constexpr bool vector_sortable_v =
    kVectorSort && (std::is_same_v<K, uint32_t> || std::is_same_v<K, uint64_t>);

/// Sorts keys[0..n) ascending on the calling thread (vqsort; vector_sort.cpp).
template <class K>
void vqsort_keys(K* keys, int64_t n);

/// x, hidden from the optimiser. Comparing this copy of a key and the key itself keeps GCC from
/// deriving one comparison from the other with a jump (and a copy of the loop body per outcome);
/// merge_sort.hpp's branch-free steps use it too.
template <class K>
inline K opaque(K x) {
#if defined(__GNUC__)
  asm("" : "+r"(x));
#endif
  return x;
}

namespace vector_sort_detail {

/// Parts of fewer keys than this are not worth a thread of their own.
inline constexpr int64_t kMinPart = int64_t{1} << 16;
/// Sampled keys per part: the parts' sizes then differ by a few percent.
inline constexpr int64_t kSamplesPerPart = 128;

/// Up to parts - 1 splitters, ascending and distinct, from a sample of the n keys: one key from
/// each of kSamplesPerPart * parts equal strata, at a pseudo-random place in it.
template <class K, class KeyAt>
std::vector<K> splitters(int64_t n, int parts, const KeyAt& key_at) {
  const int64_t count = std::min<int64_t>(n, kSamplesPerPart * parts);
  std::vector<K> sample(static_cast<size_t>(count));
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (int64_t j = 0; j < count; ++j) {
    const int64_t lo = n * j / count, hi = n * (j + 1) / count;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    sample[static_cast<size_t>(j)] = key_at(lo + static_cast<int64_t>((state >> 33) % (hi - lo)));
  }
  std::sort(sample.begin(), sample.end());
  std::vector<K> s;
  for (int p = 1; p < parts; ++p) {
    const K k = sample[static_cast<size_t>(count * p / parts)];
    if (s.empty() || s.back() < k) s.push_back(k);
  }
  return s;
}

/// The bucket of key k among m splitters s: 2b for the keys between splitters b - 1 and b (b:
/// the count of splitters below k), 2b + 1 for the keys equal to splitter b. m >= 1.
template <class K>
inline int bucket_of(K k, const K* s, int m) {
  int b = 0;
  if (m <= 8) {
    for (int j = 0; j < m; ++j) b += s[j] < k ? 1 : 0;
  } else {
    b = static_cast<int>(std::lower_bound(s, s + m, k) - s);
  }
  // No branch on the key: a mispredicted one per key costs more than the rest of the work.
  const int inside = b < m ? 1 : 0;
  const int nearest = inside != 0 ? b : m - 1;
  return 2 * b + (inside & (s[nearest] == k ? 1 : 0));
}

/// How many of block[0..len) are below `split`, by signed comparisons of the keys with their
/// top bit flipped (SSE2, the baseline, has no unsigned ones; this form vectorises).
template <class K>
int64_t count_below(const K* block, int64_t len, K split) {
  using S = std::make_signed_t<K>;
  constexpr K kTop = K{1} << (8 * sizeof(K) - 1);
  const S s = static_cast<S>(split ^ kTop);
  S n = 0;
  for (int64_t i = 0; i < len; ++i) n += static_cast<S>(block[i] ^ kTop) < s ? 1 : 0;
  return static_cast<int64_t>(n);
}

/// How many of block[0..len) equal `split`.
template <class K>
int64_t count_equal(const K* block, int64_t len, K split) {
  std::make_signed_t<K> n = 0;
  for (int64_t i = 0; i < len; ++i) n += block[i] == split ? 1 : 0;
  return static_cast<int64_t>(n);
}

/// Bucket sizes of keys [lo, hi) into c[0 .. 2m]: from the counts of keys below and equal to
/// each splitter, sums of comparisons that vectorise (a histogram's increments of one counter
/// wait on each other through memory), block by block so that the keys come from L1.
template <class K, class KeyAt>
void count_buckets(int64_t lo, int64_t hi, const K* s, int m, const KeyAt& key_at,
                   int64_t* c) {
  constexpr int64_t kBlock = 2048;
  std::vector<int64_t> below(static_cast<size_t>(m), 0), equal(static_cast<size_t>(m), 0);
  K block[kBlock];
  for (int64_t first = lo; first < hi; first += kBlock) {
    const int64_t len = std::min(kBlock, hi - first);
    for (int64_t i = 0; i < len; ++i) block[i] = key_at(first + i);
    for (int j = 0; j < m; ++j) {
      below[static_cast<size_t>(j)] += count_below(block, len, s[j]);
      equal[static_cast<size_t>(j)] += count_equal(block, len, s[j]);
    }
  }
  int64_t done = 0;  // keys in the buckets before splitter j
  for (int j = 0; j < m; ++j) {
    c[2 * j] = below[static_cast<size_t>(j)] - done;
    c[2 * j + 1] = equal[static_cast<size_t>(j)];
    done = below[static_cast<size_t>(j)] + equal[static_cast<size_t>(j)];
  }
  c[2 * m] = (hi - lo) - done;
}

/// Moves keys [lo, hi) to their buckets' places o[bucket] (advanced as they fill).
///
/// One splitter (two threads), the common case: each key is written to all three buckets' runs
/// of kRun keys in a local buffer, and only its own bucket's count moves on; a full run goes to
/// dst in one copy. The three counts stay in registers and nothing branches on the key (a place
/// chosen per key compiles to a jump mispredicted half of the time, and places kept in memory
/// make each store wait for the last one of its bucket).
template <class K, class KeyAt>
void scatter_buckets(int64_t lo, int64_t hi, const K* s, int m, const KeyAt& key_at, K* dst,
                     int64_t* o) {
  if (m != 1) {
    for (int64_t i = lo; i < hi; ++i) {
      const K k = key_at(i);
      dst[o[bucket_of(k, s, m)]++] = k;
    }
    return;
  }
  constexpr int64_t kRun = 512;
  K run[3][kRun + 1];  // one spare place: the key of another bucket lands there harmlessly
  int64_t n0 = 0, n1 = 0, n2 = 0;
  const K split = s[0];
  auto flush = [&](int b, int64_t count) {
    std::memcpy(dst + o[b], run[b], static_cast<size_t>(count) * sizeof(K));
    o[b] += count;
  };
  for (int64_t i = lo; i < hi; ++i) {
    const K k = key_at(i);
    const int64_t below = opaque(k) < split ? 1 : 0, equal = k == split ? 1 : 0;
    run[0][n0] = k;
    run[1][n1] = k;
    run[2][n2] = k;
    n0 += below;
    n1 += equal;
    n2 += 1 - below - equal;
    if (n0 == kRun) flush(0, std::exchange(n0, 0));
    if (n1 == kRun) flush(1, std::exchange(n1, 0));
    if (n2 == kRun) flush(2, std::exchange(n2, 0));
  }
  flush(0, n0);
  flush(1, n1);
  flush(2, n2);
}

}  // namespace vector_sort_detail

/// Sorts with a part per thread: keys to their parts by splitters, then each part sorted.
template <class K, class KeyAt, class Done>
void split_and_sort(K* dst, int64_t n, int parts, const KeyAt& key_at, const Done& done) {
  namespace d = vector_sort_detail;
  const std::vector<K> s = d::splitters<K>(n, parts, key_at);
  const int m = static_cast<int>(s.size());
  const int buckets = 2 * m + 1;
  // offset[t * buckets + b]: where chunk t's first key of bucket b goes (bucket-major, then
  // chunk, so the parts are contiguous); the counts first.
  std::vector<int64_t> offset(static_cast<size_t>(parts) * buckets, 0);
#pragma omp parallel for num_threads(parts) schedule(static, 1)
  for (int t = 0; t < parts; ++t) {
    d::count_buckets(n * t / parts, n * (t + 1) / parts, s.data(), m, key_at,
                     offset.data() + static_cast<size_t>(t) * buckets);
  }
  std::vector<int64_t> bucket_start(static_cast<size_t>(buckets) + 1, 0);
  int64_t at = 0;
  for (int b = 0; b < buckets; ++b) {
    bucket_start[static_cast<size_t>(b)] = at;
    for (int t = 0; t < parts; ++t) at += std::exchange(offset[size_t(t) * buckets + b], at);
  }
  bucket_start[static_cast<size_t>(buckets)] = at;
  // Each thread scatters with its own copy of its places: neighbouring threads' would share
  // cache lines.
#pragma omp parallel for num_threads(parts) schedule(static, 1)
  for (int t = 0; t < parts; ++t) {
    std::vector<int64_t> o(offset.begin() + static_cast<ptrdiff_t>(t) * buckets,
                           offset.begin() + static_cast<ptrdiff_t>(t + 1) * buckets);
    d::scatter_buckets(n * t / parts, n * (t + 1) / parts, s.data(), m, key_at, dst, o.data());
  }
  // The even buckets hold the keys between splitters; the odd ones, keys equal to a splitter,
  // are in order already.
#pragma omp parallel for num_threads(parts) schedule(dynamic, 1)
  for (int b = 0; b < buckets; ++b) {
    const int64_t lo = bucket_start[static_cast<size_t>(b)];
    const int64_t hi = bucket_start[static_cast<size_t>(b) + 1];
    if (b % 2 == 0) vqsort_keys(dst + lo, hi - lo);
    done(lo, hi);
  }
}

/// Writes the keys key_at(0) .. key_at(n - 1) to dst[0..n) in ascending order, with up to nt
/// threads, and calls done(lo, hi) for each run [lo, hi) of the result as soon as it is sorted,
/// from the thread that sorted it (the runs cover [0, n) once; no second parallel pass).
/// key_at is called twice per key, from several threads at once.
template <class K, class KeyAt, class Done>
void vector_sort_into(K* dst, int64_t n, int nt, const KeyAt& key_at, const Done& done) {
  namespace d = vector_sort_detail;
  const int parts = static_cast<int>(std::clamp<int64_t>(n / d::kMinPart, 1, std::max(nt, 1)));
  if (parts > 1) {
    split_and_sort(dst, n, parts, key_at, done);
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i] = key_at(i);
  vqsort_keys(dst, n);
  done(0, n);
}

}  // namespace kf::cpu
