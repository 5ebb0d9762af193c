// random_kernels.cpp — rand and randn, and the CPU plugin's random generator: a seed and an
// atomic offset (docs/architecture.md, "Random numbers"; the bits come from philox.hpp).
//
// Contract: each call reserves the next blocks_for(numel) counters with one fetch_add on the
// offset, so concurrent calls never share counters and a call's values depend only on the
// seed, its offset and each element's row-major index: the same whatever the thread count.
// seed_random (kf_manual_seed) sets the seed and resets the offset to 0; a call running at the
// same moment may use either seed. Outputs are floating (the meta rule refuses the others);
// float16 and bfloat16 are rounded from the float32 value, and rand keeps them below 1.0.
#include <atomic>

#include "dense.hpp"
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "parallel.hpp"
#include "kernforge/philox.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kRandomMask = kAllFloatMask;

struct Generator {
  std::atomic<uint64_t> seed{philox::kDefaultSeed};
  std::atomic<uint64_t> offset{0};
};

Generator& generator() {
  static Generator g;
  return g;
}

/// A float32 value in [0, 1) as T, never rounded up to 1.0 (16-bit floats round to nearest
/// even; a value that reaches 1.0 becomes the largest one below it).
template <class T>
T uniform_as(float u) {
  if constexpr (std::is_same_v<T, Half>) {
    const Half h = to_half(u);
    return h.bits == 0x3C00u ? Half{0x3BFFu} : h;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    const BFloat16 b = to_bf16(u);
    return b.bits == 0x3F80u ? BFloat16{0x3F7Fu} : b;
  } else {
    return static_cast<T>(u);
  }
}

/// The values of block b (kPerBlock64 for double, else kPerBlock32) for rand (Normal = false)
/// or randn (Normal = true).
template <class T, bool Normal>
void block_values(const philox::Block& b, T* v) {
  if constexpr (std::is_same_v<T, double>) {
    if constexpr (Normal) {
      philox::randn64(b, v);
    } else {
      for (int j = 0; j < 2; ++j) v[j] = philox::rand64(b, j);
    }
  } else if constexpr (Normal) {
    float z[4];
    philox::randn32(b, z);
    for (int j = 0; j < 4; ++j) v[j] = convert<T>(z[j]);
  } else {
    for (int j = 0; j < 4; ++j) v[j] = uniform_as<T>(philox::rand32(b, j));
  }
}

/// Offset (elements) of row-major element i in a strided view.
int64_t position(const kf_tensor_view_t& v, int64_t i) {
  int64_t pos = 0;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    pos += (i % v.shape[d]) * v.strides[d];
    i /= v.shape[d];
  }
  return pos;
}

// Blocks [0, nblocks) split over threads by contiguous ranges; each block writes its
// elements (the last block may be partial).
template <class T, bool Normal>
void generate(const kf_tensor_view_t& out, uint64_t seed, uint64_t offset) {
  const int64_t n = out.numel;
  constexpr int64_t per = std::is_same_v<T, double> ? philox::kPerBlock64 : philox::kPerBlock32;
  const int64_t nblocks = static_cast<int64_t>(philox::blocks_for(n, std::is_same_v<T, double>));
  T* o = static_cast<T*>(out.data);
  const bool dense = is_dense(out);
  const int nt = threads_for(n * 8);  // a Philox block is a few dozen operations per element
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t blk = 0; blk < nblocks; ++blk) {
    T v[per];
    block_values<T, Normal>(philox::block(seed, offset, static_cast<uint64_t>(blk)), v);
    const int64_t first = blk * per;
    const int m = static_cast<int>(n - first < per ? n - first : per);
    for (int j = 0; j < m; ++j) {
      const int64_t i = first + j;
      o[dense ? i : position(out, i)] = v[j];
    }
  }
}

template <bool Normal>
void random_kernel(const kf_tensor_view_t& out, const char* op) {
  dispatch<kRandomMask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const uint64_t blocks = philox::blocks_for(out.numel, std::is_same_v<T, double>);
    Generator& g = generator();
    const uint64_t seed = g.seed.load(std::memory_order_relaxed);
    const uint64_t offset = g.offset.fetch_add(blocks, std::memory_order_relaxed);
    if (out.numel > 0) generate<T, Normal>(out, seed, offset);
  });
}

void rand_kernel(const ops::rand::Args& a) { random_kernel<false>(a.out, "rand"); }
void randn_kernel(const ops::randn::Args& a) { random_kernel<true>(a.out, "randn"); }

}  // namespace

RandomRange reserve_random(int64_t numel, bool wide) {
  Generator& g = generator();
  RandomRange r;
  r.seed = g.seed.load(std::memory_order_relaxed);
  r.offset = g.offset.fetch_add(philox::blocks_for(numel, wide), std::memory_order_relaxed);
  r.wide = wide;
  return r;
}

double uniform_at(const RandomRange& r, int64_t i) {
  if (r.wide) {
    const int64_t per = philox::kPerBlock64;
    return philox::rand64(philox::block(r.seed, r.offset, static_cast<uint64_t>(i / per)),
                          static_cast<int>(i % per));
  }
  const int64_t per = philox::kPerBlock32;
  return philox::rand32(philox::block(r.seed, r.offset, static_cast<uint64_t>(i / per)),
                        static_cast<int>(i % per));
}

void seed_random(uint64_t seed) {
  Generator& g = generator();
  g.seed.store(seed, std::memory_order_relaxed);
  g.offset.store(0, std::memory_order_relaxed);
}

kf_status_t register_random_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, rand, rand_kernel, kRandomMask);
  KF_CPU_KERNEL(reg, randn, randn_kernel, kRandomMask);
  return KF_OK;
}

}  // namespace kf::cpu
