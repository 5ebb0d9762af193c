// zero_signs.hpp — the signs of the zeros in a sorted line. The sort keys make -0 equal to +0
// (radix_sort.hpp), so the zeros of a sorted line are one run, in their input order, and sort
// gives each place of the run the input's zero of that rank, sign and all. After the sort a
// binary search finds the run (zero_run); only when it is not empty does scan_zeros read the
// input, counting each chunk's zeros from the elements' bits (a read the compiler vectorises for
// contiguous lines) and saying whether one is -0; only then does restore_zero_signs run, each
// thread copying its chunk's zeros to their places in the run.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#include "parallel.hpp"
#include "radix_sort.hpp"
#include "strided.hpp"

namespace kf::cpu {

/// The zeros of each of a line's chunks (one a thread, up to kMaxChunks), and whether one of
/// them is -0. No heap memory: lines sorted inside a parallel region scan theirs too.
struct ZeroCounts {
  static constexpr int kMaxChunks = 256;
  int chunks = 0;
  int64_t per_chunk[kMaxChunks];
  bool negative = false;
};

namespace zero_detail {

/// Counts the zeros of elements [lo, hi) of `in` (byte stride si, Stride bytes when fixed at
/// compile time); ORs into `negative` whether one is -0.
template <class K, int64_t kStride>
int64_t count_zeros(const char* in, int64_t lo, int64_t hi, int64_t si, bool& negative) {
  constexpr K kSign = static_cast<K>(K{1} << (8 * sizeof(K) - 1));
  const int64_t stride = kStride != 0 ? kStride : si;
  int64_t zeros = 0;
  K neg = 0;
  for (int64_t i = lo; i < hi; ++i) {
    K b;
    std::memcpy(&b, in + i * stride, sizeof(K));
    zeros += static_cast<K>(b << 1) == 0 ? 1 : 0;
    neg |= b == kSign ? K{1} : K{0};
  }
  negative |= neg != 0;
  return zeros;
}

}  // namespace zero_detail

/// The zeros of line `in` (n elements at byte stride si) per chunk of nt threads; empty (and no
/// -0) for types without signed zeros.
template <class T>
ZeroCounts scan_zeros(const char* in, int64_t n, int64_t si, int nt) {
  ZeroCounts z;
  if constexpr (is_float_key_v<T>) {
    using K = SortKey<T>;
    const int c = nt < ZeroCounts::kMaxChunks ? nt : ZeroCounts::kMaxChunks;
    z.chunks = c;
    bool negative = false;
    const auto count = [&](int t, bool& neg) {
      const int64_t lo = n * t / c, hi = n * (t + 1) / c;
      z.per_chunk[t] = si == int64_t{sizeof(T)}
                           ? zero_detail::count_zeros<K, int64_t{sizeof(T)}>(in, lo, hi, si, neg)
                           : zero_detail::count_zeros<K, 0>(in, lo, hi, si, neg);
    };
    if (c <= 1) {  // Note [Regions of one thread] (parallel.hpp): called once per line
      count(0, negative);
    } else {
#pragma omp parallel for num_threads(nt) schedule(static, 1) reduction(| : negative)
      for (int t = 0; t < c; ++t) count(t, negative);
    }
    z.negative = negative;
  }
  (void)in, (void)n, (void)si, (void)nt;
  return z;
}

/// The first place of the zeros of sorted line `out` (n elements at byte stride so, sorted by
/// key ^ flip) and the count of them.
template <class T>
std::pair<int64_t, int64_t> zero_run(const char* out, int64_t so, int64_t n, SortKey<T> flip) {
  using K = SortKey<T>;
  const K zero = static_cast<K>(sort_key(convert<T>(0.0)) ^ flip);
  const auto key = [&](int64_t i) {
    return static_cast<K>(sort_key(*reinterpret_cast<const T*>(out + i * so)) ^ flip);
  };
  // The first place whose key is above zero's (above: true) or not below it (false).
  const auto first_past = [&](bool above) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const K k = key(mid);
      if (k < zero || (above && k == zero)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  const int64_t begin = first_past(false);
  return {begin, first_past(true) - begin};
}

/// Gives the zeros of sorted line `out` (n elements at byte stride so, its zeros from place
/// `first`) the input's zeros in their order.
template <class T>
void restore_zero_signs(const char* in, int64_t si, char* out, int64_t so, int64_t n,
                        int64_t first, const ZeroCounts& z) {
  using K = SortKey<T>;
  int64_t lo = first;
  const int c = z.chunks;
  int64_t place[ZeroCounts::kMaxChunks];
  place[0] = lo;
  for (int t = 1; t < c; ++t) place[t] = place[t - 1] + z.per_chunk[t - 1];
  // Note [Regions of one thread] (parallel.hpp): one region per line only with threads.
  parallel_for(c, c, [&](int64_t t) {
    int64_t q = place[t];
    for (int64_t i = n * t / c, end = n * (t + 1) / c; i < end; ++i) {
      K b;
      std::memcpy(&b, in + i * si, sizeof(K));
      if (static_cast<K>(b << 1) == 0) std::memcpy(&at<T>(out, q++, so), &b, sizeof(K));
    }
  });
}

}  // namespace kf::cpu
