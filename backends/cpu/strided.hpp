// strided.hpp — N-d strided iteration for pointwise kernels.
//
// A StridedPlan<N> walks the output's index space for N operands (operand 0 is the output,
// then the inputs) with per-operand byte strides. make_plan drops size-1 dims, orders the dims
// by the output's strides (so a transposed output is written in memory order) and merges dims
// that are contiguous for every operand, so a contiguous op becomes one row. Rows are handed to
// a row function `row(char* const* ptrs, const int64_t* strides, int64_t n)`; map1/map2/map3
// build such rows from an element function, with fast paths for contiguous operands and
// zero-stride (broadcast scalar) inputs that the compiler auto-vectorises. Work above
// kParallelGrain elements is split over OpenMP threads by linear range.
//
// Inputs with fewer dims than the output are aligned to the right (missing dims broadcast).
// Inputs are read through elem (element_read.hpp): a bool as its byte != 0.
// Nothing here allocates or locks; row functions must not throw.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "element_read.hpp"
#include "kernforge/plugin.hpp"
#include "parallel.hpp"

namespace kf::cpu {

/// An iteration space of N operands: dims innermost first, strides in bytes.
template <int N>
struct StridedPlan {
  int ndim = 1;
  int64_t numel = 0;
  int64_t shape[KF_MAX_NDIM];
  int64_t strides[N][KF_MAX_NDIM];
  char* data[N];
};

inline void check_ndim(const kf_tensor_view_t& v) {
  if (v.ndim < 0 || v.ndim > KF_MAX_NDIM) {
    throw kf::plugin::KernelError(KF_INTERNAL, "tensor view with ndim " + std::to_string(v.ndim));
  }
}

/// Sorts dims by the output's stride, innermost (smallest) first; stable, no allocation.
template <int N>
void sort_dims_by_output(StridedPlan<N>& p) {
  for (int i = 1; i < p.ndim; ++i) {
    for (int j = i; j > 0 && p.strides[0][j] < p.strides[0][j - 1]; --j) {
      std::swap(p.shape[j], p.shape[j - 1]);
      for (int k = 0; k < N; ++k) std::swap(p.strides[k][j], p.strides[k][j - 1]);
    }
  }
}

/// Merges neighbouring dims that are contiguous for every operand.
template <int N>
void coalesce(StridedPlan<N>& p) {
  int out = 0;
  for (int d = 1; d < p.ndim; ++d) {
    bool mergeable = true;
    for (int k = 0; k < N; ++k) {
      mergeable = mergeable && p.strides[k][d] == p.strides[k][out] * p.shape[out];
    }
    if (mergeable) {
      p.shape[out] *= p.shape[d];
    } else {
      ++out;
      p.shape[out] = p.shape[d];
      for (int k = 0; k < N; ++k) p.strides[k][out] = p.strides[k][d];
    }
  }
  p.ndim = out + 1;
}

/// The plan of `views` (views[0] the output) with element sizes `elem`.
template <int N>
StridedPlan<N> make_plan(const kf_tensor_view_t* const (&views)[N], const int64_t (&elem)[N],
                         bool reorder = true) {
  StridedPlan<N> p;
  const kf_tensor_view_t& out = *views[0];
  for (int k = 0; k < N; ++k) {
    check_ndim(*views[k]);
    if (views[k]->ndim > out.ndim) {
      throw kf::plugin::KernelError(KF_INTERNAL, "input has more dims than the output");
    }
    p.data[k] = static_cast<char*>(views[k]->data);
  }
  p.numel = 1;
  for (int d = 0; d < out.ndim; ++d) {
    // No element: the other sizes may be anything, and their product need not fit.
    if (out.shape[d] == 0) p.numel = 0;
  }
  int nd = 0;
  for (int d = out.ndim - 1; d >= 0 && p.numel != 0; --d) {
    const int64_t size = out.shape[d];
    p.numel *= size;
    if (size == 1) continue;
    p.shape[nd] = size;
    for (int k = 0; k < N; ++k) {
      const int dk = d - (out.ndim - views[k]->ndim);
      p.strides[k][nd] = dk < 0 ? 0 : views[k]->strides[dk] * elem[k];
    }
    ++nd;
  }
  if (nd == 0) {
    p.ndim = 1;
    p.shape[0] = p.numel;  // 1, or 0 for no element
    for (int k = 0; k < N; ++k) p.strides[k][0] = 0;
    return p;
  }
  p.ndim = nd;
  if (reorder) sort_dims_by_output(p);
  coalesce(p);
  return p;
}

/// Walks the linear range [begin, end) of p's index space from `base`, row by row.
template <int N, class Row>
void walk(const StridedPlan<N>& p, char* const (&base)[N], int64_t begin, int64_t end,
          Row& row) {
  if (begin >= end) return;  // also keeps empty spaces (a size-0 dim) away from the divisions
  int64_t idx[KF_MAX_NDIM];
  char* ptr[N];
  for (int k = 0; k < N; ++k) ptr[k] = base[k];
  int64_t rem = begin;
  for (int d = 0; d < p.ndim; ++d) {
    idx[d] = rem % p.shape[d];
    rem /= p.shape[d];
    for (int k = 0; k < N; ++k) ptr[k] += idx[d] * p.strides[k][d];
  }
  int64_t inner[N];
  for (int k = 0; k < N; ++k) inner[k] = p.strides[k][0];
  int64_t left = end - begin;
  while (left > 0) {
    const int64_t n = std::min(p.shape[0] - idx[0], left);
    row(static_cast<char* const*>(ptr), static_cast<const int64_t*>(inner), n);
    left -= n;
    if (left == 0) break;
    for (int k = 0; k < N; ++k) ptr[k] += n * inner[k];
    idx[0] += n;
    for (int d = 0; idx[d] == p.shape[d] && d + 1 < p.ndim; ++d) {
      idx[d] = 0;
      ++idx[d + 1];
      for (int k = 0; k < N; ++k) ptr[k] += p.strides[k][d + 1] - p.shape[d] * p.strides[k][d];
    }
  }
}

/// Runs `row` over the whole plan, on several threads when it is large.
template <int N, class Row>
void for_each_row(const StridedPlan<N>& p, Row&& row) {
  if (p.numel == 0) return;
  const int nt = threads_for(p.numel);
  if (nt <= 1) {
    walk(p, p.data, 0, p.numel, row);
    return;
  }
#pragma omp parallel num_threads(nt)
  {
    const int64_t t = omp_get_thread_num();
    const int64_t nthreads = omp_get_num_threads();
    const int64_t begin = p.numel * t / nthreads;
    const int64_t end = p.numel * (t + 1) / nthreads;
    if (begin < end) walk(p, p.data, begin, end, row);
  }
}

template <class T>
inline T& at(char* p, int64_t i, int64_t stride) {
  return *reinterpret_cast<T*>(p + i * stride);
}

/// out[i] = f() for every element of out.
template <class Out, class F>
void map0(const kf_tensor_view_t& out, F f) {
  const kf_tensor_view_t* views[1] = {&out};
  const int64_t sizes[1] = {sizeof(Out)};
  for_each_row(make_plan(views, sizes), [&f](char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == static_cast<int64_t>(sizeof(Out))) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      for (int64_t i = 0; i < n; ++i) o[i] = f();
    } else {
      for (int64_t i = 0; i < n; ++i) at<Out>(p[0], i, s[0]) = f();
    }
  });
}

/// out[i] = f(a[i]).
template <class Out, class A, class F>
void map1(const kf_tensor_view_t& out, const kf_tensor_view_t& a, F f) {
  if (out.numel == 1) {
    *static_cast<Out*>(out.data) = f(elem(static_cast<const A*>(a.data)));
    return;
  }
  const kf_tensor_view_t* views[2] = {&out, &a};
  const int64_t sizes[2] = {sizeof(Out), sizeof(A)};
  for_each_row(make_plan(views, sizes), [&f](char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == static_cast<int64_t>(sizeof(Out)) && s[1] == static_cast<int64_t>(sizeof(A))) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      const A* x = reinterpret_cast<const A*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = f(elem(x, i));
    } else if (s[0] == static_cast<int64_t>(sizeof(Out)) && s[1] == 0) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      const Out v = f(elem(reinterpret_cast<const A*>(p[1])));
      for (int64_t i = 0; i < n; ++i) o[i] = v;
    } else {
      for (int64_t i = 0; i < n; ++i) at<Out>(p[0], i, s[0]) = f(elem_at<A>(p[1], i, s[1]));
    }
  });
}

/// The row function of map2: contiguous, scalar-broadcast and general strided rows.
template <class Out, class A, class B, class F>
struct Row2 {
  F& f;
  void operator()(char* const* p, const int64_t* s, int64_t n) const {
    constexpr int64_t so = sizeof(Out), sa = sizeof(A), sb = sizeof(B);
    Out* o = reinterpret_cast<Out*>(p[0]);
    const A* a = reinterpret_cast<const A*>(p[1]);
    const B* b = reinterpret_cast<const B*>(p[2]);
    if (s[0] == so && s[1] == sa && s[2] == sb) {
      for (int64_t i = 0; i < n; ++i) o[i] = f(elem(a, i), elem(b, i));
    } else if (s[0] == so && s[1] == sa && s[2] == 0) {
      const B bv = elem(b);
      for (int64_t i = 0; i < n; ++i) o[i] = f(elem(a, i), bv);
    } else if (s[0] == so && s[1] == 0 && s[2] == sb) {
      const A av = elem(a);
      for (int64_t i = 0; i < n; ++i) o[i] = f(av, elem(b, i));
    } else {
      for (int64_t i = 0; i < n; ++i) {
        at<Out>(p[0], i, s[0]) = f(elem_at<A>(p[1], i, s[1]), elem_at<B>(p[2], i, s[2]));
      }
    }
  }
};

/// out[i] = f(a[i], b[i]).
template <class Out, class A, class B, class F>
void map2(const kf_tensor_view_t& out, const kf_tensor_view_t& a, const kf_tensor_view_t& b,
          F f) {
  if (out.numel == 1) {
    *static_cast<Out*>(out.data) =
        f(elem(static_cast<const A*>(a.data)), elem(static_cast<const B*>(b.data)));
    return;
  }
  const kf_tensor_view_t* views[3] = {&out, &a, &b};
  const int64_t sizes[3] = {sizeof(Out), sizeof(A), sizeof(B)};
  for_each_row(make_plan(views, sizes), Row2<Out, A, B, F>{f});
}

/// out[i] = f(a[i], b[i], c[i]).
template <class Out, class A, class B, class C, class F>
void map3(const kf_tensor_view_t& out, const kf_tensor_view_t& a, const kf_tensor_view_t& b,
          const kf_tensor_view_t& c, F f) {
  const kf_tensor_view_t* views[4] = {&out, &a, &b, &c};
  const int64_t sizes[4] = {sizeof(Out), sizeof(A), sizeof(B), sizeof(C)};
  for_each_row(make_plan(views, sizes), [&f](char* const* p, const int64_t* s, int64_t n) {
    constexpr int64_t so = sizeof(Out), sa = sizeof(A), sb = sizeof(B), sc = sizeof(C);
    if (s[0] == so && s[1] == sa && s[2] == sb && s[3] == sc) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      const A* a = reinterpret_cast<const A*>(p[1]);
      const B* b = reinterpret_cast<const B*>(p[2]);
      const C* c = reinterpret_cast<const C*>(p[3]);
      for (int64_t i = 0; i < n; ++i) o[i] = f(elem(a, i), elem(b, i), elem(c, i));
    } else {
      for (int64_t i = 0; i < n; ++i) {
        at<Out>(p[0], i, s[0]) =
            f(elem_at<A>(p[1], i, s[1]), elem_at<B>(p[2], i, s[2]), elem_at<C>(p[3], i, s[3]));
      }
    }
  });
}

}  // namespace kf::cpu
