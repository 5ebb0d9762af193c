// vector_sort.hpp — a vectorised, multi-threaded sort of 32- and 64-bit unsigned keys: each
// thread sorts one chunk with Highway's vqsort (hwy/contrib/sort, AVX2 or AVX-512 chosen at run
// time), then rounds of pairwise merges join the chunks, each merge split among the threads at
// merge-path points. Not stable: callers sort keys whose equal values cannot be told apart
// (sort's values), or keys that are all distinct (argsort's key-and-position pairs).
//
// On a 2-core AMD EPYC (AVX2), 16M uint32 keys: 250 ms for one vqsort, 2.7x faster than the
// byte-wise radix sort of radix_sort.hpp on one thread; two chunks and a merge, 175 ms.
// 16-bit keys stay with the radix sort (two passes; Highway 1.0's vqsort of them is slower).
//
// Without Highway (KF_CPU_HAVE_HWY=0) kVectorSort is false and callers use radix_sort.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

namespace kf::cpu {

#if KF_CPU_HAVE_HWY
inline constexpr bool kVectorSort = true;
#else
inline constexpr bool kVectorSort = false;
#endif

/// True when keys of type K go through vector_sort.
template <class K>
inline constexpr bool vector_sortable_v =
    kVectorSort && (std::is_same_v<K, uint32_t> || std::is_same_v<K, uint64_t>);

/// Sorts keys[0..n) ascending with up to nt threads, using tmp[0..n) as scratch; returns the
/// buffer that holds the sorted keys (keys or tmp). K: uint32_t or uint64_t.
template <class K>
K* vector_sort(K* keys, K* tmp, int64_t n, int nt);

}  // namespace kf::cpu
