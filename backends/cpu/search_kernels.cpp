// search_kernels.cpp — nonzero_static and searchsorted.
//
// nonzero_static: the coordinates of self's nonzero elements (NaN is nonzero; a complex number
// is nonzero when either part is; a bool byte when it is not 0) in row-major order, the first
// `size` of them, the rows past the count set to fill_value. Threads take contiguous chunks of
// the row-major positions: each counts its chunk, then writes from its offset, so the order is
// the serial one. A contiguous self is read by position, with no jump on the values.
//
// searchsorted: for each element v of self, the position in the ascending 1-D sequence where v
// would be inserted: before the values equal to it (right=False) or after them. Both come in
// their promoted dtype (the meta asks the core to convert them); they are compared by sort's
// keys (radix_sort.hpp), so NaN sorts above +inf and -0 equals +0 as in sort.
#include <algorithm>
#include <vector>

#include "dense.hpp"
#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "parallel.hpp"
#include "radix_sort.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kNonzeroMask = kAllMask;
constexpr uint32_t kSearchMask = kOrderedMask;

template <class T>
bool is_nonzero(const T* p, int64_t offset) {
  const T v = elem(p, offset);
  if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else if constexpr (is_complex_v<T>) {
    return v.real() != 0 || v.imag() != 0;
  } else {
    return load(v) != 0;
  }
}

/// Row-major position -> element offset of `t` and its coordinates.
struct Cursor {
  int32_t nd;
  const int64_t* shape;
  const int64_t* strides;
  int64_t coord[KF_MAX_NDIM];
  int64_t offset = 0;

  Cursor(const kf_tensor_view_t& t, int64_t flat) : nd(t.ndim), shape(t.shape), strides(t.strides) {
    for (int32_t d = nd - 1; d >= 0; --d) {
      coord[d] = flat % shape[d];
      flat /= shape[d];
      offset += coord[d] * strides[d];
    }
  }
  void next() {
    for (int32_t d = nd - 1; d >= 0; --d) {
      offset += strides[d];
      if (++coord[d] < shape[d]) return;
      offset -= coord[d] * strides[d];
      coord[d] = 0;
    }
  }
};

/// Writes row k of out: the coordinates of row-major position `flat` of a tensor of `shape`.
inline void write_coords(int64_t* out, int64_t k, int64_t rs, int64_t cs, int64_t nd,
                         const int64_t* shape, int64_t flat) {
  for (int64_t d = nd - 1; d >= 0; --d) {
    out[k * rs + d * cs] = flat % shape[d];
    flat /= shape[d];
  }
}

/// The nonzero elements of contiguous self among positions [lo, hi): how many, as a sum that
/// vectorises.
template <class T>
int64_t count_dense(const T* self, int64_t lo, int64_t hi) {
  int64_t k = 0;
  for (int64_t i = lo; i < hi; ++i) k += is_nonzero(self, i) ? 1 : 0;
  return k;
}

/// Rows k, k+1, ... of out for the nonzero elements of contiguous self among [lo, hi), up to row
/// `size`. Every position is written to a local run and only a nonzero one moves the run's end
/// on, so nothing branches on the values (in a random mask a jump per element is mispredicted
/// every other time); a full run is written out as coordinates.
template <class T>
void write_dense(const T* self, int64_t lo, int64_t hi, int64_t k, int64_t size, int64_t* out,
                 int64_t rs, int64_t cs, int64_t nd, const int64_t* shape) {
  constexpr int64_t kRun = 1024;
  int64_t run[kRun + 1];  // one spare place for the position after the last nonzero one
  int64_t filled = 0;
  auto flush = [&] {
    for (int64_t j = 0; j < filled && k < size; ++j, ++k) {
      if (nd == 1) {
        out[k * rs] = run[j];
      } else {
        write_coords(out, k, rs, cs, nd, shape, run[j]);
      }
    }
    filled = 0;
  };
  for (int64_t i = lo; i < hi && k < size; ++i) {
    run[filled] = i;
    filled += is_nonzero(self, i) ? 1 : 0;
    if (filled == kRun) flush();
  }
  flush();
}

/// nonzero_static of a row-major contiguous self.
template <class T>
void nonzero_dense(const ops::nonzero_static::Args& a) {
  const T* self = static_cast<const T*>(a.self.data);
  const int64_t n = a.self.numel, size = a.size, nd = a.self.ndim;
  int64_t* out = static_cast<int64_t*>(a.out.data);
  const int64_t rs = a.out.strides[0], cs = nd > 0 ? a.out.strides[1] : 0;
  const int nt = threads_for(n);
  std::vector<int64_t> first(static_cast<size_t>(nt) + 1, 0);
  if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; ++t) {
      first[static_cast<size_t>(t) + 1] = count_dense(self, n * t / nt, n * (t + 1) / nt);
    }
    for (int t = 0; t < nt; ++t) first[static_cast<size_t>(t) + 1] += first[static_cast<size_t>(t)];
  } else {
    first[1] = count_dense(self, 0, n);
  }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
  for (int t = 0; t < nt; ++t) {
    write_dense(self, n * t / nt, n * (t + 1) / nt, first[static_cast<size_t>(t)], size, out, rs,
                cs, nd, a.self.shape);
  }
  for (int64_t k = first[static_cast<size_t>(nt)]; k < size; ++k) {
    for (int64_t d = 0; d < nd; ++d) out[k * rs + d * cs] = a.fill_value;
  }
}

template <class T>
void nonzero_rows(const ops::nonzero_static::Args& a) {
  const T* self = static_cast<const T*>(a.self.data);
  const int64_t n = a.self.numel, size = a.size, nd = a.self.ndim;
  int64_t* out = static_cast<int64_t*>(a.out.data);
  const int64_t rs = a.out.strides[0], cs = nd > 0 ? a.out.strides[1] : 0;
  const int nt = threads_for(n);
  std::vector<int64_t> first(static_cast<size_t>(nt) + 1, 0);
  auto chunk = [&](int t, bool write) {
    const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    if (lo >= hi) return;
    Cursor c(a.self, lo);
    int64_t k = write ? first[static_cast<size_t>(t)] : 0;
    for (int64_t i = lo; i < hi; ++i, c.next()) {
      if (!is_nonzero(self, c.offset)) continue;
      if (write && k < size) {
        for (int64_t d = 0; d < nd; ++d) out[k * rs + d * cs] = c.coord[d];
      }
      ++k;
    }
    if (!write || t == nt - 1) first[static_cast<size_t>(t) + 1] = k;
  };
  if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int t = 0; t < nt; ++t) chunk(t, false);
    for (int t = 0; t < nt; ++t) first[static_cast<size_t>(t) + 1] += first[static_cast<size_t>(t)];
  }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
  for (int t = 0; t < nt; ++t) chunk(t, true);
  for (int64_t k = first[static_cast<size_t>(nt)]; k < size; ++k) {
    for (int64_t d = 0; d < nd; ++d) out[k * rs + d * cs] = a.fill_value;
  }
}

void nonzero_static_kernel(const ops::nonzero_static::Args& a) {
  dispatch<kNonzeroMask>(a.self.dtype, "nonzero_static", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (a.self.ndim > 0 && is_dense(a.self)) {
      nonzero_dense<T>(a);
    } else {
      nonzero_rows<T>(a);
    }
  });
}

template <class T>
void search(const ops::searchsorted::Args& a) {
  using K = SortKey<T>;
  const kf_tensor_view_t& seq = a.sorted_sequence;
  std::vector<K> keys(static_cast<size_t>(seq.numel));
  const T* s = static_cast<const T*>(seq.data);
  for (int64_t i = 0; i < seq.numel; ++i) {
    keys[static_cast<size_t>(i)] = sort_key(elem(s, i * seq.strides[0]));
  }
  const bool right = a.right;
  map1<int64_t, T>(a.out, a.self, [&](T v) {
    const K k = sort_key(v);
    const auto it = right ? std::upper_bound(keys.begin(), keys.end(), k)
                          : std::lower_bound(keys.begin(), keys.end(), k);
    return static_cast<int64_t>(it - keys.begin());
  });
}

void searchsorted_kernel(const ops::searchsorted::Args& a) {
  require_dtype(a.sorted_sequence, a.self.dtype, "sorted_sequence", "searchsorted");
  dispatch<kSearchMask>(a.self.dtype, "searchsorted", [&](auto tag) {
    search<typename decltype(tag)::type>(a);
  });
}

}  // namespace

kf_status_t register_search_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, nonzero_static, nonzero_static_kernel, kNonzeroMask);
  KF_CPU_KERNEL(reg, searchsorted, searchsorted_kernel, kSearchMask);
  return KF_OK;
}

}  // namespace kf::cpu
