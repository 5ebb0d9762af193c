// simd_math.hpp — vectorised elementwise math over contiguous float32 arrays.
//
// Compiled with Highway (Debian: libhwy-dev) for every x86 instruction set it targets (SSE4,
// AVX2, AVX-512, ...) and dispatched at run time to the best this CPU runs (Note [SIMD math] in
// simd_math.cpp). Results are within 4 ULP of the C library's (exp: 1 ULP), with the C
// library's special values: a block of lanes holding an input outside a function's valid range
// (NaN, infinities, huge arguments of sin/cos, non-positive or subnormal arguments of log) is
// computed with the scalar std:: function instead. Built without Highway (the MinGW build),
// every function is the scalar loop. `x` and `y` may be the same array; otherwise they must not
// overlap. Thread-safe; no allocation.
#pragma once

#include <cstdint>

namespace kf::cpu::simd {

enum class UnaryFn : int32_t { kExp, kLog, kTanh, kSigmoid, kSin, kCos };

/// y[i] = fn(x[i]) for i < n.
void unary_f32(UnaryFn fn, const float* x, float* y, int64_t n);

// Row primitives of softmax, log_softmax and logsumexp (Note [SIMD rows] in simd_math.cpp).

/// The largest of x[0, n): -inf when n == 0; when x holds a NaN the result is either NaN or
/// the largest of the rest (either makes a softmax row NaN through e^(x - max)).
float max_f32(const float* x, int64_t n);

/// y[i] = e^(x[i] - shift) for i < n (nothing stored when y is null); returns their sum,
/// accumulated in float over blocks of 256 elements and in double across blocks. y may be x.
double exp_shift_sum_f32(const float* x, float* y, int64_t n, float shift);

/// y[i] *= s for i < n.
void scale_f32(float* y, int64_t n, float s);

// Row primitives of layer_norm and rms_norm (Note [SIMD rows] in simd_math.cpp).

/// The mean and the sum of squared deviations from it of x[0, n), n > 0: per block of 256
/// elements, in float around the block's first element, merged across blocks in double.
void moments_f32(const float* x, int64_t n, double* mean, double* m2);

/// The sum of x[i]^2 for i < n: in float per block of 256 elements, in double across blocks.
double sum_squares_f32(const float* x, int64_t n);

/// The sum of x[i] for i < n, every element widened to double and added in double (four
/// vectors of double lanes, so the additions do not wait on each other).
double sum_f32(const float* x, int64_t n);

/// y[i] = (x[i] - shift) * scale * w[i] + b[i] for i < n (w null: ones; b null: zeros).
void norm_affine_f32(const float* x, float* y, int64_t n, float shift, float scale,
                     const float* w, const float* b);

/// The instruction set the dispatch chose ("AVX3", "AVX2", ..., "scalar").
const char* target_name();

}  // namespace kf::cpu::simd
