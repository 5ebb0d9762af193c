// simd_select.hpp — vectorised counting and compaction of contiguous arrays by a byte mask.
//
// The primitives of masked_select and count_nonzero over dense memory. A mask byte is true when
// it is not 0 (Note [Bool bytes]). Compiled with Highway for every x86 instruction set it
// targets and dispatched at run time (Note [SIMD select] in simd_select.cpp); built without
// Highway, each is the scalar loop. Thread-safe; no allocation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kf::cpu::simd {

/// How many of the n bytes at m are not 0.
int64_t count_nonzero_bytes(const uint8_t* m, int64_t n);

/// The most elements compress_block writes past the count it returns (a whole vector's worth).
constexpr int64_t kCompressSlack = 64;

/// Copies the elements x[i] (i < n, each elem_size bytes: 1, 2, 4 or 8) whose mask byte m[i] is
/// not 0, in order, to dst, and returns how many. dst must have room for that count plus
/// kCompressSlack elements: whole vectors are stored, so the places after the count are
/// overwritten with unspecified values. x and dst must not overlap.
int64_t compress_block(size_t elem_size, const void* x, const uint8_t* m, int64_t n, void* dst);

}  // namespace kf::cpu::simd
