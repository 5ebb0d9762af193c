// simd_select.cpp — see simd_select.hpp.
//
// Note [SIMD select]
// Highway compiles this file once per instruction set (as Note [SIMD math] says of
// simd_math.cpp) and HWY_DYNAMIC_DISPATCH picks the best one on the first call.
// count_nonzero_bytes subtracts each vector's compare mask (all ones, -1, where a byte is not
// 0) from 8-bit counters, at most 255 vectors in a row so that no counter wraps, then widens the
// counters to 64 bits with SumsOf8. compress_block loads a vector of elements and the same
// number of mask bytes, widens the bytes to the elements' lane width (8 -> 16, 32 or 64 bits,
// through 32 for 64), moves the selected lanes to the front of the register (Compress), stores
// the whole vector and moves on by their count: hence dst's slack. Not CompressStore: on
// AVX-512, Highway 1.0 makes it the compress-to-memory instruction, which AMD's Zen 4 runs
// several times slower than the register form and a store (16M float32 on one thread: 34 ms
// against 7 ms). Elements are moved as unsigned integers of their width, so a float NaN's bits
// or a -0.0 arrive unchanged.
#include "simd_select.hpp"

#if KF_CPU_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_select.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#endif

#ifndef KF_CPU_SIMD_SELECT_SCALAR
#define KF_CPU_SIMD_SELECT_SCALAR
namespace kf::cpu::simd::scalar {

inline int64_t count_nonzero_bytes(const uint8_t* m, int64_t n) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) k += m[i] != 0 ? 1 : 0;
  return k;
}

/// Every element is stored at the end of what is kept so far, and only a selected one moves
/// the end on: no jump per element.
template <class U>
int64_t compress(const U* x, const uint8_t* m, int64_t n, U* dst) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    dst[k] = x[i];
    k += m[i] != 0 ? 1 : 0;
  }
  return k;
}

}  // namespace kf::cpu::simd::scalar
#endif  // KF_CPU_SIMD_SELECT_SCALAR

#if KF_CPU_HAVE_HWY
HWY_BEFORE_NAMESPACE();
namespace kf::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

int64_t CountNonzeroBytes(const uint8_t* m, int64_t n) {
#if HWY_TARGET == HWY_SCALAR
  return scalar::count_nonzero_bytes(m, n);
#else
  const hn::ScalableTag<uint8_t> d;
  const hn::Repartition<uint64_t, decltype(d)> d64;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto zero = hn::Zero(d);
  auto total = hn::Zero(d64);
  int64_t i = 0;
  while (i + lanes <= n) {
    auto counters = zero;
    for (int r = 0; r < 255 && i + lanes <= n; ++r, i += lanes) {
      counters = hn::Sub(counters, hn::VecFromMask(d, hn::Ne(hn::LoadU(d, m + i), zero)));
    }
    total = hn::Add(total, hn::SumsOf8(counters));
  }
  const int64_t k = static_cast<int64_t>(hn::GetLane(hn::SumOfLanes(d64, total)));
  return k + scalar::count_nonzero_bytes(m + i, n - i);
#endif
}

/// The lanes of d whose mask bytes, bytes[0, Lanes(d)), are not 0.
template <class D>
HWY_INLINE auto selected(D d, const uint8_t* bytes) {
  using U = hn::TFromD<D>;
  const hn::Rebind<uint8_t, D> d8;
  if constexpr (sizeof(U) == 1) {
    return hn::Ne(hn::LoadU(d, bytes), hn::Zero(d));
  } else if constexpr (sizeof(U) == 8) {
    const hn::Rebind<uint32_t, D> d32;
    return hn::Ne(hn::PromoteTo(d, hn::PromoteTo(d32, hn::LoadU(d8, bytes))), hn::Zero(d));
  } else {
    return hn::Ne(hn::PromoteTo(d, hn::LoadU(d8, bytes)), hn::Zero(d));
  }
}

template <class U>
HWY_INLINE int64_t CompressLanes(const U* x, const uint8_t* m, int64_t n, U* dst) {
  const hn::ScalableTag<U> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t k = 0;
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto keep = selected(d, m + i);
    hn::StoreU(hn::Compress(hn::LoadU(d, x + i), keep), d, dst + k);
    k += static_cast<int64_t>(hn::CountTrue(d, keep));
  }
  return k + scalar::compress(x + i, m + i, n - i, dst + k);
}

int64_t CompressBlock(size_t elem_size, const void* x, const uint8_t* m, int64_t n, void* dst) {
  switch (elem_size) {
    case 1:
      return CompressLanes(static_cast<const uint8_t*>(x), m, n, static_cast<uint8_t*>(dst));
    case 2:
      return CompressLanes(static_cast<const uint16_t*>(x), m, n, static_cast<uint16_t*>(dst));
    case 4:
      return CompressLanes(static_cast<const uint32_t*>(x), m, n, static_cast<uint32_t*>(dst));
    default:
      return CompressLanes(static_cast<const uint64_t*>(x), m, n, static_cast<uint64_t*>(dst));
  }
}

}  // namespace kf::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // KF_CPU_HAVE_HWY

#if !KF_CPU_HAVE_HWY || HWY_ONCE
namespace kf::cpu::simd {

#if KF_CPU_HAVE_HWY
HWY_EXPORT(CountNonzeroBytes);
HWY_EXPORT(CompressBlock);

int64_t count_nonzero_bytes(const uint8_t* m, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(CountNonzeroBytes)(m, n);
}

int64_t compress_block(size_t elem_size, const void* x, const uint8_t* m, int64_t n, void* dst) {
  return HWY_DYNAMIC_DISPATCH(CompressBlock)(elem_size, x, m, n, dst);
}

#else  // no Highway: the scalar loops

int64_t count_nonzero_bytes(const uint8_t* m, int64_t n) {
  return scalar::count_nonzero_bytes(m, n);
}

int64_t compress_block(size_t elem_size, const void* x, const uint8_t* m, int64_t n, void* dst) {
  switch (elem_size) {
    case 1:
      return scalar::compress(static_cast<const uint8_t*>(x), m, n, static_cast<uint8_t*>(dst));
    case 2:
      return scalar::compress(static_cast<const uint16_t*>(x), m, n,
                              static_cast<uint16_t*>(dst));
    case 4:
      return scalar::compress(static_cast<const uint32_t*>(x), m, n,
                              static_cast<uint32_t*>(dst));
    default:
      return scalar::compress(static_cast<const uint64_t*>(x), m, n,
                              static_cast<uint64_t*>(dst));
  }
}

#endif  // KF_CPU_HAVE_HWY

}  // namespace kf::cpu::simd
#endif  // !KF_CPU_HAVE_HWY || HWY_ONCE
