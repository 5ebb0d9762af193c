// binary.cl — add, sub, mul, div, atan2, hypot, copysign, logaddexp, nextafter, floor_divide,
// remainder, pow, maximum, minimum, bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift,
// bitwise_right_shift, eq, ne, lt, le, gt, ge, logical_and, logical_or, logical_xor and where,
// elementwise over inputs the host already broadcast to the output's shape (zero strides) and
// converted to T. Complex programs have add, sub, mul, div (C99 Annex G's, common.clh), eq, ne,
// the logical ops and where. Each op has a strided kernel (operands: 0 = out, 1 = self,
// 2 = other; where: 1 = condition, 2 = self, 3 = other) and a _contig one. Integer arithmetic wraps (computed in
// ulong); bool add is `a || (alpha && b)`, bool mul `a && b` (ST stores nonzero as 1). The
// semantics of the others are the CPU backend's (backends/cpu/real_binary_kernels.cpp,
// floor_division_kernels.cpp, bitwise_kernels.cpp, compare_kernels.cpp,
// minmax_pow_kernels.cpp), noted where they are defined.
#if KF_IS_INT
#define KF_WRAP(e) ((C)(long)(e))
#define KF_U(x) ((ulong)(long)(x))
#define KF_ADD(a, b, alpha) KF_WRAP(KF_U(a) + KF_U(alpha) * KF_U(b))
#define KF_SUB(a, b, alpha) KF_WRAP(KF_U(a) - KF_U(alpha) * KF_U(b))
#define KF_MUL(a, b, alpha) KF_WRAP(KF_U(a) * KF_U(b))
#elif KF_IS_BOOL
#define KF_ADD(a, b, alpha) ((C)((a) || ((alpha) && (b))))
#define KF_SUB(a, b, alpha) ((C)0)
#define KF_MUL(a, b, alpha) ((C)((a) && (b)))
#elif KF_IS_COMPLEX
// alpha 1 adds exactly, as the CPU backend does: 1 * y in complex arithmetic would turn the
// partner of an infinite part into NaN (inf * 0).
#define KF_ALPHA_ONE(alpha) ((alpha).x == (R)1 && (alpha).y == (R)0)
#define KF_ADD(a, b, alpha) (KF_ALPHA_ONE(alpha) ? (a) + (b) : (a) + kf_cmul(alpha, b))
#define KF_SUB(a, b, alpha) (KF_ALPHA_ONE(alpha) ? (a) - (b) : (a) - kf_cmul(alpha, b))
#define KF_MUL(a, b, alpha) kf_cmul(a, b)
#else
#define KF_ADD(a, b, alpha) ((a) + (alpha) * (b))
#define KF_SUB(a, b, alpha) ((a) - (alpha) * (b))
#define KF_MUL(a, b, alpha) ((a) * (b))
#endif
#if KF_IS_COMPLEX
#define KF_DIV(a, b, alpha) kf_cdiv(a, b)
#else
#define KF_DIV(a, b, alpha) ((a) / (b))
#endif

#if KF_IS_FLOAT
#define KF_ATAN2(a, b, alpha) atan2(a, b)
#define KF_HYPOT(a, b, alpha) hypot(a, b)
#define KF_COPYSIGN(a, b, alpha) copysign(a, b)
#if KF_DT == 1
#define KF_LN2 0.693147180559945309417232121458176568
#else
#define KF_LN2 0.693147180559945309417232121458176568f
#endif
// numpy's logaddexp: x + log(2) when x == y (so -inf and +inf pairs stay exact), else max +
// log1p(exp(-|x - y|)), NaN when either is NaN.
static inline C kf_logaddexp(C x, C y) {
  if (x == y) return x + (C)KF_LN2;
  const C d = x - y;
  if (d > (C)0) return x + log1p(exp(-d));
  if (d <= (C)0) return y + log1p(exp(d));
  return d;  // NaN
}
#define KF_LOGADDEXP(a, b, alpha) kf_logaddexp(a, b)
#endif

// nextafter steps in the dtype itself, the 16-bit floats on their bits (a float step is far
// below their spacing), as C's nextafter: NaN when either is NaN, `to` when they are equal (so
// +-0 takes to's sign), the smallest subnormal of to's sign after a zero. Both 16-bit formats
// are sign, exponent, mantissa, so a magnitude's bits are in the order of its values; KF_INF16
// is infinity's. Their values are exact in float: KF_BITS16 and KF_VALUE16 convert exactly.
#if defined(KF_HALF_STORAGE) || defined(KF_BF16_STORAGE)
#if defined(KF_HALF_STORAGE)
#define KF_INF16 0x7c00
static inline ushort kf_bits16(float v) {
  ushort b;
  vstore_half(v, 0, (__private half*)&b);
  return b;
}
static inline float kf_value16(ushort b) { return vload_half(0, (__private const half*)&b); }
#else
#define KF_INF16 0x7f80
static inline ushort kf_bits16(float v) { return (ushort)(as_uint(v) >> 16); }
static inline float kf_value16(ushort b) { return kf_bf16_to_float(b); }
#endif
static inline ushort kf_nextafter16(ushort from, ushort to) {
  const int mf = from & 0x7fff, mt = to & 0x7fff;  // magnitudes
  if (mf > KF_INF16) return from;                   // NaN
  if (mt > KF_INF16) return to;
  if (from == to || (mf | mt) == 0) return to;      // equal (-0 == +0)
  if (mf == 0) return (ushort)((to & 0x8000) | 1);
  const int f = (from & 0x8000) ? -mf : mf, t = (to & 0x8000) ? -mt : mt;
  const int away = (f < t) == (f > 0);  // away from zero: a greater magnitude
  return (ushort)(away ? from + 1 : from - 1);
}
#define KF_NEXTAFTER(a, b, alpha) kf_value16(kf_nextafter16(kf_bits16(a), kf_bits16(b)))
#elif KF_IS_FLOAT
#define KF_NEXTAFTER(a, b, alpha) nextafter(a, b)
#endif

// floor_divide and remainder: Python's // and %. Integers: the quotient rounds toward -inf and
// the remainder takes the divisor's sign; a zero divisor gives 0 for both (numpy), and MIN //
// -1 wraps to MIN (remainder 0). Floats: the remainder is fmod(x, y) moved into the divisor's
// sign (a zero remainder is a zero of that sign); the quotient is (x - remainder) / y snapped
// to the nearest integer (numpy's and CPython's rule); a zero divisor, or an infinite x over a
// finite y, gives x / y, and x % 0 is NaN. kf_divmod returns the remainder when `rem`, else the
// quotient.
#if KF_IS_INT && KF_IS_UNSIGNED
static inline C kf_divmod(C x, C y, int rem) {
  if (y == 0) return 0;
  return rem ? x % y : x / y;
}
#elif KF_IS_INT
// A divisor of 0 or -1 divides as 1 (x / -1 may overflow), the quotient then negated (wrapping)
// for -1 and both results 0 for 0: selects, not branches (llvm-spirv 15 mistranslates the
// switch that LLVM makes of two early returns on y).
static inline C kf_divmod(C x, C y, int rem) {
  const int zero = y == 0, minus_one = y == (C)-1;
  const C d = (zero | minus_one) ? (C)1 : y;
  C q = x / d, r = x % d;
  if (r != 0 && ((r < 0) != (d < 0))) {
    q -= 1;
    r += d;
  }
  if (minus_one) q = KF_WRAP(0ul - KF_U(q));
  return zero ? (C)0 : (rem ? r : q);
}
#elif KF_IS_FLOAT
static inline C kf_divmod(C x, C y, int rem) {
  C r = fmod(x, y);
  if (y == (C)0 || (isinf(x) && isfinite(y))) return rem ? r : x / y;
  C q = (x - r) / y;
  if (r != (C)0) {
    if ((y < (C)0) != (r < (C)0)) {
      r += y;
      q -= (C)1;
    }
  } else {
    r = copysign((C)0, y);
  }
  if (q != (C)0) {
    const C f = floor(q);
    q = q - f > (C)0.5f ? f + (C)1 : f;
  } else {
    q = copysign((C)0, x / y);
  }
  return rem ? r : q;
}
#endif
#define KF_FLOOR_DIVIDE(a, b, alpha) kf_divmod(a, b, 0)
#define KF_REMAINDER(a, b, alpha) kf_divmod(a, b, 1)

// pow: floats by pow(), x * x for an exponent of 2 (what pow rounds to). Integers by repeated
// squaring in ulong, whose low bits are the dtype's wrapped result; x^0 = 1 (0^0 included); a
// negative exponent gives the exact result truncated toward zero: 1 for base 1, +-1 for base -1
// by the exponent's parity, 0 otherwise (selects, not branches: Note in kf_divmod).
#if KF_IS_INT
static inline C kf_int_pow(C base, C e) {
  ulong r = 1, b = KF_U(base), n = KF_U(e);
#if !KF_IS_UNSIGNED
  if (e < 0) {
    const C odd = (C)(e & 1);
    return base == (C)1 ? (C)1 : (base == (C)-1 ? (odd ? (C)-1 : (C)1) : (C)0);
  }
#endif
  while (n != 0) {
    if (n & 1) r *= b;
    b *= b;
    n >>= 1;
  }
  return KF_WRAP(r);
}
#define KF_POW(a, b, alpha) kf_int_pow(a, b)
#elif KF_IS_FLOAT
#define KF_POW(a, b, alpha) ((b) == (C)2 ? (a) * (a) : pow(a, b))
#endif

// maximum and minimum propagate NaN (self's first); on bool they are or and and (written so:
// llvm-spirv 15 translates the compare of two i1 that LLVM makes of a bool max into an
// unsigned compare of booleans, which spirv-val refuses).
#if KF_IS_FLOAT
#define KF_MAXIMUM(a, b, alpha) (isnan(a) ? (a) : (isnan(b) ? (b) : ((a) < (b) ? (b) : (a))))
#define KF_MINIMUM(a, b, alpha) (isnan(a) ? (a) : (isnan(b) ? (b) : ((b) < (a) ? (b) : (a))))
#elif KF_IS_BOOL
#define KF_MAXIMUM(a, b, alpha) ((C)((a) | (b)))
#define KF_MINIMUM(a, b, alpha) ((C)((a) & (b)))
#else
#define KF_MAXIMUM(a, b, alpha) ((a) < (b) ? (b) : (a))
#define KF_MINIMUM(a, b, alpha) ((b) < (a) ? (b) : (a))
#endif

// The bitwise ops, on integers and bool (0 or 1: the logical ops). A shift by a count in [0,
// width) is C's, the right shift arithmetic for signed dtypes and the left shift wrapping; a
// count of the width or more, or a negative one, shifts every bit out: 0 to the left, and to
// the right 0, or -1 for a negative signed x.
#define KF_BIT_AND(a, b, alpha) ((C)((a) & (b)))
#define KF_BIT_OR(a, b, alpha) ((C)((a) | (b)))
#define KF_BIT_XOR(a, b, alpha) ((C)((a) ^ (b)))
#if KF_IS_INT
#define KF_WIDTH ((ulong)sizeof(C) * 8)
#if KF_IS_UNSIGNED
#define KF_COUNT_OK(n) ((ulong)(n) < KF_WIDTH)
#define KF_SHIFTED_OUT(x) ((C)0)
#else
#define KF_COUNT_OK(n) ((n) >= 0 && (ulong)(n) < KF_WIDTH)
#define KF_SHIFTED_OUT(x) ((x) < 0 ? (C)-1 : (C)0)
#endif
#define KF_SHL(a, b, alpha) (KF_COUNT_OK(b) ? KF_WRAP(KF_U(a) << (b)) : (C)0)
#define KF_SHR(a, b, alpha) (KF_COUNT_OK(b) ? (C)((a) >> (b)) : KF_SHIFTED_OUT(a))
#endif

#define KF_BINARY(NAME, EXPR)                                                                      \
  __kernel void NAME##_strided(__global T* out, __global const T* a, __global const T* b, C alpha, \
                     long n, kf_layout L) {                                                        \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[3];                                                                                   \
    KF_OFFSETS(L, i, 3, off);                                                                      \
    const C x = LD(a, off[1]), y = LD(b, off[2]);                                                  \
    ST(out, off[0], EXPR(x, y, alpha));                                                            \
  }                                                                                                \
  __kernel void NAME##_contig(__global T* out, __global const T* a, __global const T* b,           \
                              C alpha, long n) {                                                   \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    const C x = LD(a, i), y = LD(b, i);                                                            \
    ST(out, i, EXPR(x, y, alpha));                                                                 \
  }

KF_BINARY(add, KF_ADD)
KF_BINARY(mul, KF_MUL)
#if !KF_IS_COMPLEX
KF_BINARY(maximum, KF_MAXIMUM)
KF_BINARY(minimum, KF_MINIMUM)
#endif
#if !KF_IS_BOOL
KF_BINARY(sub, KF_SUB)
#endif
#if KF_IS_FLOAT || KF_IS_COMPLEX
KF_BINARY(div, KF_DIV)
#endif
#if KF_IS_FLOAT
KF_BINARY(atan2, KF_ATAN2)
KF_BINARY(hypot, KF_HYPOT)
KF_BINARY(copysign, KF_COPYSIGN)
KF_BINARY(logaddexp, KF_LOGADDEXP)
KF_BINARY(nextafter, KF_NEXTAFTER)
#endif
#if KF_IS_FLOAT || KF_IS_INT
KF_BINARY(floor_divide, KF_FLOOR_DIVIDE)
KF_BINARY(remainder, KF_REMAINDER)
KF_BINARY(pow, KF_POW)
#endif
#if KF_IS_INT || KF_IS_BOOL
KF_BINARY(bitwise_and, KF_BIT_AND)
KF_BINARY(bitwise_or, KF_BIT_OR)
KF_BINARY(bitwise_xor, KF_BIT_XOR)
#endif
#if KF_IS_INT
KF_BINARY(bitwise_left_shift, KF_SHL)
KF_BINARY(bitwise_right_shift, KF_SHR)
#endif

// A comparison or logical op: bool out = EXPR(x, y), in a program of the inputs' dtype.
#define KF_COMPARE(NAME, EXPR)                                                                     \
  __kernel void NAME##_strided(__global uchar* out, __global const T* a, __global const T* b,      \
                               long n, kf_layout L) {                                              \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[3];                                                                                   \
    KF_OFFSETS(L, i, 3, off);                                                                      \
    const C x = LD(a, off[1]), y = LD(b, off[2]);                                                  \
    out[off[0]] = (uchar)(EXPR(x, y));                                                             \
  }                                                                                                \
  __kernel void NAME##_contig(__global uchar* out, __global const T* a,                            \
                              __global const T* b, long n) {                                       \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    const C x = LD(a, i), y = LD(b, i);                                                            \
    out[i] = (uchar)(EXPR(x, y));                                                                  \
  }
#if KF_IS_COMPLEX  // equal when both parts are; true is either part nonzero
#define KF_EQ(p, q) ((p).x == (q).x && (p).y == (q).y)
#define KF_NE(p, q) ((p).x != (q).x || (p).y != (q).y)
#define KF_TRUTH(p) KF_CTRUTH(p)
#else
#define KF_EQ(x, y) ((x) == (y))
#define KF_NE(x, y) ((x) != (y))  // IEEE: NaN != NaN is true, NaN <= x false
#define KF_TRUTH(x) ((x) != (C)0)  // NaN is nonzero: true
#endif
#define KF_LT(x, y) ((x) < (y))
#define KF_GT(x, y) ((x) > (y))
#define KF_LE(x, y) ((x) <= (y))
#define KF_GE(x, y) ((x) >= (y))
#define KF_LOGICAL_AND(x, y) (KF_TRUTH(x) && KF_TRUTH(y))
#define KF_LOGICAL_OR(x, y) (KF_TRUTH(x) || KF_TRUTH(y))
#define KF_LOGICAL_XOR(x, y) (KF_TRUTH(x) != KF_TRUTH(y))

KF_COMPARE(eq, KF_EQ)
KF_COMPARE(ne, KF_NE)
#if !KF_IS_COMPLEX
KF_COMPARE(lt, KF_LT)
KF_COMPARE(gt, KF_GT)
KF_COMPARE(le, KF_LE)
KF_COMPARE(ge, KF_GE)
#endif
KF_COMPARE(logical_and, KF_LOGICAL_AND)
KF_COMPARE(logical_or, KF_LOGICAL_OR)
KF_COMPARE(logical_xor, KF_LOGICAL_XOR)

__kernel void where_strided(__global T* out, __global const uchar* cond, __global const T* a,
                    __global const T* b, long n, kf_layout L) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  long off[4];
  KF_OFFSETS(L, i, 4, off);
  ST(out, off[0], KF_LD_BOOL(cond, off[1]) ? LD(a, off[2]) : LD(b, off[3]));
}

__kernel void where_contig(__global T* out, __global const uchar* cond, __global const T* a,
                           __global const T* b, long n) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  ST(out, i, KF_LD_BOOL(cond, i) ? LD(a, i) : LD(b, i));
}
