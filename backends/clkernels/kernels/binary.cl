// binary.cl — add, sub, mul, div, eq, lt, gt and where, elementwise over inputs the host already
// broadcast to the output's shape (zero strides) and converted to T. Each op has a strided
// kernel (operands: 0 = out, 1 = self, 2 = other; where: 1 = condition, 2 = self, 3 = other)
// and a _contig one. Integer arithmetic wraps (computed in ulong); bool add is `a || (alpha &&
// b)`, bool mul `a && b` (ST stores nonzero as 1).
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
#else
#define KF_ADD(a, b, alpha) ((a) + (alpha) * (b))
#define KF_SUB(a, b, alpha) ((a) - (alpha) * (b))
#define KF_MUL(a, b, alpha) ((a) * (b))
#endif
#define KF_DIV(a, b, alpha) ((a) / (b))

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
#if !KF_IS_BOOL
KF_BINARY(sub, KF_SUB)
#endif
#if KF_IS_FLOAT
KF_BINARY(div, KF_DIV)
#endif

#define KF_COMPARE(NAME, OP)                                                                       \
  __kernel void NAME##_strided(__global uchar* out, __global const T* a, __global const T* b,      \
      long n,                                                                                      \
                     kf_layout L) {                                                                \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[3];                                                                                   \
    KF_OFFSETS(L, i, 3, off);                                                                      \
    out[off[0]] = (uchar)(LD(a, off[1]) OP LD(b, off[2]));                                         \
  }                                                                                                \
  __kernel void NAME##_contig(__global uchar* out, __global const T* a,                            \
                              __global const T* b, long n) {                                       \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    out[i] = (uchar)(LD(a, i) OP LD(b, i));                                                        \
  }

KF_COMPARE(eq, ==)
KF_COMPARE(lt, <)
KF_COMPARE(gt, >)

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
