// sort_kernels.cpp — sort and argsort along one dim, for every dtype with an order.
//
// Each line along dim is read into keys (radix_sort.hpp: NaN above +inf, -0 equal to +0,
// complemented for descending), sorted, and written back as values or as int64 positions.
// Every sort is stable, so `stable=False` sorts the same way:
//  - sort's values: equal keys are equal values, so any order of them gives the stable result.
//    32- and 64-bit keys: on two threads, each sorts a half of the line by position and both
//    merge the halves straight to values (merge_sort.hpp); on one thread or more than two,
//    the vectorised sort (vector_sort.hpp), in the output's own memory when its line is
//    contiguous; 8- and 16-bit keys through the radix sort;
//  - argsort's positions: the 32-bit keys of a line of up to 2^32 elements become 64-bit pairs
//    key << 32 | position, all distinct, whose sort is the stable order (on two threads the
//    halves and merge, the merge writing positions; else the vectorised sort, in the int64
//    output's own memory); 8-, 16- and 64-bit keys through the radix sort, positions
//    alongside.
// sort writes each zero's own sign back (zero_signs.hpp): the zeros of a line form one run in
// the result, in their input order, so the run takes the input's zeros in turn; NaNs come out
// as a NaN of the type. Many lines: one line a thread, with scratch taken before the parallel
// region; few long lines: the threads share each line's work.
#include <algorithm>
#include <cstring>
#include <vector>

#include "dtype_dispatch.hpp"
#include "element_read.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "line_plan.hpp"
#include "merge_sort.hpp"
#include "radix_sort.hpp"
#include "reduce_plan.hpp"
#include "sort_scratch.hpp"
#include "strided.hpp"
#include "vector_sort.hpp"
#include "zero_signs.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kSortMask = kOrderedMask;
/// Strided lines of up to this many elements are sorted in blocks of side-by-side lines.
constexpr int64_t kBlockMaxN = int64_t{1} << 16;

/// n uninitialised elements, kept for the next line (no zero-filling of 16M keys).
template <class V>
class Buffer {
 public:
  V* get(int64_t n) { return scratch_.reserve(n); }

 private:
  SortScratch<V> scratch_;
};

/// The scratch of one line (reused across the lines one thread sorts).
template <class K>
struct LineScratch {
  Buffer<K> keys, tmp_keys;
  Buffer<int64_t> pos, tmp_pos;
  Buffer<uint64_t> pairs;
  Buffer<K> block_in;  // a block of side-by-side lines (sort_block), gathered and sorted
  Buffer<int64_t> block_out;
};

/// Reads line `in` (n elements at byte stride si) into keys.
template <class T>
void read_keys(const char* in, int64_t n, int64_t si, bool descending, int nt, SortKey<T>* keys) {
  using K = SortKey<T>;
  const K flip = descending ? static_cast<K>(~K{0}) : K{0};
  parallel_for(n, nt, [&](int64_t i) {
    const T v = elem(reinterpret_cast<const T*>(in + i * si));  // bool bytes read as != 0
    keys[i] = static_cast<K>(sort_key(v) ^ flip);
  });
}

/// The key of element i of line `in` (byte stride si), complemented when descending.
template <class T>
SortKey<T> key_of(const char* in, int64_t i, int64_t si, SortKey<T> flip) {
  const T v = elem(reinterpret_cast<const T*>(in + i * si));  // bool bytes read as != 0
  return static_cast<SortKey<T>>(sort_key(v) ^ flip);
}

/// Writes the sorted values of one line from their keys.
template <class T>
void write_values(char* out, const LinePlan& p, const SortKey<T>* keys, bool descending,
                  int nt) {
  using K = SortKey<T>;
  const K flip = descending ? static_cast<K>(~K{0}) : K{0};
  parallel_for(p.n, nt,
               [&](int64_t i) { at<T>(out, i, p.so) = from_sort_key<T>(K(keys[i] ^ flip)); });
}

/// sort's values of one line, every zero +0.
template <class T>
void sort_keys_to_values(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                         LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  if constexpr (vector_sortable_v<K>) {
    if (p.n > kInsertionMax) {
      const K flip = descending ? static_cast<K>(~K{0}) : K{0};
      const auto key_at = [&](int64_t i) { return key_of<T>(in, i, p.si, flip); };
      // Two threads: halves by position, each sorted, then merged straight to values
      // (merge_sort.hpp); it beat the value split of vector_sort_into at every length it
      // serves. More threads keep the value split, which uses them all.
      if (use_halves_merge(p.n, nt)) {
        halves_sort_merge(s.keys.get(p.n), p.n, key_at, [&](int64_t i, K k) {
          at<T>(out, i, p.so) = from_sort_key<T>(K(k ^ flip));
        });
        return;
      }
      K* keys = p.so == int64_t{sizeof(T)} ? reinterpret_cast<K*>(out) : s.keys.get(p.n);
      // Each sorted run becomes values while it is in the cache (in place when keys is out).
      const auto values = [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) at<T>(out, i, p.so) = from_sort_key<T>(K(keys[i] ^ flip));
      };
      vector_sort_into(keys, p.n, nt, key_at, values);
      return;
    }
  }
  read_keys<T>(in, p.n, p.si, descending, nt, s.keys.get(p.n));
  RadixBuffers<K, int64_t> b{s.keys.get(p.n), s.tmp_keys.get(p.n), nullptr, nullptr};
  radix_sort(b, p.n, nt);
  write_values<T>(out, p, b.keys, descending, nt);
}

/// sort's values of one line.
template <class T>
void sort_values(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                 LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  sort_keys_to_values<T>(p, in, out, descending, nt, s);
  if constexpr (is_float_key_v<T>) {
    const K flip = descending ? static_cast<K>(~K{0}) : K{0};
    const auto [first, count] = zero_run<T>(out, p.so, p.n, flip);
    if (count == 0) return;  // no zeros: the common case costs two binary searches
    const ZeroCounts zeros = scan_zeros<T>(in, p.n, p.si, nt);
    if (zeros.negative) restore_zero_signs<T>(in, p.si, out, p.so, p.n, first, zeros);
  }
}

/// argsort of one line by the vectorised sort of key << 32 | position pairs (32-bit keys).
template <class T>
void argsort_pairs(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                   LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  const K flip = descending ? static_cast<K>(~K{0}) : K{0};
  const auto pair_at = [&](int64_t i) {
    return uint64_t{key_of<T>(in, i, p.si, flip)} << 32 | static_cast<uint64_t>(i);
  };
  if (use_halves_merge(p.n, nt)) {  // as sort_keys_to_values, the merge writing positions
    halves_sort_merge(s.pairs.get(p.n), p.n, pair_at, [&](int64_t i, uint64_t pair) {
      at<int64_t>(out, i, p.so) = static_cast<int64_t>(pair & 0xffffffffu);
    });
    return;
  }
  uint64_t* pairs = p.so == int64_t{sizeof(int64_t)} ? reinterpret_cast<uint64_t*>(out)
                                                     : s.pairs.get(p.n);
  const auto positions = [&](int64_t lo, int64_t hi) {  // in place when pairs is out
    for (int64_t i = lo; i < hi; ++i) {
      at<int64_t>(out, i, p.so) = static_cast<int64_t>(pairs[i] & 0xffffffffu);
    }
  };
  vector_sort_into(pairs, p.n, nt, pair_at, positions);
}

/// argsort of one line by the radix sort, positions alongside.
template <class T>
void argsort_radix(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                   LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  read_keys<T>(in, p.n, p.si, descending, nt, s.keys.get(p.n));
  RadixBuffers<K, int64_t> b{s.keys.get(p.n), s.tmp_keys.get(p.n), s.pos.get(p.n),
                             s.tmp_pos.get(p.n)};
  parallel_for(p.n, nt, [&](int64_t i) { b.pay[i] = i; });
  radix_sort(b, p.n, nt);
  parallel_for(p.n, nt, [&](int64_t i) { at<int64_t>(out, i, p.so) = b.pay[i]; });
}

template <class T>
void sort_line(const LinePlan& p, const char* in, char* out, bool descending, bool positions,
               int nt, LineScratch<SortKey<T>>& s) {
  if (!positions) {
    sort_values<T>(p, in, out, descending, nt, s);
    return;
  }
  if constexpr (vector_sortable_v<uint64_t> && sizeof(SortKey<T>) == 4) {
    if (p.n > kInsertionMax && p.n <= (int64_t{1} << 32)) {
      argsort_pairs<T>(p, in, out, descending, nt, s);
      return;
    }
  }
  argsort_radix<T>(p, in, out, descending, nt, s);
}

/// Takes the scratch sort_line uses for one line of p on one thread (it allocates nothing then).
template <class T>
void reserve_line_scratch(const LinePlan& p, bool positions, LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  const bool vector = p.n > kInsertionMax;
  if (!positions && vector && vector_sortable_v<K>) {
    if (p.so != int64_t{sizeof(T)}) s.keys.get(p.n);
    return;
  }
  if (positions && vector && vector_sortable_v<uint64_t> && sizeof(K) == 4 &&
      p.n <= (int64_t{1} << 32)) {
    if (p.so != int64_t{sizeof(int64_t)}) s.pairs.get(p.n);
    return;
  }
  s.keys.get(p.n);
  s.tmp_keys.get(p.n);
  if (positions) {
    s.pos.get(p.n);
    s.tmp_pos.get(p.n);
  }
}

/// Lines gathered into one block when they lie side by side: a cache line of each row.
template <class T>
int64_t block_lines(const LinePlan& p) {
  const bool strided = p.si != int64_t{sizeof(T)} || p.so != int64_t{sizeof(T)};
  return strided && p.n <= kBlockMaxN && p.lines.numel_out > 1 ? 64 / int64_t{sizeof(T)} : 1;
}

/// The same plan over contiguous lines (a block's, in its scratch).
inline LinePlan contiguous(LinePlan p, int64_t in_elem, int64_t out_elem) {
  p.si = in_elem;
  p.so = out_elem;
  return p;
}

/// Sorts `count` lines whose elements lie side by side in `in` and in `out` (a dim of stride 1
/// beside the sorted one): gathered a row at a time into contiguous lines, sorted there and
/// scattered back a row at a time, so each cache line of the strided rows is read and written
/// once, not once per line.
template <class T>
void sort_block(const LinePlan& p, const char* in, char* out, int64_t count, bool descending,
                bool positions, LineScratch<SortKey<T>>& s) {
  const int64_t oe = positions ? int64_t{sizeof(int64_t)} : int64_t{sizeof(T)};
  const LinePlan q = contiguous(p, sizeof(T), oe);
  T* rows = reinterpret_cast<T*>(s.block_in.get(count * p.n));
  char* sorted = reinterpret_cast<char*>(s.block_out.get(count * p.n));
  for (int64_t i = 0; i < p.n; ++i) {
    const T* row = reinterpret_cast<const T*>(in + i * p.si);
    for (int64_t j = 0; j < count; ++j) rows[j * p.n + i] = row[j];
  }
  for (int64_t j = 0; j < count; ++j) {
    sort_line<T>(q, reinterpret_cast<const char*>(rows + j * p.n), sorted + j * p.n * oe,
                 descending, positions, 1, s);
  }
  for (int64_t i = 0; i < p.n; ++i) {
    char* row = out + i * p.so;
    for (int64_t j = 0; j < count; ++j) std::memcpy(row + j * oe, sorted + (j * p.n + i) * oe, oe);
  }
}

/// Sorts group g of `group` lines: as a block when they lie side by side, else line by line.
template <class T>
void sort_group(const LinePlan& p, const char* in, char* out, int64_t g, int64_t group,
                bool descending, bool positions, LineScratch<SortKey<T>>& s) {
  const ReducePlan& rp = p.lines;
  const int64_t first = g * group, count = std::min(group, rp.numel_out - first);
  const int64_t oe = positions ? int64_t{sizeof(int64_t)} : int64_t{sizeof(T)};
  int64_t in0, out0;
  kept_offsets(rp, first, in0, out0);
  bool side_by_side = count > 1;
  for (int64_t j = 1; j < count && side_by_side; ++j) {
    int64_t in_off, out_off;
    kept_offsets(rp, first + j, in_off, out_off);
    side_by_side = in_off == in0 + j * int64_t{sizeof(T)} && out_off == out0 + j * oe;
  }
  if (side_by_side) {
    sort_block<T>(p, in + in0, out + out0, count, descending, positions, s);
    return;
  }
  for (int64_t o = first; o < first + count; ++o) {
    int64_t in_off, out_off;
    kept_offsets(rp, o, in_off, out_off);
    sort_line<T>(p, in + in_off, out + out_off, descending, positions, 1, s);
  }
}

template <class T>
void run_sort(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int64_t dim,
              bool descending, bool positions, const char* op) {
  const int64_t oe = positions ? int64_t{sizeof(int64_t)} : int64_t{sizeof(T)};
  const LinePlan p = make_line_plan(in, out, dim, sizeof(T), op, oe);
  const ReducePlan& rp = p.lines;
  if (rp.numel_out == 0 || p.n == 0) return;
  const char* in_data = static_cast<const char*>(in.data);
  char* out_data = static_cast<char*>(out.data);
  const int nt = threads_for(rp.numel_out * p.n);
  if (rp.numel_out < nt) {  // few long lines: the threads share each line
    LineScratch<SortKey<T>> s;
    for (int64_t o = 0; o < rp.numel_out; ++o) {
      int64_t in_off, out_off;
      kept_offsets(rp, o, in_off, out_off);
      sort_line<T>(p, in_data + in_off, out_data + out_off, descending, positions, nt, s);
    }
    return;
  }
  // Many lines, one a thread (or a block of them): the scratch is taken here, as no exception
  // may leave the parallel region.
  const int64_t group = block_lines<T>(p);
  std::vector<LineScratch<SortKey<T>>> scratch(static_cast<size_t>(nt));
  for (auto& s : scratch) {
    reserve_line_scratch<T>(p, positions, s);
    if (group == 1) continue;
    reserve_line_scratch<T>(contiguous(p, sizeof(T), oe), positions, s);
    s.block_in.get(group * p.n);
    s.block_out.get(group * p.n);
  }
  const int64_t groups = (rp.numel_out + group - 1) / group;
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
  for (int64_t g = 0; g < groups; ++g) {
    sort_group<T>(p, in_data, out_data, g, group, descending, positions,
                  scratch[static_cast<size_t>(omp_get_thread_num())]);
  }
}

void sort_kernel(const ops::sort::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "sort");
  dispatch<kSortMask>(a.self.dtype, "sort", [&](auto tag) {
    run_sort<typename decltype(tag)::type>(a.self, a.out, a.dim, a.descending, false, "sort");
  });
}

void argsort_kernel(const ops::argsort::Args& a) {
  dispatch<kSortMask>(a.self.dtype, "argsort", [&](auto tag) {
    run_sort<typename decltype(tag)::type>(a.self, a.out, a.dim, a.descending, true, "argsort");
  });
}

}  // namespace

kf_status_t register_sort_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, sort, sort_kernel, kSortMask);
  KF_CPU_KERNEL(reg, argsort, argsort_kernel, kSortMask);
  return KF_OK;
}

}  // namespace kf::cpu
