// sort_kernels.cpp — sort and argsort along one dim, for every dtype with an order.
//
// Each line along dim is read into keys (radix_sort.hpp: NaN above +inf, -0 equal to +0,
// complemented for descending), sorted stably with its positions alongside for argsort, and
// written back as values or as int64 positions. Every sort is stable, so `stable=False` sorts
// the same way. sort writes each zero's own sign back: the zeros of a line form one run in the
// result, in their input order, so the run takes the input's zero signs in turn; NaNs come out
// as a NaN of the type. Many lines: one line a thread; few long lines: the threads share each
// line's passes.
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

/// Reads line `in` (n elements at byte stride si) into s.keys; true when it holds a -0.
template <class T>
bool read_keys(const char* in, int64_t n, int64_t si, bool descending, int nt,
               LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  K* keys = s.keys.get(n);
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

template <class T>
void sort_line(const LinePlan& p, const char* in, char* out, bool descending, bool positions,
               int nt, LineScratch<SortKey<T>>& s) {
  using K = SortKey<T>;
  const bool neg_zero = read_keys<T>(in, p.n, p.si, descending, nt, s);
  RadixBuffers<K, int64_t> b{s.keys.get(p.n), s.tmp_keys.get(p.n), nullptr, nullptr};
  if (positions) {
    b.pay = s.pos.get(p.n);
    b.tmp_pay = s.tmp_pos.get(p.n);
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
    for (int64_t i = 0; i < p.n; ++i) b.pay[i] = i;
  }
  radix_sort(b, p.n, nt);
  if (positions) {
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
    for (int64_t i = 0; i < p.n; ++i) at<int64_t>(out, i, p.so) = b.pay[i];
  } else {
    write_values<T>(in, out, p, b.keys, descending, neg_zero, nt, s);
  }
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
  KF_REGISTER_KERNEL(reg, sort, sort_kernel, kSortMask);
  KF_REGISTER_KERNEL(reg, argsort, argsort_kernel, kSortMask);
  return KF_OK;
}

}  // namespace kf::cpu
