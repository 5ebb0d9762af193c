// radix_sort.hpp — a stable LSD radix sort of unsigned keys, with an optional payload (the
// positions argsort returns), and the order-preserving map from each element type to its key.
//
// Keys: an unsigned integer of the element's width whose unsigned order is the element's order.
// Unsigned integers and bool are their own keys; signed integers flip the sign bit; floats flip
// the sign bit of positives and every bit of negatives. Every NaN maps to the largest key (NaN
// sorts above +inf) and -0 to +0's key (they are equal, so a stable sort keeps their order);
// descending order sorts the complemented keys, which keeps equal values in their order too.
//
// The sort: one pass per byte of the key (8-bit digits), skipping a byte every key shares, each
// pass a scatter into the other buffer. One thread counts every byte's digits in one read first;
// several threads count each pass's digits per chunk, then each scatters its own chunk (the
// offsets are per thread and digit, so the result is still stable).
// Lines of up to kInsertionMax elements take an insertion sort instead.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtype_dispatch.hpp"
#include "parallel.hpp"

namespace kf::cpu {

template <class T>
using SortKey = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <class T>
constexpr bool is_float_key_v = std::is_floating_point_v<T> || is_half_v<T>;

/// The key of v (ascending order).
template <class T>
inline SortKey<T> sort_key(T v) {
  using K = SortKey<T>;
  constexpr K kSign = K(K(1) << (8 * sizeof(K) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    // From the bits alone, with selects instead of jumps (float32 key loops then vectorise).
    constexpr K kInf = sizeof(K) == 4 ? K(0x7f800000u) : K(0x7ff0000000000000ull);
    K bits;
    std::memcpy(&bits, &v, sizeof(K));
    const K magnitude = static_cast<K>(bits & K(~kSign));
    const K negative = static_cast<K>(K{0} - static_cast<K>(bits >> (8 * sizeof(K) - 1)));
    const K key = magnitude == 0 ? kSign : static_cast<K>(bits ^ static_cast<K>(negative | kSign));
    return magnitude > kInf ? std::numeric_limits<K>::max() : key;  // NaN: the largest key
  } else if constexpr (is_float_key_v<T>) {
    const auto f = load(v);
    if (f != f) return std::numeric_limits<K>::max();
    if (f == 0) return kSign;  // -0 is +0
    K bits;
    std::memcpy(&bits, &v, sizeof(K));
    // Negatives flip every bit, positives the sign: a mask, not a jump on the sign (which is
    // random in most data, and a mispredicted jump costs more than the rest of the key).
    const K negative = static_cast<K>(K{0} - static_cast<K>(bits >> (8 * sizeof(K) - 1)));
    return static_cast<K>(bits ^ static_cast<K>(negative | kSign));
  } else if constexpr (std::is_signed_v<T>) {
    return K(K(v) ^ kSign);
  } else {
    return K(v);
  }
}

/// The value whose key is k (a NaN for the largest key of a float, +0 for the zero key).
template <class T>
inline T from_sort_key(SortKey<T> k) {
  using K = SortKey<T>;
  constexpr K kSign = K(K(1) << (8 * sizeof(K) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return k != 0;
  } else if constexpr (is_float_key_v<T>) {
    const K bits = (k & kSign) ? K(k & ~kSign) : K(~k);
    T v;
    std::memcpy(&v, &bits, sizeof(K));
    return v;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(K(k ^ kSign));
  } else {
    return static_cast<T>(k);
  }
}

constexpr int64_t kInsertionMax = 48;

/// Sorts keys[0..n) with pay[0..n) alongside (pay may be null), stably, by insertion.
template <class K, class P>
void insertion_sort(K* keys, P* pay, int64_t n) {
  for (int64_t i = 1; i < n; ++i) {
    const K k = keys[i];
    const P p = pay != nullptr ? pay[i] : P{};
    int64_t j = i;
    for (; j > 0 && keys[j - 1] > k; --j) {
      keys[j] = keys[j - 1];
      if (pay != nullptr) pay[j] = pay[j - 1];
    }
    keys[j] = k;
    if (pay != nullptr) pay[j] = p;
  }
}

/// The buffers of one radix sort: keys and payload, and their scratch twins (n each).
template <class K, class P>
struct RadixBuffers {
  K* keys;
  K* tmp_keys;
  P* pay;  // null: keys only
  P* tmp_pay;
};

/// Counts, per thread t of nt, the digits at `shift` of keys in its chunk; true when one digit
/// holds every key (the pass would move nothing).
template <class K>
bool count_digits(const K* keys, int64_t n, int shift, int nt, std::vector<int64_t>& counts) {
  counts.assign(static_cast<size_t>(nt) * 256, 0);
  auto count_chunk = [&](int t) {
    int64_t* c = counts.data() + static_cast<size_t>(t) * 256;
    const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    for (int64_t i = lo; i < hi; ++i) ++c[(keys[i] >> shift) & 0xff];
  };
  if (nt == 1) {
    count_chunk(0);
  } else {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; ++t) count_chunk(t);
  }
  for (int d = 0; d < 256; ++d) {
    int64_t total = 0;
    for (int t = 0; t < nt; ++t) total += counts[static_cast<size_t>(t) * 256 + d];
    if (total == n) return true;
    if (total != 0) return false;
  }
  return false;
}

/// Turns counts into each thread's first output position per digit (digit-major, then thread).
inline void offsets_from_counts(std::vector<int64_t>& counts, int nt) {
  int64_t pos = 0;
  for (int d = 0; d < 256; ++d) {
    for (int t = 0; t < nt; ++t) {
      int64_t& c = counts[static_cast<size_t>(t) * 256 + d];
      const int64_t here = c;
      c = pos;
      pos += here;
    }
  }
}

/// One pass: moves the keys (and payload) of chunk [lo, hi) to their digit's positions `o`.
template <bool kPay, class K, class P>
void scatter_chunk(const RadixBuffers<K, P>& b, int64_t lo, int64_t hi, int shift, int64_t* o) {
  for (int64_t i = lo; i < hi; ++i) {
    const K k = b.keys[i];
    const int64_t at = o[(k >> shift) & 0xff]++;
    b.tmp_keys[at] = k;
    if constexpr (kPay) b.tmp_pay[at] = b.pay[i];
  }
}

template <class K, class P>
void scatter(const RadixBuffers<K, P>& b, int64_t lo, int64_t hi, int shift, int64_t* o) {
  if (b.pay != nullptr) {
    scatter_chunk<true>(b, lo, hi, shift, o);
  } else {
    scatter_chunk<false>(b, lo, hi, shift, o);
  }
}

/// One thread: every digit's histogram in one read, then one scatter per byte that differs.
template <class K, class P>
void radix_sort_serial(RadixBuffers<K, P>& b, int64_t n) {
  constexpr int kBytes = static_cast<int>(sizeof(K));
  std::vector<int64_t> hist(static_cast<size_t>(kBytes) * 256, 0);
  for (int64_t i = 0; i < n; ++i) {
    const K k = b.keys[i];
    for (int byte = 0; byte < kBytes; ++byte) ++hist[byte * 256 + ((k >> (8 * byte)) & 0xff)];
  }
  for (int byte = 0; byte < kBytes; ++byte) {
    int64_t* o = hist.data() + byte * 256;
    if (o[(b.keys[0] >> (8 * byte)) & 0xff] == n) continue;  // every key shares this byte
    int64_t pos = 0;
    for (int d = 0; d < 256; ++d) {
      const int64_t here = o[d];
      o[d] = pos;
      pos += here;
    }
    scatter(b, 0, n, 8 * byte, o);
    std::swap(b.keys, b.tmp_keys);
    std::swap(b.pay, b.tmp_pay);
  }
}

/// Sorts b.keys[0..n) ascending and stably, the payload alongside, with nt threads; the sorted
/// data ends in b.keys / b.pay (the pointers are swapped with the scratch ones as passes go).
template <class K, class P>
void radix_sort(RadixBuffers<K, P>& b, int64_t n, int nt) {
  if (n <= kInsertionMax) {
    insertion_sort(b.keys, b.pay, n);
    return;
  }
  if (nt <= 1 || n < (int64_t{nt} << 16)) {  // chunks of at least 64Ki keys
    radix_sort_serial(b, n);
    return;
  }
  std::vector<int64_t> pos;
  for (int shift = 0; shift < static_cast<int>(8 * sizeof(K)); shift += 8) {
    if (count_digits(b.keys, n, shift, nt, pos)) continue;
    offsets_from_counts(pos, nt);
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; ++t) {
      scatter(b, n * t / nt, n * (t + 1) / nt, shift, pos.data() + static_cast<size_t>(t) * 256);
    }
    std::swap(b.keys, b.tmp_keys);
    std::swap(b.pay, b.tmp_pay);
  }
}

}  // namespace kf::cpu
