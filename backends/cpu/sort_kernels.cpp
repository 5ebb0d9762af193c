// sort_kernels.cpp — sort and argsort along one dim, for every dtype with an order.
//
// Each line along dim is read into keys (radix_sort.hpp: NaN above +inf, -0 equal to +0,
// complemented for descending), sorted, and written back as values or as int64 positions.
// Every sort is stable, so `stable=False` sorts the same way:
//  - sort's values: equal keys are equal values, so any order of them gives the stable result.
//    32- and 64-bit keys go through the vectorised sort (vector_sort.hpp), in the output's own
//    memory when its line is contiguous; 8- and 16-bit keys through the radix sort;
//  - argsort's positions: the 32-bit keys of a line of up to 2^32 elements become 64-bit pairs
//    key << 32 | position, all distinct, whose vectorised sort is the stable order (in the
//    int64 output's own memory); 8-, 16- and 64-bit keys through the radix sort, positions
//    alongside.
// sort writes each zero's own sign back: the zeros of a line form one run in the result, in
// their input order, so the run takes the input's zero signs in turn; NaNs come out as a NaN of
// the type. Many lines: one line a thread; few long lines: the threads share each line's work.
#include <cmath>
#include <memory>
#include <vector>

#include "dtype_dispatch.hpp"
#include "element_read.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "line_plan.hpp"
#include "radix_sort.hpp"
#include "reduce_plan.hpp"
#include "strided.hpp"
#include "vector_sort.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kSortMask = kOrderedMask;

/// n uninitialised elements, kept for the next line (no zero-filling of 16M keys).
template <class V>
class Buffer {
 public:
  V* get(int64_t n) {
    if (n > capacity_) {
      data_.reset(new V[static_cast<size_t>(n)]);
      capacity_ = n;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<V[]> data_;
  int64_t capacity_ = 0;
};

/// The scratch of one line (reused across the lines one thread sorts).
template <class K>
struct LineScratch {
  Buffer<K> keys, tmp_keys;
  Buffer<int64_t> pos, tmp_pos;
  Buffer<uint64_t> pairs;
  std::vector<uint8_t> zero_signs;
};

template <class T>
bool is_negative_zero(T v) {
  if constexpr (is_float_key_v<T>) {
    const auto f = load(v);
    return f == 0 && std::signbit(f);
  } else {
    return false;
  }
}

/// Reads line `in` (n elements at byte stride si) into keys; true when it holds a -0.
template <class T>
bool read_keys(const char* in, int64_t n, int64_t si, bool descending, int nt,
               SortKey<T>* keys) {
  using K = SortKey<T>;
  bool neg_zero = false;
  const K flip = descending ? static_cast<K>(~K{0}) : K{0};
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static) reduction(| : neg_zero)
  for (int64_t i = 0; i < n; ++i) {
    const T v = elem(reinterpret_cast<const T*>(in + i * si));  // bool bytes read as != 0
    neg_zero |= is_negative_zero(v);
    keys[i] = static_cast<K>(sort_key(v) ^ flip);
  }
  return neg_zero;
}

/// The key of element i of line `in` (byte stride si), complemented when descending.
template <class T>
SortKey<T> key_of(const char* in, int64_t i, int64_t si, SortKey<T> flip) {
  const T v = elem(reinterpret_cast<const T*>(in + i * si));  // bool bytes read as != 0
  return static_cast<SortKey<T>>(sort_key(v) ^ flip);
}

/// True when line `in` holds a -0 (never for a type without signed zeros).
template <class T>
bool has_negative_zero(const char* in, int64_t n, int64_t si, int nt) {
  if constexpr (!is_float_key_v<T>) {
    return false;
  } else {
    bool found = false;
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static) reduction(| : found)
    for (int64_t i = 0; i < n; ++i) {
      found |= is_negative_zero(*reinterpret_cast<const T*>(in + i * si));
    }
    return found;
  }
}

/// Writes the sorted values of one line: zeros take the input's zero signs in their order.
template <class T>
void write_values(const char* in, char* out, const LinePlan& p, const SortKey<T>* keys,
                  bool descending, bool neg_zero, int nt, LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  const K flip = descending ? static_cast<K>(~K{0}) : K{0};
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
  for (int64_t i = 0; i < p.n; ++i) at<T>(out, i, p.so) = from_sort_key<T>(K(keys[i] ^ flip));
  if (!neg_zero) return;
  s.zero_signs.clear();
  for (int64_t i = 0; i < p.n; ++i) {
    const T v = *reinterpret_cast<const T*>(in + i * p.si);
    if (load(v) == 0) s.zero_signs.push_back(is_negative_zero(v) ? 1 : 0);
  }
  size_t z = 0;
  for (int64_t i = 0; i < p.n && z < s.zero_signs.size(); ++i) {
    T& o = at<T>(out, i, p.so);
    if (load(o) == 0 && s.zero_signs[z++] != 0) o = convert<T>(-0.0);
  }
}

/// sort's values of one line.
template <class T>
void sort_values(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                 LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  if constexpr (vector_sortable_v<K>) {
    if (p.n > kInsertionMax) {
      const K flip = descending ? static_cast<K>(~K{0}) : K{0};
      K* keys = p.so == int64_t{sizeof(T)} ? reinterpret_cast<K*>(out) : s.keys.get(p.n);
      vector_sort_into(keys, p.n, nt, [&](int64_t i) { return key_of<T>(in, i, p.si, flip); });
      const bool neg_zero = has_negative_zero<T>(in, p.n, p.si, nt);
      write_values<T>(in, out, p, keys, descending, neg_zero, nt, s);
      return;
    }
  }
  const bool neg_zero = read_keys<T>(in, p.n, p.si, descending, nt, s.keys.get(p.n));
  RadixBuffers<K, int64_t> b{s.keys.get(p.n), s.tmp_keys.get(p.n), nullptr, nullptr};
  radix_sort(b, p.n, nt);
  write_values<T>(in, out, p, b.keys, descending, neg_zero, nt, s);
}

/// argsort of one line by the vectorised sort of key << 32 | position pairs (32-bit keys).
template <class T>
void argsort_pairs(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                   LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  const K flip = descending ? static_cast<K>(~K{0}) : K{0};
  uint64_t* pairs = p.so == int64_t{sizeof(int64_t)} ? reinterpret_cast<uint64_t*>(out)
                                                     : s.pairs.get(p.n);
  vector_sort_into(pairs, p.n, nt, [&](int64_t i) {
    return uint64_t{key_of<T>(in, i, p.si, flip)} << 32 | static_cast<uint64_t>(i);
  });
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
  for (int64_t i = 0; i < p.n; ++i) {
    at<int64_t>(out, i, p.so) = static_cast<int64_t>(pairs[i] & 0xffffffffu);
  }
}

/// argsort of one line by the radix sort, positions alongside.
template <class T>
void argsort_radix(const LinePlan& p, const char* in, char* out, bool descending, int nt,
                   LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  read_keys<T>(in, p.n, p.si, descending, nt, s.keys.get(p.n));
  RadixBuffers<K, int64_t> b{s.keys.get(p.n), s.tmp_keys.get(p.n), s.pos.get(p.n),
                             s.tmp_pos.get(p.n)};
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
  for (int64_t i = 0; i < p.n; ++i) b.pay[i] = i;
  radix_sort(b, p.n, nt);
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
  for (int64_t i = 0; i < p.n; ++i) at<int64_t>(out, i, p.so) = b.pay[i];
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

template <class T>
void run_sort(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int64_t dim,
              bool descending, bool positions, const char* op) {
  const LinePlan p = make_line_plan(in, out, dim, sizeof(T), op,
                                    positions ? int64_t{sizeof(int64_t)} : int64_t{sizeof(T)});
  const ReducePlan& rp = p.lines;
  if (rp.numel_out == 0 || p.n == 0) return;
  const char* in_data = static_cast<const char*>(in.data);
  char* out_data = static_cast<char*>(out.data);
  const int nt = threads_for(rp.numel_out * p.n);
  auto line = [&](int64_t o, int line_threads, LineScratch<SortKey<T>>& s) {
    int64_t in_off, out_off;
    kept_offsets(rp, o, in_off, out_off);
    sort_line<T>(p, in_data + in_off, out_data + out_off, descending, positions, line_threads, s);
  };
  if (rp.numel_out < nt) {  // few long lines: the threads share each line
    LineScratch<SortKey<T>> s;
    for (int64_t o = 0; o < rp.numel_out; ++o) line(o, nt, s);
    return;
  }
#pragma omp parallel num_threads(nt)
  {
    LineScratch<SortKey<T>> s;
#pragma omp for schedule(static)
    for (int64_t o = 0; o < rp.numel_out; ++o) line(o, 1, s);
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
