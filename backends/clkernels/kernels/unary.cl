// unary.cl — neg, abs, relu, square (numeric), bitwise_not (integers and bool), exp, log, sqrt,
// sigmoid, tanh, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, expm1, log1p, log2, log10,
// rsqrt, sin, cos, erf, reciprocal, gelu, gelu_tanh, silu (floating), floor, ceil, trunc (numeric:
// the identity on integers), sign (every dtype), each with a strided kernel (operands: 0 = out, 1 =
// self) and a _contig one; round and clamp, which take arguments before the element count; and the
// predicates isnan, isinf, isfinite, signbit, logical_not (every dtype), whose output is bool
// (uchar 0 or 1) in a program of self's dtype. Complex programs have neg, square, sign, round, the
// predicates but signbit, conj, and real, imag and abs (into the parts' real dtype). 16-bit floats
// compute in float. Integer neg, abs and square wrap (abs(INT_MIN) = INT_MIN); relu keeps NaN
// (PyTorch); ~x = -x - 1 and bool's bitwise_not is !x. Integers and bool are never NaN or infinite,
// and their signbit is x < 0 (backends/cpu/predicate_kernels.cpp). The semantics of the others are
// the CPU backend's (math_kernels.cpp, activation_kernels.cpp, rounding_kernels.cpp), noted where
// they are defined.
#if KF_IS_INT && !KF_IS_UNSIGNED
#define KF_NEG(x) ((C)(long)(0ul - (ulong)(long)(x)))
#define KF_ABS(x) ((x) < 0 ? KF_NEG(x) : (x))
#elif KF_IS_INT || KF_IS_BOOL
#define KF_NEG(x) ((C)(0ul - (ulong)(x)))
#define KF_ABS(x) (x)
#else
#define KF_NEG(x) (-(x))
#define KF_ABS(x) fabs(x)
#endif
#if KF_IS_INT
#define KF_SQUARE(x) ((C)(long)((ulong)(long)(x) * (ulong)(long)(x)))
#elif KF_IS_COMPLEX
#define KF_SQUARE(x) kf_cmul(x, x)
#else
#define KF_SQUARE(x) ((x) * (x))
#endif
#if KF_IS_BOOL
#define KF_BITWISE_NOT(x) ((C)!(x))
#else
#define KF_BITWISE_NOT(x) ((C)~(x))
#endif
#if KF_IS_FLOAT
#define KF_RELU(x) ((x) > (C)0 ? (x) : (isnan(x) ? (x) : (C)0))
#else
#define KF_RELU(x) ((x) > (C)0 ? (x) : (C)0)
#endif
#define KF_SIGMOID(x) ((C)1 / ((C)1 + exp(-(x))))
#if KF_IS_FLOAT
#define KF_ISNAN(x) isnan(x)
#define KF_ISINF(x) isinf(x)
#define KF_ISFINITE(x) isfinite(x)
#define KF_SIGNBIT(x) signbit(x)
#elif KF_IS_COMPLEX  // of either part (the standard's and numpy's)
#define KF_ISNAN(z) (isnan((z).x) || isnan((z).y))
#define KF_ISINF(z) (isinf((z).x) || isinf((z).y))
#define KF_ISFINITE(z) (isfinite((z).x) && isfinite((z).y))
#else
#define KF_ISNAN(x) 0
#define KF_ISINF(x) 0
#define KF_ISFINITE(x) 1
#if KF_IS_UNSIGNED
#define KF_SIGNBIT(x) 0
#else
#define KF_SIGNBIT(x) ((x) < 0)
#endif
#endif
#if KF_IS_COMPLEX
#define KF_LOGICAL_NOT(z) (!KF_CTRUTH(z))
#else
#define KF_LOGICAL_NOT(x) ((x) == (C)0)
#endif

// A floating constant in C: a float literal except in the float64 program (a double literal
// would need cl_khr_fp64 in the others).
#if KF_DT == 1
#define KF_K(v) (v)
#else
#define KF_K(v) (v##f)
#endif

// rsqrt and reciprocal divide (rsqrt's builtin is less accurate): rsqrt(0) = inf, 1/0 = inf.
// gelu is x * 0.5 * (1 + erf(x / sqrt(2))), gelu_tanh PyTorch's approximate='tanh' form, silu
// x / (1 + e^-x) (-inf gives NaN, as PyTorch).
#define KF_RSQRT(x) ((C)1 / sqrt(x))
#define KF_RECIPROCAL(x) ((C)1 / (x))
#define KF_GELU(x) ((x) * KF_K(0.5) * ((C)1 + erf((x) * KF_K(0.70710678118654752440))))
#define KF_GELU_TANH(x)                                                                       \
  (KF_K(0.5) * (x) *                                                                          \
   ((C)1 + tanh(KF_K(0.79788456080286535588) * ((x) + KF_K(0.044715) * (x) * (x) * (x)))))
#define KF_SILU(x) ((x) / ((C)1 + exp(-(x))))

// floor, ceil and trunc are the identity on integers. sign is (0 < x) - (x < 0), so sign(-0.0)
// = +0, but sign(NaN) = NaN (the array API standard's and numpy's); bool stays itself.
#if KF_IS_FLOAT
#define KF_FLOOR(x) floor(x)
#define KF_CEIL(x) ceil(x)
#define KF_TRUNC(x) trunc(x)
#define KF_SIGN(x) (isnan(x) ? (x) : (C)((int)((C)0 < (x)) - (int)((x) < (C)0)))
#elif KF_IS_BOOL
#define KF_SIGN(x) (x)
#else
#define KF_FLOOR(x) (x)
#define KF_CEIL(x) (x)
#define KF_TRUNC(x) (x)
#define KF_SIGN(x) ((C)((int)((C)0 < (x)) - (int)((x) < (C)0)))
#endif

/// out = STORE(EXPR(x)) elementwise, out of type OUT_T: the kernel STRIDED (operands: 0 = out,
/// 1 = self) and the dense one CONTIG. The callers paste the names (NAME##_strided) before they
/// reach here: a name passed on as it is would be macro-expanded on the way, and PoCL's headers
/// define some builtins' names (isnan) as macros.
#define KF_ELEMENTWISE(STRIDED, CONTIG, OUT_T, STORE, EXPR)                                        \
  __kernel void STRIDED(__global OUT_T* out, __global const T* a, long n, kf_layout L) {           \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[2];                                                                                   \
    KF_OFFSETS(L, i, 2, off);                                                                      \
    const C x = LD(a, off[1]);                                                                     \
    STORE(out, off[0], EXPR(x));                                                                   \
  }                                                                                                \
  __kernel void CONTIG(__global OUT_T* out, __global const T* a, long n) {                         \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    const C x = LD(a, i);                                                                          \
    STORE(out, i, EXPR(x));                                                                        \
  }
#define KF_STORE_BOOL(p, i, v) ((p)[i] = (uchar)((v) != 0))
#define KF_STORE_PLAIN(p, i, v) ((p)[i] = (v))

#define KF_UNARY(NAME, EXPR) KF_ELEMENTWISE(NAME##_strided, NAME##_contig, T, ST, EXPR)
// A predicate: bool out = EXPR(x) != 0.
#define KF_PREDICATE(NAME, EXPR) \
  KF_ELEMENTWISE(NAME##_strided, NAME##_contig, uchar, KF_STORE_BOOL, EXPR)

#if KF_IS_COMPLEX
KF_UNARY(neg, KF_NEG)
KF_UNARY(square, KF_SQUARE)
#else
KF_UNARY(abs, KF_ABS)
#if !KF_IS_BOOL
KF_UNARY(neg, KF_NEG)
KF_UNARY(relu, KF_RELU)
KF_UNARY(square, KF_SQUARE)
#endif
#endif
#if KF_IS_INT || KF_IS_BOOL
KF_UNARY(bitwise_not, KF_BITWISE_NOT)
#endif
#if KF_IS_FLOAT
KF_UNARY(exp, exp)
KF_UNARY(log, log)
KF_UNARY(sqrt, sqrt)
KF_UNARY(sigmoid, KF_SIGMOID)
KF_UNARY(tanh, tanh)
KF_UNARY(tan, tan)
KF_UNARY(asin, asin)
KF_UNARY(acos, acos)
KF_UNARY(atan, atan)
KF_UNARY(sinh, sinh)
KF_UNARY(cosh, cosh)
KF_UNARY(asinh, asinh)
KF_UNARY(acosh, acosh)
KF_UNARY(atanh, atanh)
KF_UNARY(expm1, expm1)
KF_UNARY(log1p, log1p)
KF_UNARY(log2, log2)
KF_UNARY(log10, log10)
KF_UNARY(rsqrt, KF_RSQRT)
KF_UNARY(sin, sin)
KF_UNARY(cos, cos)
KF_UNARY(erf, erf)
KF_UNARY(reciprocal, KF_RECIPROCAL)
KF_UNARY(gelu, KF_GELU)
KF_UNARY(gelu_tanh, KF_GELU_TANH)
KF_UNARY(silu, KF_SILU)
#endif
#if !KF_IS_BOOL && !KF_IS_COMPLEX
KF_UNARY(floor, KF_FLOOR)
KF_UNARY(ceil, KF_CEIL)
KF_UNARY(trunc, KF_TRUNC)
#endif
#if KF_IS_COMPLEX
// sign(z) = z / |z| (each part divided by hypot), 0 for 0, NaN + NaN i when a part is NaN (the
// CPU backend's, the standard's).
static inline C kf_csign(C z) {
  if (isnan(z.x) || isnan(z.y)) return KF_CPLX((R)NAN, (R)NAN);
  if (z.x == (R)0 && z.y == (R)0) return KF_CPLX((R)0, (R)0);
  const R m = hypot(z.x, z.y);
  return KF_CPLX(z.x / m, z.y / m);
}
KF_UNARY(sign, kf_csign)
#else
KF_UNARY(sign, KF_SIGN)
#endif

// round(x, decimals) half to even (rint in the default rounding mode), as the CPU backend:
// rint(x) for decimals 0, rint(x * scale) / scale for decimals > 0, rint(x / scale) * scale for
// decimals < 0, scale = 10^|decimals| in C (the host computes it). The identity on integers
// (the host refuses decimals != 0 there).
#if KF_IS_FLOAT || KF_IS_COMPLEX
#define KF_ROUND(x, d, s) \
  ((d) == 0 ? rint(x) : ((d) < 0 ? rint((x) / (s)) * (s) : rint((x) * (s)) / (s)))
#else
#define KF_ROUND(x, d, s) (x)
#endif

// clamp(x, lo, hi) = min(max(x, lo), hi) for the bounds `has` names (bit 0: lo, bit 1: hi), so
// where lo > hi every element becomes hi; NaN x stays NaN (both comparisons false) and a NaN
// bound makes every element NaN (PyTorch).
#if !KF_IS_COMPLEX
static inline C kf_clamp(C x, C lo, C hi, int has) {
#if KF_IS_FLOAT
  if (((has & 1) && isnan(lo)) || ((has & 2) && isnan(hi))) return (C)NAN;
#endif
  const C v = ((has & 1) && x < lo) ? lo : x;
  return ((has & 2) && v > hi) ? hi : v;
}
#endif

/// A unary op with two arguments (P0 p0, P1 p1, int p2) before the element count.
#define KF_UNARY3(NAME, P0, P1, EXPR)                                                              \
  __kernel void NAME##_strided(__global T* out, __global const T* a, P0 p0, P1 p1, int p2, long n, \
                               kf_layout L) {                                                      \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[2];                                                                                   \
    KF_OFFSETS(L, i, 2, off);                                                                      \
    const C x = LD(a, off[1]);                                                                     \
    ST(out, off[0], EXPR(x, p0, p1, p2));                                                          \
  }                                                                                                \
  __kernel void NAME##_contig(__global T* out, __global const T* a, P0 p0, P1 p1, int p2,          \
                              long n) {                                                            \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    const C x = LD(a, i);                                                                          \
    ST(out, i, EXPR(x, p0, p1, p2));                                                               \
  }
#if KF_IS_COMPLEX
// Each part rounded (the standard's complex round); the scale arrives as (s, 0).
#define KF_ROUND3(z, d, s, unused) KF_CPLX(KF_ROUND((z).x, d, (s).x), KF_ROUND((z).y, d, (s).x))
KF_UNARY3(round, long, C, KF_ROUND3)
#else
#define KF_ROUND3(x, d, s, unused) KF_ROUND(x, d, s)
#endif
#if !KF_IS_BOOL && !KF_IS_COMPLEX
KF_UNARY3(round, long, C, KF_ROUND3)
KF_UNARY3(clamp, C, C, kf_clamp)
#endif

KF_PREDICATE(isnan, KF_ISNAN)
KF_PREDICATE(isinf, KF_ISINF)
KF_PREDICATE(isfinite, KF_ISFINITE)
#if !KF_IS_COMPLEX
KF_PREDICATE(signbit, KF_SIGNBIT)
#endif
KF_PREDICATE(logical_not, KF_LOGICAL_NOT)

#if KF_IS_COMPLEX
// conj, and real and imag, whose output is the parts' real dtype (float32 for complex64).
#define KF_CONJ(z) KF_CPLX((z).x, -(z).y)
KF_UNARY(conj, KF_CONJ)

#define KF_REAL_PART(z) ((z).x)
#define KF_IMAG_PART(z) ((z).y)
KF_ELEMENTWISE(real_strided, real_contig, R, KF_STORE_PLAIN, KF_REAL_PART)
KF_ELEMENTWISE(imag_strided, imag_contig, R, KF_STORE_PLAIN, KF_IMAG_PART)
// |z| = hypot(re, im) into the parts' real dtype: exact to an ulp without overflow, +inf when a
// part is infinite even beside a NaN (C99's hypot, as std::abs on the CPU).
#define KF_CABS(z) hypot((z).x, (z).y)
KF_ELEMENTWISE(abs_strided, abs_contig, R, KF_STORE_PLAIN, KF_CABS)
#endif
