// unary.cl — neg, abs, relu (numeric) and exp, log, sqrt, sigmoid, tanh (floating), each with a
// strided kernel (operands: 0 = out, 1 = self) and a _contig one. 16-bit floats compute in
// float. Integer neg and abs wrap (abs(INT_MIN) = INT_MIN); relu keeps NaN (PyTorch).
#if KF_IS_INT && !KF_IS_UNSIGNED
#define KF_NEG(x) ((C)(long)(0ul - (ulong)(long)(x)))
#define KF_ABS(x) ((x) < 0 ? KF_NEG(x) : (x))
#elif KF_IS_INT || KF_IS_BOOL
#define KF_NEG(x) ((C)(0u - (uint)(x)))
#define KF_ABS(x) (x)
#else
#define KF_NEG(x) (-(x))
#define KF_ABS(x) fabs(x)
#endif
#if KF_IS_FLOAT
#define KF_RELU(x) ((x) > (C)0 ? (x) : (isnan(x) ? (x) : (C)0))
#else
#define KF_RELU(x) ((x) > (C)0 ? (x) : (C)0)
#endif
#define KF_SIGMOID(x) ((C)1 / ((C)1 + exp(-(x))))

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

KF_UNARY(abs, KF_ABS)
#if !KF_IS_BOOL
KF_UNARY(neg, KF_NEG)
KF_UNARY(relu, KF_RELU)
#endif
#if KF_IS_FLOAT
KF_UNARY(exp, exp)
KF_UNARY(log, log)
KF_UNARY(sqrt, sqrt)
KF_UNARY(sigmoid, KF_SIGMOID)
KF_UNARY(tanh, tanh)
#endif
