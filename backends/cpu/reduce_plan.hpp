// reduce_plan.hpp — the iteration plan and driver of reductions (sum, mean, amax, argmax).
//
// A ReducePlan splits the input's dims into kept dims (the output's index space, with input
// and output byte strides) and reduced dims (a StridedPlan<1> over the input). The output view
// already has the reduced shape (with size-1 dims when keepdim); the plan maps its strides onto
// the input's kept dims. Reduced dims keep their logical (C) order unless sorting is allowed,
// so argmax's linear position is the flattened index.
//
// run_reduce picks one of three schedules:
//  - columns: the innermost kept dim is contiguous in input and output (sum over dim 0 of a
//    row-major matrix): accumulate a block of outputs per reduced element, vectorised across
//    outputs;
//  - split: few outputs, much work: each output's reduction is split over threads by linear
//    range and the partial results combined in order;
//  - rows: otherwise each output reduces its own range (outputs split over threads).
//
// A Reducer R provides: Acc identity(); step(Acc&, T value, int64_t pos);
// row(Acc&, const char* p, int64_t stride, int64_t n, int64_t pos); combine(Acc&, const Acc&
// later); store(char* out, const Acc&). Reducers must not throw.
//
// A reducer that needs more than one pass over its elements (var's mean then squared
// deviations, logsumexp's max then sum of exponentials) may also declare
// `static constexpr bool kColumnPasses = true` and
// `template <class Walk> void column_passes(Acc* acc, int64_t width, Walk&& walk) const`:
// the column schedule then hands it a block of `width` outputs, and each call
// walk([&](const T* x) { ... x[j] is the next element of output j ... }) visits the reduced
// elements once, in order; the reducer fills acc[0, width) (vectorisable across j).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "strided.hpp"

namespace kf::cpu {

struct ReducePlan {
  int nk = 0;  // kept dims, innermost first
  int64_t k_shape[KF_MAX_NDIM];
  int64_t k_in[KF_MAX_NDIM];
  int64_t k_out[KF_MAX_NDIM];
  StridedPlan<1> red;  // reduced dims over the input (red.data unused)
  int64_t numel_out = 1;
  int64_t numel_red = 1;
};

/// Marks the dims in `dims` (negative dims wrap) in `reduced`; an empty list means all.
inline void mark_dims(const int64_t* dims, int32_t len, int ndim, bool* reduced) {
  for (int d = 0; d < ndim; ++d) reduced[d] = len == 0;
  for (int32_t i = 0; i < len; ++i) {
    int64_t d = dims[i];
    if (ndim == 0 && (d == 0 || d == -1)) continue;  // a 0-dim tensor accepts dim 0 / -1
    if (d < 0) d += ndim;
    if (d < 0 || d >= ndim) {
      throw kf::plugin::KernelError(KF_OUT_OF_RANGE, "dim " + std::to_string(dims[i]) +
                                                         " out of range for a tensor of " +
                                                         std::to_string(ndim) + " dims");
    }
    reduced[d] = true;
  }
}

inline void coalesce_kept(ReducePlan& p) {
  if (p.nk == 0) return;
  int out = 0;
  for (int d = 1; d < p.nk; ++d) {
    if (p.k_in[d] == p.k_in[out] * p.k_shape[out] && p.k_out[d] == p.k_out[out] * p.k_shape[out]) {
      p.k_shape[out] *= p.k_shape[d];
    } else {
      ++out;
      p.k_shape[out] = p.k_shape[d];
      p.k_in[out] = p.k_in[d];
      p.k_out[out] = p.k_out[d];
    }
  }
  p.nk = out + 1;
}

/// The plan of reducing `in` over `reduced` into `out` (element sizes in bytes).
inline ReducePlan make_reduce_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                                   const bool* reduced, bool keepdim, int64_t in_elem,
                                   int64_t out_elem, bool sort_reduced) {
  check_ndim(in);
  check_ndim(out);
  int kept = 0;
  for (int d = 0; d < in.ndim; ++d) kept += reduced[d] ? 0 : 1;
  if (out.ndim != (keepdim ? in.ndim : kept)) {
    throw kf::plugin::KernelError(KF_INTERNAL, "reduction output has " +
                                                   std::to_string(out.ndim) + " dims, expected " +
                                                   std::to_string(keepdim ? in.ndim : kept));
  }
  ReducePlan p;
  int nr = 0;
  int out_dim = out.ndim - 1;
  for (int d = in.ndim - 1; d >= 0; --d) {
    const int64_t size = in.shape[d];
    if (reduced[d]) {
      if (keepdim) --out_dim;
      p.numel_red *= size;
      if (size == 1) continue;
      p.red.shape[nr] = size;
      p.red.strides[0][nr++] = in.strides[d] * in_elem;
    } else {
      const int od = keepdim ? d : out_dim;
      --out_dim;
      p.numel_out *= size;
      if (size == 1) continue;
      p.k_shape[p.nk] = size;
      p.k_in[p.nk] = in.strides[d] * in_elem;
      p.k_out[p.nk++] = out.strides[od] * out_elem;
    }
  }
  coalesce_kept(p);
  p.red.ndim = nr;
  p.red.numel = p.numel_red;
  if (nr == 0) {
    p.red.ndim = 1;
    p.red.shape[0] = 1;
    p.red.strides[0][0] = 0;
  } else {
    if (sort_reduced) sort_dims_by_output(p.red);
    coalesce(p.red);
  }
  return p;
}

/// Byte offsets of output number `o` in the input and the output.
inline void kept_offsets(const ReducePlan& p, int64_t o, int64_t& in_off, int64_t& out_off) {
  in_off = 0;
  out_off = 0;
  for (int d = 0; d < p.nk; ++d) {
    const int64_t i = o % p.k_shape[d];
    o /= p.k_shape[d];
    in_off += i * p.k_in[d];
    out_off += i * p.k_out[d];
  }
}

/// Reduces the linear range [begin, end) of the reduced space from `base` into acc.
template <class R>
void reduce_range(const ReducePlan& p, const R& r, char* base, int64_t begin, int64_t end,
                  typename R::Acc& acc) {
  int64_t pos = begin;
  auto row = [&](char* const* ptr, const int64_t* s, int64_t n) {
    r.row(acc, ptr[0], s[0], n, pos);
    pos += n;
  };
  char* const b[1] = {base};
  walk(p.red, b, begin, end, row);
}

/// One output per iteration; outputs split over `nt` threads.
template <class R>
void reduce_rows(const ReducePlan& p, const R& r, char* in, char* out, int nt) {
  auto one = [&](int64_t o) {
    int64_t in_off, out_off;
    kept_offsets(p, o, in_off, out_off);
    typename R::Acc acc = r.identity();
    reduce_range(p, r, in + in_off, 0, p.numel_red, acc);
    r.store(out + out_off, acc);
  };
  if (nt <= 1) {
    for (int64_t o = 0; o < p.numel_out; ++o) one(o);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t o = 0; o < p.numel_out; ++o) one(o);
}

/// Each output's reduction split over `nt` threads, partials combined in order.
template <class R>
void reduce_split(const ReducePlan& p, const R& r, char* in, char* out, int nt) {
  std::unique_ptr<typename R::Acc[]> partial(new typename R::Acc[static_cast<size_t>(nt)]);
  for (int64_t o = 0; o < p.numel_out; ++o) {
    int64_t in_off, out_off;
    kept_offsets(p, o, in_off, out_off);
    int used = nt;
#pragma omp parallel num_threads(nt)
    {
      const int t = omp_get_thread_num();
      const int n = omp_get_num_threads();
#pragma omp single
      used = n;
      partial[t] = r.identity();
      reduce_range(p, r, in + in_off, p.numel_red * t / n, p.numel_red * (t + 1) / n, partial[t]);
    }
    for (int t = 1; t < used; ++t) r.combine(partial[0], partial[t]);
    r.store(out + out_off, partial[0]);
  }
}

/// A block of up to kColumnBlock contiguous outputs accumulated together.
constexpr int64_t kColumnBlock = 256;

template <class R, class = void>
constexpr bool kHasColumnPasses = false;
template <class R>
constexpr bool kHasColumnPasses<R, std::void_t<decltype(R::kColumnPasses)>> = R::kColumnPasses;

template <class T, class R>
void reduce_column_block(const ReducePlan& p, const R& r, char* in, char* out, int64_t width) {
  typename R::Acc acc[kColumnBlock];
  for (int64_t j = 0; j < width; ++j) acc[j] = r.identity();
  if constexpr (kHasColumnPasses<R>) {
    auto walk_rows = [&](auto&& f) {
      auto row = [&](char* const* ptr, const int64_t* s, int64_t n) {
        for (int64_t t = 0; t < n; ++t) f(reinterpret_cast<const T*>(ptr[0] + t * s[0]));
      };
      char* const b[1] = {in};
      walk(p.red, b, 0, p.numel_red, row);
    };
    r.column_passes(acc, width, walk_rows);
    for (int64_t j = 0; j < width; ++j) r.store(out + j * p.k_out[0], acc[j]);
    return;
  }
  int64_t pos = 0;
  auto row = [&](char* const* ptr, const int64_t* s, int64_t n) {
    for (int64_t t = 0; t < n; ++t, ++pos) {
      const T* x = reinterpret_cast<const T*>(ptr[0] + t * s[0]);
      for (int64_t j = 0; j < width; ++j) r.step(acc[j], elem(x, j), pos);
    }
  };
  char* const b[1] = {in};
  walk(p.red, b, 0, p.numel_red, row);
  for (int64_t j = 0; j < width; ++j) r.store(out + j * p.k_out[0], acc[j]);
}

/// Outputs contiguous along the innermost kept dim, accumulated a block at a time.
template <class T, class R>
void reduce_columns(const ReducePlan& p, const R& r, char* in, char* out, int nt) {
  const int64_t inner = p.k_shape[0];
  const int64_t blocks = (inner + kColumnBlock - 1) / kColumnBlock;
  const int64_t outer = p.numel_out / inner;
  auto one = [&](int64_t task) {
    const int64_t q = task / blocks, j0 = (task % blocks) * kColumnBlock;
    int64_t in_off = 0, out_off = 0, rest = q;
    for (int d = 1; d < p.nk; ++d) {
      const int64_t i = rest % p.k_shape[d];
      rest /= p.k_shape[d];
      in_off += i * p.k_in[d];
      out_off += i * p.k_out[d];
    }
    in_off += j0 * p.k_in[0];
    out_off += j0 * p.k_out[0];
    reduce_column_block<T>(p, r, in + in_off, out + out_off, std::min(kColumnBlock, inner - j0));
  };
  const int64_t tasks = outer * blocks;
  if (nt <= 1 || tasks == 1) {
    for (int64_t task = 0; task < tasks; ++task) one(task);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t task = 0; task < tasks; ++task) one(task);
}

/// Runs reducer r (input elements of type T) over plan p.
template <class T, class R>
void run_reduce(const ReducePlan& p, const R& r, const kf_tensor_view_t& in,
                const kf_tensor_view_t& out) {
  if (p.numel_out == 0) return;
  char* in_data = static_cast<char*>(in.data);
  char* out_data = static_cast<char*>(out.data);
  const int64_t work = p.numel_out * std::max<int64_t>(p.numel_red, 1);
  const int nt = threads_for(work);
  const bool columns = p.nk >= 1 && p.k_in[0] == static_cast<int64_t>(sizeof(T)) &&
                       p.k_shape[0] >= 8 && p.numel_red > 1 && p.red.strides[0][0] != 0 &&
                       p.red.strides[0][0] != static_cast<int64_t>(sizeof(T));
  if (columns) {
    reduce_columns<T>(p, r, in_data, out_data, nt);
  } else if (nt > 1 && p.numel_out < nt && p.numel_red >= kParallelGrain) {
    reduce_split(p, r, in_data, out_data, nt);
  } else {
    reduce_rows(p, r, in_data, out_data, nt);
  }
}

}  // namespace kf::cpu
