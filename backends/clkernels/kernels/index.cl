// index.cl — index_select and gather, reading self at positions an index names, and
// index_copy_, index_add_ and scatter_add_, writing at them. The host checked
// every index against self's size along dim before the launch (src/index_ops.cpp), so the
// kernels read self only in range. The element is copied as its bits (LD/ST: a bool byte is
// read as != 0, Note [Bool bytes]).
//
// index_select_<i32|i64>: over out's shape, with the merged layout of three operands: 0 = out,
// 1 = self with its stride along dim set to 0, 2 = the position j along dim (stride 1 along dim,
// 0 elsewhere); self's element is off[1] + index[j * istride] * sdim.
// gather: over index's shape (out's), operands 0 = out, 1 = index, 2 = self with its stride
// along dim set to 0; self's element is off[2] + index[off[1]] * sdim.
#define KF_INDEX_SELECT(NAME, I)                                                              \
  __kernel void NAME(__global T* out, __global const T* self, __global const I* index,        \
                     long istride, long sdim, long n, kf_layout L) {                          \
    const long i = (long)get_global_id(0);                                                    \
    if (i >= n) return;                                                                       \
    long off[3];                                                                              \
    KF_OFFSETS(L, i, 3, off);                                                                 \
    const long v = (long)index[off[2] * istride];                                             \
    ST(out, off[0], LD(self, off[1] + v * sdim));                                             \
  }

KF_INDEX_SELECT(index_select_i32, int)
KF_INDEX_SELECT(index_select_i64, long)

__kernel void gather(__global T* out, __global const long* index, __global const T* self,
                     long sdim, long n, kf_layout L) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  long off[3];
  KF_OFFSETS(L, i, 3, off);
  ST(out, off[0], LD(self, off[2] + index[off[1]] * sdim));
}

// index_copy_ and index_add_, one work-item per element of out (self, or a copy of it), over
// out's shape with operands 0 = out, 1 = the position p along dim (stride 1 along dim, 0
// elsewhere), 2 = source with its stride along dim set to 0. The item walks the whole index in
// order and takes every entry j naming p: index_copy_ writes the last one's source element,
// index_add_ adds alpha times each in index order, rounding to T after each addition as the CPU
// backend (Note [Per-destination index writes] in src/index_ops.cpp). No atomics.
#if defined(KF_HALF_STORAGE)
static inline float kf_round_t(float v) {
  ushort b;
  vstore_half_rte(v, 0, (__private half*)&b);
  return vload_half(0, (__private const half*)&b);
}
#elif defined(KF_BF16_STORAGE)
static inline float kf_round_t(float v) { return kf_bf16_to_float(kf_float_to_bf16(v)); }
#elif KF_IS_INT
static inline C kf_round_t(ulong v) { return (C)(long)v; }
#else
static inline C kf_round_t(C v) { return v; }
#endif
#if KF_IS_INT
#define KF_ADD_SCALED(x, s, alpha) kf_round_t((ulong)(long)(x) + (ulong)(long)(alpha) * \
                                              (ulong)(long)(s))
#else
#define KF_ADD_SCALED(x, s, alpha) kf_round_t((x) + (alpha) * (s))
#endif

#define KF_INDEX_WRITE(NAME, I)                                                               \
  __kernel void NAME(__global T* out, __global const T* source, __global const I* index,      \
                     long k, long istride, long sdim, C alpha, int add, long n,              \
                     kf_layout L) {                                                           \
    const long i = (long)get_global_id(0);                                                    \
    if (i >= n) return;                                                                       \
    long off[3];                                                                              \
    KF_OFFSETS(L, i, 3, off);                                                                 \
    C v = LD(out, off[0]);                                                                    \
    int hit = 0;                                                                              \
    for (long j = 0; j < k; ++j) {                                                            \
      if ((long)index[j * istride] != off[1]) continue;                                       \
      const C s = LD(source, off[2] + j * sdim);                                              \
      KF_INDEX_STEP(v, s, alpha, add);                                                        \
      hit = 1;                                                                                \
    }                                                                                         \
    if (hit) ST(out, off[0], v);                                                              \
  }
#if KF_IS_BOOL
#define KF_INDEX_STEP(v, s, alpha, add) ((v) = (s))  // index_add_ is not for bool
#else
#define KF_INDEX_STEP(v, s, alpha, add) ((v) = (add) ? KF_ADD_SCALED(v, s, alpha) : (s))
#endif

KF_INDEX_WRITE(index_write_i32, int)
KF_INDEX_WRITE(index_write_i64, long)

// scatter_add_: one work-item per (position p along dim, coordinates of index outside dim),
// over index's shape with dim's size replaced by out's; operands 0 = out, 1 = index, 2 = src
// (both with their stride along dim set to 0), 3 = p (stride 1 along dim, 0 elsewhere). The
// item adds, in index order, every src element whose index entry along dim names p, rounding to
// T after each addition (Note [Per-destination index writes]).
#if !KF_IS_BOOL
__kernel void scatter_add(__global T* out, __global const T* src, __global const long* index,
                          long len, long idim, long sdim, long n, kf_layout L) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  long off[4];
  KF_OFFSETS(L, i, 4, off);
  C v = LD(out, off[0]);
  int hit = 0;
  for (long j = 0; j < len; ++j) {
    if (index[off[1] + j * idim] != off[3]) continue;
    v = KF_ADD_SCALED(v, LD(src, off[2] + j * sdim), (C)1);
    hit = 1;
  }
  if (hit) ST(out, off[0], v);
}
#endif
