// merge_sort.hpp — a two-thread sort of 32- and 64-bit unsigned keys by position halves and a
// parallel merge: each thread makes the keys of one contiguous half of the line (no counting,
// no move by value) and sorts them in place with vqsort; then co-rank binary searches split the
// result into one contiguous range per thread, and each thread merges its range of the two
// sorted halves straight to the caller's output (put(i, key)), so the merge reads each key once
// and writes each result once. Equal keys are taken from the first half first, so the merge is
// stable (vqsort within a half is not: callers sort keys whose equal values cannot be told
// apart).
//
// Each merge step compares, selects by masks and advances by the comparison (GCC makes the
// plain selects jumps, mispredicted half of the time: 5.5 ns a key against 2.3), and each
// thread runs four such chains at once, its range split in two and each part merged from the
// front and from the back, as one step waits on the last one's load. On a 2-vCPU AVX-512 Xeon
// this beats the value split of vector_sort.hpp (which counts, then moves each key by value
// with scalar code) at every length two threads get: 16M float32 in 80 ms against 104.
#pragma once

#include <algorithm>
#include <cstdint>

#include "parallel.hpp"
#include "vector_sort.hpp"

namespace kf::cpu {
namespace merge_sort_detail {

/// Sorted keys a[0..na) and b[0..nb): how many of the first k keys of their stable merge
/// (ties from a first) come from a.
template <class K>
int64_t co_rank(int64_t k, const K* a, int64_t na, const K* b, int64_t nb) {
  int64_t lo = std::max<int64_t>(0, k - nb), hi = std::min(k, na);
  while (lo < hi) {  // a[i] with i < hi comes before b[k - i - 1]: more of a belongs
    const int64_t i = lo + (hi - lo) / 2;
    if (a[i] <= b[k - i - 1]) {
      lo = i + 1;
    } else {
      hi = i;
    }
  }
  return lo;
}

/// x when second is 0, y when it is 1, by masks (a select GCC would make a jump).
template <class K>
inline K pick(K x, K y, int64_t second) {
  const K mask = opaque(static_cast<K>(K{0} - static_cast<K>(second)));
  return static_cast<K>(x ^ ((x ^ y) & mask));
}

/// Where one merge chain stands: the next key of a and of b it reads, the next output place.
struct Cursor {
  int64_t a, b, o;
};

/// One step from the front: the smaller key (a's on ties) to place c.o.
template <class K, class Put>
inline void front_step(const K* a, const K* b, Cursor& c, const Put& put) {
  const K x = a[c.a], y = b[c.b];
  const int64_t take_b = opaque(y) < x ? 1 : 0;
  put(c.o++, pick(x, y, take_b));
  c.b += take_b;
  c.a += 1 - take_b;
}

/// One step from the back (cursors one past the keys): the larger key (b's on ties) to c.o - 1.
template <class K, class Put>
inline void back_step(const K* a, const K* b, Cursor& c, const Put& put) {
  const K x = a[c.a - 1], y = b[c.b - 1];
  const int64_t take_a = opaque(y) < x ? 1 : 0;
  put(--c.o, pick(y, x, take_a));
  c.a -= take_a;
  c.b -= 1 - take_a;
}

/// The rest of a front chain's `count` outputs, with checks for the end of a or b's range.
template <class K, class Put>
void front_tail(const K* a, int64_t a_end, const K* b, int64_t b_end, Cursor& c,
                int64_t count, const Put& put) {
  for (; count > 0; --count) {
    if (c.a == a_end) {
      put(c.o++, b[c.b++]);
    } else if (c.b == b_end) {
      put(c.o++, a[c.a++]);
    } else {
      front_step(a, b, c, put);
    }
  }
}

/// The rest of a back chain's `count` outputs, with checks for the start of a or b's range.
template <class K, class Put>
void back_tail(const K* a, int64_t a_begin, const K* b, int64_t b_begin, Cursor& c,
               int64_t count, const Put& put) {
  for (; count > 0; --count) {
    if (c.a == a_begin) {
      put(--c.o, b[--c.b]);
    } else if (c.b == b_begin) {
      put(--c.o, a[--c.a]);
    } else {
      back_step(a, b, c, put);
    }
  }
}

/// Steps without checks the two chains of [f, e) can both take now: neither passes the end of
/// its half of the range in a or b.
inline int64_t safe_steps(const Cursor& begin, const Cursor& end, const Cursor& f,
                          const Cursor& e, int64_t front, int64_t back) {
  return std::min({end.a - f.a, end.b - f.b, e.a - begin.a, e.b - begin.b, front, back});
}

/// One range [begin, end) of the merge, worked from both ends: `front` outputs from the
/// front, `back` from the back.
struct Chains {
  Cursor begin, end, f, e;
  int64_t front, back;
  Chains(Cursor b, Cursor en) : begin(b), end(en), f(b), e(en) {
    front = (en.o - b.o) / 2;
    back = (en.o - b.o) - front;
  }
  int64_t safe() const { return safe_steps(begin, end, f, e, front, back); }
  void advance(int64_t steps) {
    front -= steps;
    back -= steps;
  }
  template <class K, class Put>
  void finish(const K* a, const K* b, const Put& put) {
    front_tail(a, end.a, b, end.b, f, front, put);
    back_tail(a, begin.a, b, begin.b, e, back, put);
  }
};

/// Merges a[f.a .. e.a) and b[f.b .. e.b) to outputs f.o .. e.o: split in two at the middle
/// output, each half by a chain from the front and one from the back, all four in one loop.
template <class K, class Put>
void merge_range(const K* a, int64_t na, const K* b, int64_t nb, Cursor f, Cursor e,
                 const Put& put) {
  const int64_t mo = f.o + (e.o - f.o) / 2;
  const int64_t ma = co_rank(mo, a, na, b, nb);
  const Cursor m{ma, mo - ma, mo};
  Chains x(f, m), y(m, e);
  for (;;) {
    const int64_t safe = std::min(x.safe(), y.safe());
    if (safe == 0) break;
    for (int64_t s = 0; s < safe; ++s) {
      front_step(a, b, x.f, put);
      back_step(a, b, x.e, put);
      front_step(a, b, y.f, put);
      back_step(a, b, y.e, put);
    }
    x.advance(safe);
    y.advance(safe);
  }
  x.finish(a, b, put);
  y.finish(a, b, put);
}

}  // namespace merge_sort_detail

/// True when a line of n keys on nt threads goes through halves_sort_merge: two threads, and
/// no shorter a line than vector_sort_into shares between two. Shorter lines stay on one
/// thread: the merge was faster there too when the cores were idle (32768 float32 in 0.09 ms
/// against 0.13), but a second thread that must first be woken cost 10 ms and more whenever
/// other processes held the cores.
inline bool use_halves_merge(int64_t n, int nt) {
  return nt == 2 && n >= 2 * vector_sort_detail::kMinPart;
}

/// Sorts the keys key_at(0) .. key_at(n - 1) ascending with two threads and calls put(i, key)
/// for each place i of [0, n) with its key, once each: keys[0..n) is scratch (the halves,
/// sorted in place). key_at is called once per key, put once per place, from both threads.
template <class K, class KeyAt, class Put>
void halves_sort_merge(K* keys, int64_t n, const KeyAt& key_at, const Put& put) {
  namespace d = merge_sort_detail;
  const int64_t mid = n / 2;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int t = 0; t < 2; ++t) {
    const int64_t lo = t == 0 ? 0 : mid, hi = t == 0 ? mid : n;
    for (int64_t i = lo; i < hi; ++i) keys[i] = key_at(i);
    vqsort_keys(keys + lo, hi - lo);
  }
  const K* a = keys;
  const K* b = keys + mid;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int t = 0; t < 2; ++t) {
    const int64_t o0 = n * t / 2, o1 = n * (t + 1) / 2;
    const int64_t a0 = d::co_rank(o0, a, mid, b, n - mid);
    const int64_t a1 = d::co_rank(o1, a, mid, b, n - mid);
    d::merge_range(a, mid, b, n - mid, d::Cursor{a0, o0 - a0, o0}, d::Cursor{a1, o1 - a1, o1}, put);
  }
}

}  // namespace kf::cpu
