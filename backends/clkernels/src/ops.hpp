// ops.hpp — the shared kernels' op families: each registers its ops for the dtypes in `mask`
// (those the backend's devices all support) that the op accepts, with the same dtype sets as
// the CPU backend.
#pragma once

#include <cstdint>

#include "clkernels/movement.hpp"
#include "kernforge/plugin.hpp"

namespace kf::clk {

constexpr uint32_t bit(kf_dtype_t d) { return dtype_bit(d); }
// The SDK's masks (kernforge/dtypes.hpp) by the CPU backend's names.
constexpr uint32_t kFloatMask = kFloatDtypes;
constexpr uint32_t kIntMask = kIntDtypes;
constexpr uint32_t kNumericMask = kRealDtypes;
constexpr uint32_t kAllMask = kAllDtypes;
constexpr uint32_t kComplexMask = kComplexDtypes;
/// Every dtype but the complex ones (ordered values: comparisons, extrema, sign).
constexpr uint32_t kRealMask = kAllDtypes & ~kComplexDtypes;

kf_status_t register_copy_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_fill_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_binary_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_unary_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_linalg_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_softmax_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_reduce_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_scan_ops(const kf_registrar_t* reg, uint32_t mask);
kf_status_t register_sort_ops(const kf_registrar_t* reg, uint32_t mask);
/// index_select and gather: only for backends whose devices read memory back
/// (Device::read_back).
kf_status_t register_index_ops(const kf_registrar_t* reg, uint32_t mask);

}  // namespace kf::clk

/// KF_REGISTER_KERNEL for the dtypes of `op_mask` the backend serves (`mask` in scope); an op
/// left with none is not registered (the CPU fallback serves it).
#define KF_CLK_REGISTER(reg, op, fn, op_mask)                  \
  do {                                                         \
    if (((op_mask) & mask) != 0u) {                            \
      KF_REGISTER_KERNEL(reg, op, fn, (op_mask) & mask);       \
    }                                                          \
  } while (0)
