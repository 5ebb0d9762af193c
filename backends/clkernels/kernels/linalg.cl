// linalg.cl — mm and bmm: out[b] = a[b] @ b[b], tiled through local memory. Each work-item
// computes one element of out; a work-group of TILE x TILE items loads one TILE x TILE tile of
// a and of b per step of k. Operands may be any strided view (strides in kf_mm_shape, batch
// stride first). Floats accumulate in C (float for the 16-bit floats), complex numbers in C
// too, integers in wrapping 64-bit, as the CPU backend's.
typedef struct {
  long m, n, k;
  long a[3], b[3], o[3];  // batch, row and column strides of a, b and out, in elements
} kf_mm_shape;

#if KF_IS_FLOAT
typedef C KF_ACC;
#define KF_MAC(acc, x, y) ((acc) + (x) * (y))
#define KF_FINISH(acc) (acc)
#elif KF_IS_COMPLEX  // the textbook product, as the BLAS's cgemm and zgemm
typedef C KF_ACC;
#define KF_MAC(acc, p, q) \
  ((acc) + KF_CPLX((p).x * (q).x - (p).y * (q).y, (p).x * (q).y + (p).y * (q).x))
#define KF_FINISH(acc) (acc)
#else
typedef ulong KF_ACC;
#define KF_MAC(acc, x, y) ((acc) + (ulong)(long)(x) * (ulong)(long)(y))
#define KF_FINISH(acc) ((C)(long)(acc))
#endif

#define KF_MM(NAME, TILE)                                                                    \
  __kernel void NAME(__global T* out, __global const T* a, __global const T* b,             \
                     kf_mm_shape s) {                                                      \
    __local C ta[TILE][TILE];                                                              \
    __local C tb[TILE][TILE];                                                              \
    const long col = (long)get_global_id(0), row = (long)get_global_id(1);                 \
    const long batch = (long)get_global_id(2);                                             \
    const int lc = (int)get_local_id(0), lr = (int)get_local_id(1);                        \
    const long a0 = batch * s.a[0], b0 = batch * s.b[0];                                   \
    KF_ACC acc = 0;                                                                        \
    for (long t = 0; t < s.k; t += TILE) {                                                 \
      const long ak = t + lc, bk = t + lr;                                                 \
      ta[lr][lc] = (row < s.m && ak < s.k) ? LD(a, a0 + row * s.a[1] + ak * s.a[2]) : (C)0; \
      tb[lr][lc] = (bk < s.k && col < s.n) ? LD(b, b0 + bk * s.b[1] + col * s.b[2]) : (C)0; \
      barrier(CLK_LOCAL_MEM_FENCE);                                                        \
      for (int j = 0; j < TILE; ++j) acc = KF_MAC(acc, ta[lr][j], tb[j][lc]);              \
      barrier(CLK_LOCAL_MEM_FENCE);                                                        \
    }                                                                                      \
    if (row < s.m && col < s.n) {                                                          \
      ST(out, batch * s.o[0] + row * s.o[1] + col * s.o[2], KF_FINISH(acc));               \
    }                                                                                      \
  }

#if !KF_IS_BOOL
KF_MM(mm_tile16, 16)
KF_MM(mm_tile8, 8)
#endif
