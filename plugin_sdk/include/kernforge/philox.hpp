// philox.hpp — the Philox 4x32-10 counter-based generator (Salmon, Moraes, Dror, Shaw:
// "Parallel Random Numbers: As Easy as 1, 2, 3", SC 2011) and kernforge's mapping of its
// stream to rand/randn values, as docs/architecture.md ("Random numbers") defines them.
//
// Contract: every function is pure (no state, no allocation, no library call but sqrt, log,
// cos and sin in double for the normals) and uses only 32- and 64-bit integer arithmetic, so
// a CUDA, HIP or OpenCL C++ kernel can include this header and produce the same bits: element
// i of a call depends only on the seed, the call's offset and i. The element types of the
// 16-bit floats are the caller's: this header gives the float32 value they are rounded from.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define KF_PHILOX_FN __host__ __device__ inline
#else
#define KF_PHILOX_FN inline
#endif

namespace kf::philox {

constexpr uint32_t kMul0 = 0xD2511F53u;   // multiplier of counter word 0
constexpr uint32_t kMul1 = 0xCD9E8D57u;   // multiplier of counter word 2
constexpr uint32_t kBump0 = 0x9E3779B9u;  // key word 0 increment per round (golden ratio)
constexpr uint32_t kBump1 = 0xBB67AE85u;  // key word 1 increment per round (sqrt(3) - 1)
constexpr int kRounds = 10;

/// PyTorch's default seed, used until the first kf_manual_seed.
constexpr uint64_t kDefaultSeed = 67280421310721ull;

struct Block {
  uint32_t w[4];
};

/// Philox4x32-10 of counter (c0, c1, c2, c3) under key (k0, k1).
KF_PHILOX_FN Block philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                 uint32_t k0, uint32_t k1) {
  for (int r = 0; r < kRounds; ++r) {
    if (r > 0) {
      k0 += kBump0;
      k1 += kBump1;
    }
    const uint64_t p0 = static_cast<uint64_t>(kMul0) * c0;
    const uint64_t p1 = static_cast<uint64_t>(kMul1) * c2;
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  return Block{{c0, c1, c2, c3}};
}

/// Block `index` of the call at `offset` under `seed`: key = (seed low, seed high), counter =
/// (index low, index high, offset low, offset high).
KF_PHILOX_FN Block block(uint64_t seed, uint64_t offset, uint64_t index) {
  return philox4x32_10(static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32),
                       static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32),
                       static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
}

/// The top 24 bits of a word as a float32 in [0, 1): a multiple of 2^-24, exact.
KF_PHILOX_FN float uniform_f32(uint32_t w) {
  return static_cast<float>(w >> 8) * 5.9604644775390625e-08f;  // 2^-24
}

/// The top 53 bits of (hi << 32 | lo) as a float64 in [0, 1): a multiple of 2^-53, exact.
KF_PHILOX_FN double uniform_f64(uint32_t lo, uint32_t hi) {
  const uint64_t x = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<double>(x >> 11) * 1.1102230246251565e-16;  // 2^-53
}

/// Box-Muller in double: the normals (r cos t, r sin t) of the uniform pair (u1, u2), with
/// r = sqrt(-2 ln(1 - u1)) and t = 2 pi u2; u1 is in [0, 1), so the log is finite.
KF_PHILOX_FN void box_muller(double u1, double u2, double& z0, double& z1) {
  const double r = std::sqrt(-2.0 * std::log(1.0 - u1));
  const double theta = 6.283185307179586 * u2;  // 2 pi
  z0 = r * std::cos(theta);
  z1 = r * std::sin(theta);
}

// Elements per block: four for float32, float16 and bfloat16 (one word each, or one word of
// a pair for randn), two for float64 (two words each, or one pair of doubles for randn).
constexpr int64_t kPerBlock32 = 4;
constexpr int64_t kPerBlock64 = 2;

/// Blocks a call of `numel` elements uses, which the generator's offset advances by.
KF_PHILOX_FN uint64_t blocks_for(int64_t numel, bool f64) {
  const int64_t per = f64 ? kPerBlock64 : kPerBlock32;
  return static_cast<uint64_t>((numel + per - 1) / per);
}

/// rand for a 32-bit-or-narrower dtype: element j (0..3) of a block, as float32.
KF_PHILOX_FN float rand32(const Block& b, int j) { return uniform_f32(b.w[j]); }

/// rand for float64: element j (0..1) of a block.
KF_PHILOX_FN double rand64(const Block& b, int j) {
  return uniform_f64(b.w[2 * j], b.w[2 * j + 1]);
}

/// randn for a 32-bit-or-narrower dtype: the block's four elements; elements 2p and 2p+1 are
/// the pair of words (2p, 2p+1). Computed in double, rounded once to float32.
KF_PHILOX_FN void randn32(const Block& b, float out[4]) {
  for (int p = 0; p < 2; ++p) {
    double z0, z1;
    box_muller(uniform_f32(b.w[2 * p]), uniform_f32(b.w[2 * p + 1]), z0, z1);
    out[2 * p] = static_cast<float>(z0);
    out[2 * p + 1] = static_cast<float>(z1);
  }
}

/// randn for float64: the block's two elements, from the doubles of words (0, 1) and (2, 3).
KF_PHILOX_FN void randn64(const Block& b, double out[2]) {
  box_muller(uniform_f64(b.w[0], b.w[1]), uniform_f64(b.w[2], b.w[3]), out[0], out[1]);
}

}  // namespace kf::philox
