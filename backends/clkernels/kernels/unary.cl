// unary.cl — neg, abs, relu, square (numeric), bitwise_not (integers and bool), exp, log,
// sqrt, sigmoid, tanh, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, expm1, log1p,
// log2, log10, trunc (floating), each with a strided kernel (operands: 0 = out, 1 = self) and a
// _contig one; and the predicates isnan, isinf, isfinite, signbit, logical_not (every dtype),
// whose output is bool (uchar 0 or 1) in a program of self's dtype. 16-bit floats compute in
// float. Integer neg, abs and square wrap (abs(INT_MIN) = INT_MIN); relu keeps NaN (PyTorch);
// ~x = -x - 1 and bool's bitwise_not is !x. Integers and bool are never NaN or infinite, and
// their signbit is x < 0 (backends/cpu/predicate_kernels.cpp).
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
#define KF_LOGICAL_NOT(x) ((x) == (C)0)

#define KF_UNARY(NAME, EXPR)                                                                       \
  __kernel void NAME##_strided(__global T* out, __global const T* a, long n, kf_layout L) {        \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[2];                                                                                   \
    KF_OFFSETS(L, i, 2, off);                                                                      \
    const C x = LD(a, off[1]);                                                                     \
    ST(out, off[0], EXPR(x));                                                                      \
  }                                                                                                \
  __kernel void NAME##_contig(__global T* out, __global const T* a, long n) {                      \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    const C x = LD(a, i);                                                                          \
    ST(out, i, EXPR(x));                                                                           \
  }

// A predicate: bool out = EXPR(x) != 0.
#define KF_PREDICATE(NAME, EXPR)                                                                   \
  __kernel void NAME##_strided(__global uchar* out, __global const T* a, long n, kf_layout L) {    \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[2];                                                                                   \
    KF_OFFSETS(L, i, 2, off);                                                                      \
    const C x = LD(a, off[1]);                                                                     \
    out[off[0]] = (uchar)((EXPR(x)) != 0);                                                         \
  }                                                                                                \
  __kernel void NAME##_contig(__global uchar* out, __global const T* a, long n) {                  \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    const C x = LD(a, i);                                                                          \
    out[i] = (uchar)((EXPR(x)) != 0);                                                              \
  }

KF_UNARY(abs, KF_ABS)
#if !KF_IS_BOOL
KF_UNARY(neg, KF_NEG)
KF_UNARY(relu, KF_RELU)
KF_UNARY(square, KF_SQUARE)
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
KF_UNARY(trunc, trunc)
#endif

KF_PREDICATE(isnan, KF_ISNAN)
KF_PREDICATE(isinf, KF_ISINF)
KF_PREDICATE(isfinite, KF_ISFINITE)
KF_PREDICATE(signbit, KF_SIGNBIT)
KF_PREDICATE(logical_not, KF_LOGICAL_NOT)
