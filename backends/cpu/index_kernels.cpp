// index_kernels.cpp — index_select, gather, index_copy_, index_add_ and fill_.
//
// Contract: every index is checked against the size of self along dim before self is read at
// it (index_select checks them all first, gather each one as it goes); an index outside
// 0..size-1 is KF_INVALID_ARGUMENT naming the value, its position and the valid range (PyTorch
// takes no negative indices in these ops). Self, index and out may be any strided views (0-dim
// ones count as one element of one dim). The meta rules (dispatcher/meta/index_meta.cpp)
// checked dtypes and shapes; the kernel is picked for self's dtype, and the index keeps its own
// (int64, or int32 for index_select and index_copy_).
//
// index_copy_ writes source's entries along dim into self at the index's positions (into a
// copy of self when the output is not self: the CPU fallback runs in-place ops on new outputs).
// Where the index names one position twice, the later entry is written, as in a serial loop:
// threads split the rows outside dim, or the positions along dim (each thread then reads the
// whole index and writes only its own positions), never the index's entries. index_add_ walks
// the same way and adds alpha times each entry instead, so a position named twice gets both
// entries, added in index order on every thread count.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "dense.hpp"
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "kernforge/index_errors.hpp"
#include "parallel.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kIndexMask = kAllMask;
constexpr uint32_t kIndexAddMask = kNumericMask | kComplexMask;  // a sum: every dtype but bool

/// The values of a 0-dim or 1-D int32/int64 index, each checked against a size: a contiguous
/// int64 index is read where it lies, any other one is copied to int64 first.
class Indices {
 public:
  Indices(const kf_tensor_view_t& index, int32_t dim, int64_t size) {
    n_ = index.numel;
    const int64_t stride = index.ndim == 1 ? index.strides[0] : 0;
    if (index.dtype == KF_INT64 && (stride == 1 || n_ <= 1)) {
      data_ = static_cast<const int64_t*>(index.data);
    } else {
      copy_.resize(static_cast<size_t>(n_));
      if (index.dtype == KF_INT32) {
        widen(static_cast<const int32_t*>(index.data), stride);
      } else {
        widen(static_cast<const int64_t*>(index.data), stride);
      }
      data_ = copy_.data();
    }
    check(dim, size);
  }
  int64_t size() const { return n_; }
  const int64_t* data() const { return data_; }
  int64_t operator[](int64_t j) const { return data_[j]; }

 private:
  template <class I>
  void widen(const I* p, int64_t stride) {
    for (int64_t i = 0; i < n_; ++i) {
      copy_[static_cast<size_t>(i)] = static_cast<int64_t>(p[i * stride]);
    }
  }
  /// The least and greatest index in one parallel read that vectorises; the first bad one is
  /// looked for only when there is one.
  void check(int32_t dim, int64_t size) const {
    int64_t lo = 0, hi = 0;
    if (n_ > 0) lo = hi = data_[0];
    const int nt = threads_for(n_);
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static) reduction(min : lo) \
    reduction(max : hi)
    for (int64_t i = 0; i < n_; ++i) {
      lo = std::min(lo, data_[i]);
      hi = std::max(hi, data_[i]);
    }
    if (lo >= 0 && hi < size) return;
    for (int64_t i = 0; i < n_; ++i) {
      if (data_[i] < 0 || data_[i] >= size)
        throw kf::plugin::index_out_of_range(data_[i], i, dim, size);
    }
  }

  int64_t n_ = 0;
  const int64_t* data_ = nullptr;
  std::vector<int64_t> copy_;
};

/// `v` without dim `dim`, starting `at` elements of size `esize` into it.
kf_tensor_view_t drop_dim(const kf_tensor_view_t& v, int32_t dim, int64_t at, int64_t esize,
                          int64_t* shape, int64_t* strides) {
  kf_tensor_view_t r = v;
  r.data = static_cast<char*>(v.data) + at * v.strides[dim] * esize;
  r.ndim = v.ndim - 1;
  r.numel = 1;
  for (int32_t d = 0, k = 0; d < v.ndim; ++d) {
    if (d == dim) continue;
    shape[k] = v.shape[d];
    strides[k++] = v.strides[d];
    r.numel *= v.shape[d];
  }
  r.shape = shape;
  r.strides = strides;
  return r;
}

// Note [gather ahead]
// A 1-D gather of random positions waits on memory for nearly every element, and the core
// overlaps only the misses its reorder window holds. So each step prefetches the source element
// kGatherAhead positions later: index_select of 16M float32 at a random permutation went from
// 105 to 92 ms on 2 threads of the Xeon of docs/benchmarks.md (16 and 128 ahead: 99 ms).
constexpr int64_t kGatherAhead = 64;

// Dense self and out: out is outer x k x inner, self outer x size x inner; one memcpy a row.
template <class T>
void select_dense(const kf_tensor_view_t& out, const kf_tensor_view_t& self, int32_t dim,
                  const Indices& idx) {
  int64_t outer = 1, inner = 1;
  for (int32_t d = 0; d < dim; ++d) outer *= self.shape[d];
  for (int32_t d = dim + 1; d < self.ndim; ++d) inner *= self.shape[d];
  const int64_t k = idx.size(), size = self.shape[dim];
  const T* src = static_cast<const T*>(self.data);
  T* dst = static_cast<T*>(out.data);
  const int64_t rows = outer * k;
  const int nt = threads_for(rows * inner);
  if (inner == 1 && outer == 1) {  // a gather, not a memcpy call per element
    const int64_t* ix = idx.data();
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t j = 0; j < k; ++j) {
      if (j + kGatherAhead < k) __builtin_prefetch(src + ix[j + kGatherAhead]);
      dst[j] = src[ix[j]];
    }
    return;
  }
  if (inner == 1) {  // one element a row: a gather per outer index
    const int64_t* ix = idx.data();
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t o = 0; o < outer; ++o) {
      T* d = dst + o * k;
      const T* s = src + o * size;
      for (int64_t j = 0; j < k; ++j) d[j] = s[ix[j]];
    }
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t o = r / k, j = r % k;
    std::memcpy(dst + r * inner, src + (o * size + idx[j]) * inner,
                static_cast<size_t>(inner) * sizeof(T));
  }
}

template <class T>
void select_into(const kf_tensor_view_t& out, const kf_tensor_view_t& self, int32_t dim,
                 const Indices& idx) {
  if (self.ndim == 0) {
    *static_cast<T*>(out.data) = elem(static_cast<const T*>(self.data));
    return;
  }
  // Bool rows are not copied as bytes: they are read as != 0 (Note [Bool bytes]).
  if (!std::is_same_v<T, bool> && is_dense(out) && is_dense(self)) {
    return select_dense<T>(out, self, dim, idx);
  }
  int64_t s_shape[KF_MAX_NDIM], s_strides[KF_MAX_NDIM], o_shape[KF_MAX_NDIM],
      o_strides[KF_MAX_NDIM];
  for (int64_t j = 0; j < idx.size(); ++j) {
    const kf_tensor_view_t src = drop_dim(self, dim, idx[j], sizeof(T), s_shape, s_strides);
    const kf_tensor_view_t dst = drop_dim(out, dim, j, sizeof(T), o_shape, o_strides);
    map1<T, T>(dst, src, [](T v) { return v; });
  }
}

void index_select_kernel(const ops::index_select::Args& a) {
  const int32_t nd = a.self.ndim;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + (nd > 0 ? nd : 1) : a.dim);
  const int64_t size = nd > 0 ? a.self.shape[dim] : 1;
  const Indices idx(a.index, dim, size);
  if (a.out.numel == 0) return;
  dispatch<kIndexMask>(a.out.dtype, "index_select", [&](auto tag) {
    select_into<typename decltype(tag)::type>(a.out, a.self, dim, idx);
  });
}

// Note [gather's loop]: over the rows of index's last dim (out has index's shape). Each row
// finds its coordinates once; along the row the positions advance by the last dim's strides.
// An index is checked before self is read at it; a bad one stops its row and raises a flag,
// and the first bad one (in row-major order) is reported after the loop.
struct GatherGeom {
  int32_t nd, dim;
  int64_t shape[KF_MAX_NDIM], is[KF_MAX_NDIM], ss[KF_MAX_NDIM], os[KF_MAX_NDIM];
  int64_t size;  // self's size along dim
};

GatherGeom gather_geom(const ops::gather::Args& a) {
  GatherGeom g{};
  g.nd = a.index.ndim > 0 ? a.index.ndim : 1;
  const int32_t snd = a.self.ndim;
  g.dim = static_cast<int32_t>(a.dim < 0 ? a.dim + g.nd : a.dim);
  for (int32_t d = 0; d < g.nd; ++d) {
    g.shape[d] = a.index.ndim > 0 ? a.index.shape[d] : 1;
    g.is[d] = a.index.ndim > 0 ? a.index.strides[d] : 0;
    g.os[d] = a.out.ndim > 0 ? a.out.strides[d] : 0;
    g.ss[d] = snd > 0 ? a.self.strides[d] : 0;
  }
  g.size = snd > 0 ? a.self.shape[g.dim] : 1;
  return g;
}

template <class T>
void gather_rows(const ops::gather::Args& a, const GatherGeom& g) {
  const int32_t last = g.nd - 1;
  const int64_t len = g.shape[last];
  const int64_t rows = a.out.numel / len;
  const int64_t* index = static_cast<const int64_t*>(a.index.data);
  const T* self = static_cast<const T*>(a.self.data);
  T* out = static_cast<T*>(a.out.data);
  std::atomic<bool> bad{false};
  const int nt = threads_for(a.out.numel);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rem = r, ip = 0, sp = 0, op = 0;
    for (int32_t d = last - 1; d >= 0; --d) {
      const int64_t c = rem % g.shape[d];
      rem /= g.shape[d];
      ip += c * g.is[d];
      op += c * g.os[d];
      if (d != g.dim) sp += c * g.ss[d];
    }
    // Along the row the self position moves with j (last != dim) or only with the index.
    const int64_t step = last == g.dim ? 0 : g.ss[last], scale = g.ss[g.dim];
    for (int64_t j = 0; j < len; ++j) {
      const int64_t v = index[ip + j * g.is[last]];
      if (v < 0 || v >= g.size) {
        bad.store(true, std::memory_order_relaxed);
        break;
      }
      out[op + j * g.os[last]] = elem(self, sp + j * step + v * scale);
    }
  }
  if (!bad.load()) return;
  for (int64_t i = 0; i < a.index.numel; ++i) {  // the first bad index, for the message
    int64_t rem = i, ip = 0;
    for (int32_t d = last; d >= 0; --d) {
      ip += (rem % g.shape[d]) * g.is[d];
      rem /= g.shape[d];
    }
    if (index[ip] < 0 || index[ip] >= g.size)
      throw kf::plugin::index_out_of_range(index[ip], i, g.dim, g.size);
  }
}

void gather_kernel(const ops::gather::Args& a) {
  if (a.out.numel == 0) return;
  const GatherGeom g = gather_geom(a);
  dispatch<kIndexMask>(a.out.dtype, "gather", [&](auto tag) {
    gather_rows<typename decltype(tag)::type>(a, g);
  });
}

/// The walk index_copy_ and index_add_ share over a dense out and source (out outer x size x
/// inner, source outer x k x inner): put(d, s) for each index entry j, with d the row of out at
/// position idx[j] and s the row j of source, in index order for each position. Threads split
/// the rows outside dim, or the positions along dim (each thread reads the whole index and
/// touches only its own positions), never the index's entries.
template <class T, class Put>
void for_each_dense_row(const kf_tensor_view_t& out, const kf_tensor_view_t& source,
                        int32_t dim, const Indices& idx, Put put) {
  int64_t outer = 1, inner = 1;
  for (int32_t d = 0; d < dim; ++d) outer *= out.shape[d];
  for (int32_t d = dim + 1; d < out.ndim; ++d) inner *= out.shape[d];
  const int64_t k = idx.size(), size = out.shape[dim];
  T* dst = static_cast<T*>(out.data);
  const T* src = static_cast<const T*>(source.data);
  const int64_t* ix = idx.data();
  const int nt = threads_for(outer * k * inner);
  auto row = [&](int64_t o, int64_t j) {
    put(dst + (o * size + ix[j]) * inner, src + (o * k + j) * inner, inner);
  };
  if (outer >= 4 * nt) {
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < k; ++j) row(o, j);
    }
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static, 1)
  for (int t = 0; t < nt; ++t) {  // thread t touches the positions [lo, hi) along dim
    const int64_t lo = size * t / nt, hi = size * (t + 1) / nt;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < k; ++j) {
        if (ix[j] >= lo && ix[j] < hi) row(o, j);
      }
    }
  }
}

/// index_copy_ of a dense self and source.
template <class T>
void copy_dense(const ops::index_copy_::Args& a, int32_t dim, const Indices& idx) {
  for_each_dense_row<T>(a.out, a.source, dim, idx, [](T* d, const T* s, int64_t n) {
    if (n == 1) {
      *d = *s;
    } else {
      std::memcpy(d, s, static_cast<size_t>(n) * sizeof(T));
    }
  });
}

template <class T>
void copy_into(const ops::index_copy_::Args& a, int32_t dim, const Indices& idx) {
  if (a.out.ndim == 0) {
    *static_cast<T*>(a.out.data) = elem(static_cast<const T*>(a.source.data));
    return;
  }
  // Bool rows are not copied as bytes: they are read as != 0 (Note [Bool bytes]).
  if (!std::is_same_v<T, bool> && is_dense(a.out) && is_dense(a.source)) {
    return copy_dense<T>(a, dim, idx);
  }
  int64_t s_shape[KF_MAX_NDIM], s_strides[KF_MAX_NDIM], o_shape[KF_MAX_NDIM],
      o_strides[KF_MAX_NDIM];
  for (int64_t j = 0; j < idx.size(); ++j) {
    const kf_tensor_view_t src = drop_dim(a.source, dim, j, sizeof(T), s_shape, s_strides);
    const kf_tensor_view_t dst = drop_dim(a.out, dim, idx[j], sizeof(T), o_shape, o_strides);
    map1<T, T>(dst, src, [](T v) { return v; });
  }
}

// Called in place, out is self. Called for a new out (the CPU fallback of a device without the
// kernel runs the op functionally on copies), out starts as a copy of self.
void index_copy__kernel(const ops::index_copy_::Args& a) {
  const int32_t nd = a.out.ndim;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + (nd > 0 ? nd : 1) : a.dim);
  const Indices idx(a.index, dim, nd > 0 ? a.out.shape[dim] : 1);
  dispatch<kIndexMask>(a.out.dtype, "index_copy_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (a.out.data != a.self.data) map1<T, T>(a.out, a.self, [](T v) { return v; });
    if (a.source.numel > 0) copy_into<T>(a, dim, idx);
  });
}

/// index_add_ of a dense self and source: alpha times each entry, in index order per position.
template <class T>
void add_dense(const ops::index_add_::Args& a, int32_t dim, const Indices& idx) {
  const OpMath<T> alpha = scalar_to_opmath<T>(a.alpha);
  for_each_dense_row<T>(a.out, a.source, dim, idx, [alpha](T* d, const T* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      d[i] = convert<T>(convert<OpMath<T>>(d[i]) + alpha * convert<OpMath<T>>(s[i]));
    }
  });
}

template <class T>
void add_into(const ops::index_add_::Args& a, int32_t dim, const Indices& idx) {
  const OpMath<T> alpha = scalar_to_opmath<T>(a.alpha);
  auto plus = [alpha](T o, T s) {
    return convert<T>(convert<OpMath<T>>(o) + alpha * convert<OpMath<T>>(s));
  };
  if (a.out.ndim == 0) {
    T* o = static_cast<T*>(a.out.data);
    *o = plus(*o, elem(static_cast<const T*>(a.source.data)));
    return;
  }
  if (is_dense(a.out) && is_dense(a.source)) return add_dense<T>(a, dim, idx);
  int64_t s_shape[KF_MAX_NDIM], s_strides[KF_MAX_NDIM], o_shape[KF_MAX_NDIM],
      o_strides[KF_MAX_NDIM];
  for (int64_t j = 0; j < idx.size(); ++j) {  // in index order: repeats add up in that order
    const kf_tensor_view_t src = drop_dim(a.source, dim, j, sizeof(T), s_shape, s_strides);
    const kf_tensor_view_t dst = drop_dim(a.out, dim, idx[j], sizeof(T), o_shape, o_strides);
    map2<T, T, T>(dst, dst, src, plus);
  }
}

// Called in place, out is self; for a new out (the CPU fallback), out starts as a copy of self.
void index_add__kernel(const ops::index_add_::Args& a) {
  const int32_t nd = a.out.ndim;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + (nd > 0 ? nd : 1) : a.dim);
  const Indices idx(a.index, dim, nd > 0 ? a.out.shape[dim] : 1);
  dispatch<kIndexAddMask>(a.out.dtype, "index_add_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (a.out.data != a.self.data) map1<T, T>(a.out, a.self, [](T v) { return v; });
    if (a.source.numel > 0) add_into<T>(a, dim, idx);
  });
}

void fill__kernel(const ops::fill_::Args& a) {
  dispatch<kIndexMask>(a.out.dtype, "fill_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T value = scalar_to<T>(a.value);
    map0<T>(a.out, [value] { return value; });
  });
}

}  // namespace

kf_status_t register_index_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, index_select, index_select_kernel, kIndexMask);
  KF_CPU_KERNEL(reg, gather, gather_kernel, kIndexMask);
  KF_CPU_KERNEL(reg, index_copy_, index_copy__kernel, kIndexMask);
  KF_CPU_KERNEL(reg, index_add_, index_add__kernel, kIndexAddMask);
  KF_CPU_KERNEL(reg, fill_, fill__kernel, kIndexMask);
  return KF_OK;
}

}  // namespace kf::cpu
