// masked_select_kernels.cpp — masked_select_static: the elements of self where mask (bool, of
// self's shape) is true, in row-major order, the first `size` of them, then zeros.
//
// Threads take contiguous chunks of the row-major positions: each counts the true mask bytes of
// its chunk, then writes from its offset, so the order is the serial one. A dense self and mask
// count and compact with Highway's vectors (simd_select.hpp) for elements of up to 8 bytes but
// bool (whose bytes are written as 0 or 1, not copied): straight into out, but through a local
// block that is copied out where a whole vector's store would reach another thread's part of
// out or past its end. Otherwise the write does not branch on the mask: every element goes to a
// local run and only a true one moves the run's end on (a jump per element of a random mask is
// mispredicted every other time), and a full run is copied out. A bool byte, of the mask or of
// self, is true when it is not 0 (Note [Bool bytes]).
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "dense.hpp"
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "parallel.hpp"
#include "simd_select.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kMaskedMask = kAllMask;

/// Row-major position -> the element offsets of self and of mask (one shape, own strides).
struct PairCursor {
  int32_t nd;
  const int64_t* shape;
  const int64_t* ss;
  const int64_t* ms;
  int64_t coord[KF_MAX_NDIM] = {};
  int64_t s = 0, m = 0;

  PairCursor(const kf_tensor_view_t& self, const kf_tensor_view_t& mask, int64_t flat)
      : nd(self.ndim), shape(self.shape), ss(self.strides), ms(mask.strides) {
    for (int32_t d = nd - 1; d >= 0; --d) {
      coord[d] = flat % shape[d];
      flat /= shape[d];
      s += coord[d] * ss[d];
      m += coord[d] * ms[d];
    }
  }
  void next() {
    for (int32_t d = nd - 1; d >= 0; --d) {
      s += ss[d];
      m += ms[d];
      if (++coord[d] < shape[d]) return;
      s -= coord[d] * ss[d];
      m -= coord[d] * ms[d];
      coord[d] = 0;
    }
  }
};

/// Positions [lo, hi) of a dense or a strided pair, read by position.
struct Dense {
  int64_t i;
  explicit Dense(int64_t lo) : i(lo) {}
  int64_t self() const { return i; }
  int64_t mask() const { return i; }
  void next() { ++i; }
};
struct Strided {
  PairCursor c;
  Strided(const kf_tensor_view_t& self, const kf_tensor_view_t& mask, int64_t lo)
      : c(self, mask, lo) {}
  int64_t self() const { return c.s; }
  int64_t mask() const { return c.m; }
  void next() { c.next(); }
};

/// How many mask bytes of [lo, hi) are true.
int64_t count_chunk(const uint8_t* mask, Dense, int64_t lo, int64_t hi) {
  return simd::count_nonzero_bytes(mask + lo, hi - lo);
}
template <class Walk>
int64_t count_chunk(const uint8_t* mask, Walk w, int64_t lo, int64_t hi) {
  int64_t k = 0;
  for (int64_t i = lo; i < hi; ++i, w.next()) k += mask[w.mask()] != 0 ? 1 : 0;
  return k;
}

/// Writes the selected elements of [lo, hi) to out[k..], up to out[limit - 1]: limit is where
/// the next thread's part of out starts, or the end of out.
template <class T, class Walk>
void write_chunk(const T* self, const uint8_t* mask, Walk w, int64_t lo, int64_t hi, int64_t k,
                 int64_t limit, T* out) {
  constexpr int64_t kRun = 1024;
  T run[kRun + 1];  // one spare place for the element after the last selected one
  int64_t filled = 0;
  auto flush = [&] {
    const int64_t n = std::min(filled, limit - k);
    if (n > 0) std::memcpy(out + k, run, static_cast<size_t>(n) * sizeof(T));
    k += n;
    filled = 0;
  };
  for (int64_t i = lo; i < hi && k < limit; ++i, w.next()) {
    run[filled] = elem(self, w.self());
    filled += mask[w.mask()] != 0 ? 1 : 0;
    if (filled == kRun) flush();
  }
  flush();
}

/// write_chunk of a dense pair, a block of positions at a time: compressed with vectors straight
/// into out while a whole block's worth and the vector slack stay below limit, else into
/// `block` and copied out.
template <class T>
void write_chunk(const T* self, const uint8_t* mask, Dense w, int64_t lo, int64_t hi, int64_t k,
                 int64_t limit, T* out) {
  if constexpr (sizeof(T) > 8 || std::is_same_v<T, bool>) {  // a bool is written 0 or 1
    write_chunk<T, Dense>(self, mask, w, lo, hi, k, limit, out);
  } else {
    constexpr int64_t kBlock = 2048;
    T block[kBlock + simd::kCompressSlack];
    for (int64_t i = lo; i < hi && k < limit; i += kBlock) {
      const int64_t len = std::min(kBlock, hi - i);
      if (k + len + simd::kCompressSlack <= limit) {
        k += simd::compress_block(sizeof(T), self + i, mask + i, len, out + k);
        continue;
      }
      const int64_t got = simd::compress_block(sizeof(T), self + i, mask + i, len, block);
      const int64_t n = std::min(got, limit - k);
      std::memcpy(out + k, block, static_cast<size_t>(n) * sizeof(T));
      k += n;
    }
  }
}

template <class T, class MakeWalk>
void select_chunks(const ops::masked_select_static::Args& a, MakeWalk walk) {
  const T* self = static_cast<const T*>(a.self.data);
  const auto* mask = static_cast<const uint8_t*>(a.mask.data);
  T* out = static_cast<T*>(a.out.data);
  const int64_t n = a.self.numel, size = a.size;
  if (n == 0) {  // nothing selected (and no walk over a shape with a 0 in it)
    std::fill(out, out + size, T{});
    return;
  }
  const int nt = threads_for(n);
  std::vector<int64_t> first(static_cast<size_t>(nt) + 1, 0);
  auto lo = [&](int t) { return n * t / nt; };
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static, 1)
  for (int t = 0; t < nt; ++t) {
    first[static_cast<size_t>(t) + 1] = count_chunk(mask, walk(lo(t)), lo(t), lo(t + 1));
  }
  for (int t = 0; t < nt; ++t) first[static_cast<size_t>(t) + 1] += first[static_cast<size_t>(t)];
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static, 1)
  for (int t = 0; t < nt; ++t) {
    const int64_t k = first[static_cast<size_t>(t)];
    const int64_t limit = std::min(first[static_cast<size_t>(t) + 1], size);
    write_chunk(self, mask, walk(lo(t)), lo(t), lo(t + 1), k, limit, out);
  }
  const int64_t filled = std::min(first[static_cast<size_t>(nt)], size);
  std::fill(out + filled, out + size, T{});
}

void masked_select_static_kernel(const ops::masked_select_static::Args& a) {
  if (a.size == 0) return;
  dispatch<kMaskedMask>(a.out.dtype, "masked_select_static", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (is_dense(a.self) && is_dense(a.mask)) {
      select_chunks<T>(a, [](int64_t lo) { return Dense(lo); });
    } else {
      select_chunks<T>(a, [&](int64_t lo) { return Strided(a.self, a.mask, lo); });
    }
  });
}

}  // namespace

kf_status_t register_masked_select_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, masked_select_static, masked_select_static_kernel, kMaskedMask);
  return KF_OK;
}

}  // namespace kf::cpu
