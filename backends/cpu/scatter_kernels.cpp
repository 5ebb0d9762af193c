// scatter_kernels.cpp — scatter_add_, gather's adjoint: out[..., index[..., j, ...], ...] +=
// src[..., j, ...] along dim, for every position of index (which may be smaller than src, and
// than self outside dim: the meta rule, dispatcher/meta/index_meta.cpp, checked the shapes and
// dtypes).
//
// Contract: every index value is checked against self's size along dim before anything is
// written, so a bad index leaves self as it was (KF_INVALID_ARGUMENT naming the value, its
// row-major position in index and the valid range). Threads split the rows of index outside
// dim; a row writes only the positions of out with its own coordinates outside dim, so no two
// threads touch one element, and along a row the entries are added in index order: a position
// named twice gets both, in the same order on every thread count. Called for a new out (the
// CPU fallback runs in-place ops on new outputs), out starts as a copy of self.
#include <string>

#include "dense.hpp"
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "kernforge/index_errors.hpp"
#include "parallel.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kScatterAddMask = kNumericMask | kComplexMask;  // a sum: every dtype but bool

// The walk over index's positions: its shape, and the strides of index, src and out in each of
// index's dims (a 0-dim tensor reads as one of size 1).
struct ScatterGeom {
  int32_t nd, dim;
  int64_t shape[KF_MAX_NDIM], is[KF_MAX_NDIM], ss[KF_MAX_NDIM], os[KF_MAX_NDIM];
  int64_t size;  // out's size along dim
};

ScatterGeom scatter_geom(const ops::scatter_add_::Args& a) {
  ScatterGeom g{};
  g.nd = a.index.ndim > 0 ? a.index.ndim : 1;
  g.dim = static_cast<int32_t>(a.dim < 0 ? a.dim + g.nd : a.dim);
  for (int32_t d = 0; d < g.nd; ++d) {
    g.shape[d] = a.index.ndim > 0 ? a.index.shape[d] : 1;
    g.is[d] = a.index.ndim > 0 ? a.index.strides[d] : 0;
    g.ss[d] = a.src.ndim > 0 ? a.src.strides[d] : 0;
    g.os[d] = a.out.ndim > 0 ? a.out.strides[d] : 0;
  }
  g.size = a.out.ndim > 0 ? a.out.shape[g.dim] : 1;
  return g;
}

/// The offset in index of its row-major position i.
int64_t index_offset(const ScatterGeom& g, int64_t i) {
  int64_t off = 0;
  for (int32_t d = g.nd - 1; d >= 0; --d) {
    off += (i % g.shape[d]) * g.is[d];
    i /= g.shape[d];
  }
  return off;
}

/// Every index value checked before anything is written: the first bad one is reported.
void check_indices(const ops::scatter_add_::Args& a, const ScatterGeom& g) {
  const int64_t* index = static_cast<const int64_t*>(a.index.data);
  for (int64_t i = 0; i < a.index.numel; ++i) {
    const int64_t v = index[index_offset(g, i)];
    if (v >= 0 && v < g.size) continue;
    throw kf::plugin::index_out_of_range(v, i, g.dim, g.size, "scatter_add_: ");
  }
}

template <class T>
void scatter_rows(const ops::scatter_add_::Args& a, const ScatterGeom& g) {
  const int64_t len = g.shape[g.dim];
  const int64_t rows = a.index.numel / len;
  const int64_t* index = static_cast<const int64_t*>(a.index.data);
  const T* src = static_cast<const T*>(a.src.data);
  T* out = static_cast<T*>(a.out.data);
  const int nt = threads_for(a.index.numel);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rem = r, ip = 0, sp = 0, op = 0;
    for (int32_t d = g.nd - 1; d >= 0; --d) {  // r's coordinates outside dim
      if (d == g.dim) continue;
      const int64_t c = rem % g.shape[d];
      rem /= g.shape[d];
      ip += c * g.is[d];
      sp += c * g.ss[d];
      op += c * g.os[d];
    }
    for (int64_t j = 0; j < len; ++j) {
      T& o = out[op + index[ip + j * g.is[g.dim]] * g.os[g.dim]];
      o = convert<T>(load(o) + load(src[sp + j * g.ss[g.dim]]));
    }
  }
}

void scatter_add__kernel(const ops::scatter_add_::Args& a) {
  const ScatterGeom g = scatter_geom(a);
  if (a.index.numel > 0) check_indices(a, g);
  dispatch<kScatterAddMask>(a.out.dtype, "scatter_add_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (a.out.data != a.self.data) map1<T, T>(a.out, a.self, [](T v) { return v; });
    if (a.index.numel > 0) scatter_rows<T>(a, g);
  });
}

}  // namespace

kf_status_t register_scatter_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, scatter_add_, scatter_add__kernel, kScatterAddMask);
  return KF_OK;
}

}  // namespace kf::cpu
