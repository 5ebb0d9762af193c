// reduce.cl — sum, mean, prod, amax, amin, argmax, argmin, all, any, var, std and logsumexp over
// the reduced dims of a strided input.
//
// sum/mean/prod/amax/amin/var/std/logsumexp get their input already converted to the output
// dtype T; argmax/argmin get the input in its own dtype T and write int64, all/any get it in its
// own dtype and write one byte 0/1 (bool or uint8). Complex programs have sum, mean, prod (in the
// dtype's own parts), all and any. Every kernel takes a last argument `param`
// (KF_REAL), var's and std's correction, unused by the others. The host (src/reduce_plan.cpp)
// splits the input's dims into kept dims (one output each) and reduced dims, merged where
// memory allows, in kf_reduce_layout, and picks the kernel and work-group shape (Note
// [Reduction work-group shapes] there).
//
// Note [Deterministic work-group trees]: a work-group is ox x ry work-items (get_local_size);
// item (x, y) serves output get_group_id(0) * ox + x and reduces the blocks y, y + ry,
// y + 2 ry, ... of `chunk` consecutive reduced positions each, in that order; then the ry
// partial results of an output are combined by a tree in local memory (partial y takes in
// y + s for s = ry/2, ry/4, ..., 1). Which item adds which element and in which order depends
// on the shapes and the host's choice of (ox, ry, chunk) only, never on timing, so a float sum
// has the same bits every run on a device. No atomics.
//
// Note [Column blocks]: when the outputs are neighbours in the input (a sum over dim 0 of a
// row-major matrix), a CPU device, which runs a work-group's items one after another, would
// have each item walk one column down the rows, a cache line per row for one float. The
// NAME_columns kernels give each item KF_COLS neighbouring outputs instead and walk the reduced
// dim once, reading KF_COLS consecutive elements per step (one accumulator each, so the
// compiler can vectorise across them). Each output still adds its elements in order, so these
// are deterministic too. GPUs use the tree kernels (src/reduce_plan.cpp chooses), so the SPIR-V
// build (__SPIR__, for Level Zero GPUs) leaves the column kernels out; their private arrays
// would also need llvm-spirv 15 to place their OpVariables, which it does not.
//
// Accumulators: floating sums in double when the device has fp64 (else float), integer sums in
// wrapping 64-bit (ulong); mean divides by the number of reduced elements (0/0 = NaN). amax
// and argmax compare in C (float for float16/bfloat16) with NaN as the greatest value; argmax
// returns the first index of the maximum (ties across items: the smaller index wins), counted
// in the row-major order of the reduced dims; amin and argmin mirror them with NaN as the least
// value. prod multiplies in the sums' accumulator (an empty product is 1; integers wrap; bool's
// 0/1 product is its and). all and any test x != 0 (NaN is true). var and std: Note [Moments
// trees]; logsumexp: Note [Logsumexp trees].
#if KF_HAS_FP64 && KF_DT != 1
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if KF_HAS_FP64 || KF_DT == 1
typedef double KF_REAL;  // var's correction, moments and logsumexp's accumulators
#else
typedef float KF_REAL;
#endif

#define KF_RED_WG 256  // the most work-items in a work-group (kMaxGroup in src/reduce_plan.hpp)

// The host's struct kf::clk::ReduceLayout (src/reduce_plan.hpp) has the same bytes.
typedef struct {
  long kshape[KF_MAX_DIMS];  // kept dims, row-major: output number o decodes in them
  long kout[KF_MAX_DIMS];    // their strides in the output
  long kin[KF_MAX_DIMS];     // their strides in the input
  long rshape[KF_MAX_DIMS];  // reduced dims, row-major: reduced position r decodes in them
  long rin[KF_MAX_DIMS];     // their strides in the input
  int kdim;                  // 0: one output
  int rdim;                  // >= 1
} kf_reduce_layout;

/// The output's and the input's element offsets of output number o.
static inline void kf_kept_offsets(const kf_reduce_layout* L, long o, long* out_off, long* in_off) {
  long a = 0, b = 0;
  for (int d = L->kdim - 1; d >= 0; --d) {
    const long i = o % L->kshape[d];
    o /= L->kshape[d];
    a += i * L->kout[d];
    b += i * L->kin[d];
  }
  *out_off = a;
  *in_off = b;
}

/// Decodes reduced position r into idx (row-major in rshape); returns its input offset.
static inline long kf_reduced_start(const kf_reduce_layout* L, long r, long* idx) {
  long off = 0;
  for (int d = L->rdim - 1; d >= 0; --d) {
    idx[d] = r % L->rshape[d];
    r /= L->rshape[d];
    off += idx[d] * L->rin[d];
  }
  return off;
}

/// Advances idx to the next reduced position; returns its input offset (`off`: idx's).
static inline long kf_reduced_next(const kf_reduce_layout* L, long* idx, long off) {
  int d = L->rdim - 1;
  ++idx[d];
  off += L->rin[d];
  while (d > 0 && idx[d] == L->rshape[d]) {
    off -= idx[d] * L->rin[d];
    idx[d] = 0;
    --d;
    ++idx[d];
    off += L->rin[d];
  }
  return off;
}

// ------------------------------------------------------------------ the accumulators

#if KF_IS_COMPLEX
typedef C KF_SUM;  // in the dtype's own parts
#elif KF_IS_FLOAT && (KF_HAS_FP64 || KF_DT == 1)
typedef double KF_SUM;
#elif KF_IS_FLOAT
typedef float KF_SUM;
#else
typedef ulong KF_SUM;  // wraps like the CPU backend's uint64_t
#endif

#if KF_IS_FLOAT
#define KF_LOWEST (-INFINITY)
#define KF_HIGHEST INFINITY
#define KF_LESS(x, best) ((x) < (best) || ((x) != (x) && (best) == (best)))
#define KF_NAN_MIN(acc, x) (((x) < (acc) || (x) != (x)) ? (x) : (acc))
#define KF_GREATER(x, best) ((x) > (best) || ((x) != (x) && (best) == (best)))
#define KF_NAN_MAX(acc, x) (((x) > (acc) || (x) != (x)) ? (x) : (acc))
#else
#if KF_DT == 4
#define KF_LOWEST CHAR_MIN
#elif KF_DT == 6
#define KF_LOWEST SHRT_MIN
#elif KF_DT == 7
#define KF_LOWEST INT_MIN
#elif KF_DT == 8
#define KF_LOWEST LONG_MIN
#else
#define KF_LOWEST 0  // the unsigned integers, bool
#endif
#if KF_DT == 4
#define KF_HIGHEST CHAR_MAX
#elif KF_DT == 5
#define KF_HIGHEST UCHAR_MAX
#elif KF_DT == 6
#define KF_HIGHEST SHRT_MAX
#elif KF_DT == 7
#define KF_HIGHEST INT_MAX
#elif KF_DT == 8
#define KF_HIGHEST LONG_MAX
#elif KF_DT == 9
#define KF_HIGHEST 1  // bool
#elif KF_DT == 10
#define KF_HIGHEST USHRT_MAX
#elif KF_DT == 11
#define KF_HIGHEST UINT_MAX
#else
#define KF_HIGHEST ULONG_MAX
#endif
#define KF_GREATER(x, best) ((x) > (best))
#define KF_NAN_MAX(acc, x) ((x) > (acc) ? (x) : (acc))
#define KF_LESS(x, best) ((x) < (best))
#define KF_NAN_MIN(acc, x) ((x) < (acc) ? (x) : (acc))
#endif

#if !KF_IS_COMPLEX  // complex numbers have no order: no extrema
/// argmax's partial result: the best value so far and its position (-1: none yet).
typedef struct {
  C v;
  long i;
} kf_arg_best;

static inline kf_arg_best kf_arg_none(void) {
  kf_arg_best b;
  b.v = (C)0;
  b.i = -1;
  return b;
}

/// Whether partial result (bv, bi) beats (av, ai): the greater value (NaN greatest; argmin:
/// the lesser, NaN least), on a tie the smaller position; a position < 0 is no result. This
/// order is total, so the tree's shape does not change the answer.
#define KF_ARG_BEATS(NAME, BETTER)                                 \
  static inline bool NAME(C bv, long bi, C av, long ai) {          \
    if (bi < 0) return false;                                      \
    if (ai < 0) return true;                                       \
    if (BETTER(bv, av)) return true;                               \
    if (BETTER(av, bv)) return false;                              \
    return bi < ai;                                                \
  }
KF_ARG_BEATS(kf_arg_beats, KF_GREATER)
KF_ARG_BEATS(kf_argmin_beats, KF_LESS)
#endif

#define KF_SUM_STEP(acc, x, pos) ((acc) += (KF_SUM)(x))
#define KF_SUM_COMBINE(acc, later) ((acc) += (later))
#define KF_MAX_STEP(acc, x, pos) ((acc) = KF_NAN_MAX((acc), (x)))
#define KF_MAX_COMBINE(acc, later) ((acc) = KF_NAN_MAX((acc), (later)))
#define KF_MIN_STEP(acc, x, pos) ((acc) = KF_NAN_MIN((acc), (x)))
#define KF_MIN_COMBINE(acc, later) ((acc) = KF_NAN_MIN((acc), (later)))
#define KF_ARG_STEP_BY(acc, x, pos, BETTER)                            \
  do {                                                                 \
    const C kf_x_ = (x);                                               \
    if ((acc).i < 0 || BETTER(kf_x_, (acc).v)) {                       \
      (acc).v = kf_x_;                                                 \
      (acc).i = (pos);                                                 \
    }                                                                  \
  } while (0)
#define KF_ARG_COMBINE_BY(acc, later, BEATS)                           \
  do {                                                                 \
    if (BEATS((later).v, (later).i, (acc).v, (acc).i)) {               \
      (acc).v = (later).v;                                             \
      (acc).i = (later).i;                                             \
    }                                                                  \
  } while (0)
#define KF_ARG_STEP(acc, x, pos) KF_ARG_STEP_BY(acc, x, pos, KF_GREATER)
#define KF_ARG_COMBINE(acc, later) KF_ARG_COMBINE_BY(acc, later, kf_arg_beats)
#define KF_ARGMIN_STEP(acc, x, pos) KF_ARG_STEP_BY(acc, x, pos, KF_LESS)
#define KF_ARGMIN_COMBINE(acc, later) KF_ARG_COMBINE_BY(acc, later, kf_argmin_beats)
#if KF_IS_COMPLEX  // C99 Annex G's product (common.clh); true is either part nonzero
#define KF_PROD_STEP(acc, z, pos) ((acc) = kf_cmul((acc), (z)))
#define KF_PROD_COMBINE(acc, later) ((acc) = kf_cmul((acc), (later)))
#define KF_PROD_ONE KF_CPLX(1, 0)
#define KF_ALL_STEP(acc, z, pos) ((acc) &= (uchar)KF_CTRUTH(z))
#define KF_ANY_STEP(acc, z, pos) ((acc) |= (uchar)KF_CTRUTH(z))
#else
#define KF_PROD_STEP(acc, x, pos) ((acc) *= (KF_SUM)(x))
#define KF_PROD_COMBINE(acc, later) ((acc) *= (later))
#define KF_PROD_ONE ((KF_SUM)1)
#define KF_ALL_STEP(acc, x, pos) ((acc) &= (uchar)((x) != (C)0))
#define KF_ANY_STEP(acc, x, pos) ((acc) |= (uchar)((x) != (C)0))
#endif
#define KF_ALL_COMBINE(acc, later) ((acc) &= (later))
#define KF_ANY_COMBINE(acc, later) ((acc) |= (later))

#if KF_IS_FLOAT || KF_IS_COMPLEX
#define KF_SUM_STORE(out, off, acc, n) ST(out, off, (C)(acc))
#else
#define KF_SUM_STORE(out, off, acc, n) ST(out, off, (C)(long)(acc))
#endif
#define KF_MEAN_STORE(out, off, acc, n) ST(out, off, (C)((acc) / (KF_SUM)(n)))
#define KF_MAX_STORE(out, off, acc, n) ST(out, off, (acc))
#define KF_ARG_STORE(out, off, acc, n) ((out)[off] = (acc).i < 0 ? 0 : (acc).i)
#define KF_BYTE_STORE(out, off, acc, n) ((out)[off] = (acc))

// Note [Moments trees]: var and std accumulate (n, mean, m2) in KF_REAL: an element by
// Welford's update, partial results by Chan et al.'s merge (delta = mb - ma, mean = ma +
// delta nb / n, m2 = m2a + m2b + delta^2 na nb / n), in the fixed order of the trees. The
// result is m2 / max(0, n - correction) (std: its square root): inf, or NaN when m2 is 0, where
// n <= correction, as the CPU backend (moments_kernels.cpp). NaN and inf give NaN.
#if KF_IS_FLOAT
typedef struct {
  KF_REAL n, mean, m2;
} kf_moments;

static inline kf_moments kf_moments_none(void) {
  kf_moments m;
  m.n = 0;
  m.mean = 0;
  m.m2 = 0;
  return m;
}

static inline kf_moments kf_moments_step(kf_moments a, KF_REAL x) {
  a.n += 1;
  const KF_REAL delta = x - a.mean;
  a.mean += delta / a.n;
  a.m2 += delta * (x - a.mean);
  return a;
}

static inline kf_moments kf_moments_merge(kf_moments a, kf_moments b) {
  if (b.n == 0) return a;
  if (a.n == 0) return b;
  const KF_REAL n = a.n + b.n, delta = b.mean - a.mean;
  a.mean += delta * (b.n / n);
  a.m2 += b.m2 + delta * delta * (a.n * b.n / n);
  a.n = n;
  return a;
}

static inline KF_REAL kf_variance(kf_moments m, KF_REAL correction) {
  return m.m2 / fmax(m.n - correction, (KF_REAL)0);
}

#define KF_VAR_STEP(acc, x, pos) ((acc) = kf_moments_step((acc), (KF_REAL)(x)))
#define KF_VAR_COMBINE(acc, later) ((acc) = kf_moments_merge((acc), (later)))
#define KF_VAR_STORE(out, off, acc, n) ST(out, off, (C)kf_variance((acc), param))
#define KF_STD_STORE(out, off, acc, n) ST(out, off, (C)sqrt(kf_variance((acc), param)))

// Note [Logsumexp trees]: logsumexp accumulates (m, s, special) in KF_REAL: m the largest finite
// value seen (-inf: none), s the sum of e^(x - m) over the finite values (rescaled by
// e^(m_old - m_new) when m grows), special the sum of the +inf and NaN elements; -inf adds
// nothing. The result is special when it is not 0 (inf or NaN), else -inf when nothing finite
// was seen (an empty or all -inf reduction), else m + log(s), as the CPU backend
// (logsumexp_kernels.cpp). Partial results merge the same way, in the trees' fixed order.
typedef struct {
  KF_REAL m, s, special;
} kf_lse;

static inline kf_lse kf_lse_none(void) {
  kf_lse a;
  a.m = -INFINITY;
  a.s = 0;
  a.special = 0;
  return a;
}

static inline kf_lse kf_lse_merge(kf_lse a, kf_lse b) {
  a.special += b.special;
  if (b.m == -INFINITY) return a;
  if (a.m == -INFINITY) {
    a.m = b.m;
    a.s = b.s;
  } else if (b.m > a.m) {
    a.s = a.s * exp(a.m - b.m) + b.s;
    a.m = b.m;
  } else {
    a.s += b.s * exp(b.m - a.m);
  }
  return a;
}

static inline kf_lse kf_lse_step(kf_lse a, KF_REAL x) {
  if (isfinite(x)) {
    kf_lse one;
    one.m = x;
    one.s = 1;
    one.special = 0;
    return kf_lse_merge(a, one);
  }
  if (x != -INFINITY) a.special += x;  // +inf or NaN
  return a;
}

static inline KF_REAL kf_lse_result(kf_lse a) {
  if (a.special != 0 || isnan(a.special)) return a.special;
  if (a.m == -INFINITY) return -INFINITY;
  return a.m + log(a.s);
}

#define KF_LSE_STEP(acc, x, pos) ((acc) = kf_lse_step((acc), (KF_REAL)(x)))
#define KF_LSE_COMBINE(acc, later) ((acc) = kf_lse_merge((acc), (later)))
#define KF_LSE_STORE(out, off, acc, n) ST(out, off, (C)kf_lse_result(acc))
#endif

// ------------------------------------------------------------------ the kernels

/// Item (x, y)'s blocks of output o (input offset `base`), in order (Note [Deterministic
/// work-group trees]). A one-dim reduced layout is indexed directly, four positions at a time
/// into four accumulators (acc, a1, a2, a3: position b + 4i + j goes to accumulator j, the tail
/// to acc), combined in a fixed order at the end; others walk their index.
#define KF_VISIT(A, IDENTITY, STEP, COMBINE)                                                  \
  {                                                                                         \
    A a1 = IDENTITY, a2 = IDENTITY, a3 = IDENTITY;                                          \
    for (long b = (long)y * chunk; b < n_red; b += (long)ry * chunk) {                      \
      const long e = min(b + chunk, n_red);                                                 \
      long r = b;                                                                           \
      if (L.rdim == 1) {                                                                    \
        const long s = L.rin[0];                                                            \
        for (; r + 4 <= e; r += 4) {                                                        \
          STEP(acc, LD(in, base + r * s), r);                                               \
          STEP(a1, LD(in, base + (r + 1) * s), r + 1);                                      \
          STEP(a2, LD(in, base + (r + 2) * s), r + 2);                                      \
          STEP(a3, LD(in, base + (r + 3) * s), r + 3);                                      \
        }                                                                                   \
        for (; r < e; ++r) STEP(acc, LD(in, base + r * s), r);                              \
      } else {                                                                              \
        long idx[KF_MAX_DIMS];                                                              \
        long off = kf_reduced_start(&L, b, idx);                                            \
        for (; r < e; ++r) {                                                                \
          STEP(acc, LD(in, base + off), r);                                                 \
          off = kf_reduced_next(&L, idx, off);                                              \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
    COMBINE(acc, a1);                                                                       \
    COMBINE(a2, a3);                                                                        \
    COMBINE(acc, a2);                                                                       \
  }

/// One reduction kernel: NAME(out, in, n_out, n_red, chunk, L, param) with accumulator type A
/// (STORE may read `param`).
#define KF_REDUCE_KERNEL(NAME, OUT_T, A, IDENTITY, STEP, COMBINE, STORE)                   \
  __kernel void NAME(__global OUT_T* out, __global const T* in, long n_out, long n_red,     \
                     long chunk, kf_reduce_layout L, KF_REAL param) {                       \
    __local A part[KF_RED_WG];                                                              \
    const int x = (int)get_local_id(0), y = (int)get_local_id(1);                           \
    const int ox = (int)get_local_size(0), ry = (int)get_local_size(1);                     \
    const long o = (long)get_group_id(0) * ox + x;                                          \
    A acc = IDENTITY;                                                                       \
    long out_off = 0;                                                                       \
    if (o < n_out) {                                                                        \
      long base = 0;                                                                        \
      kf_kept_offsets(&L, o, &out_off, &base);                                              \
      KF_VISIT(A, IDENTITY, STEP, COMBINE)                                                  \
    }                                                                                       \
    part[y * ox + x] = acc;                                                                 \
    for (int s = ry / 2; s > 0; s /= 2) {                                                   \
      barrier(CLK_LOCAL_MEM_FENCE);                                                         \
      if (y < s) {                                                                          \
        const A later = part[(y + s) * ox + x];                                             \
        COMBINE(acc, later);                                                                \
        part[y * ox + x] = acc;                                                             \
      }                                                                                     \
    }                                                                                       \
    if (y == 0 && o < n_out) STORE(out, out_off, acc, n_red);                               \
  }

#define KF_COLS 128  // outputs per item of the _columns kernels (kColumnBlock, reduce_plan.hpp)

/// NAME_columns(out, in, n_out, n_red, unused, L, param) (Note [Column blocks]): item i reduces
/// outputs i * KF_COLS ... together, one reduced position at a time for all of them; one
/// reduced dim (L.rdim == 1), and the innermost kept dim has input stride 1. `unused` keeps the
/// arguments of the tree kernels.
#define KF_COLUMNS_KERNEL(NAME, OUT_T, A, IDENTITY, STEP, STORE)                             \
  __kernel void NAME##_columns(__global OUT_T* out, __global const T* in, long n_out,       \
                               long n_red, long unused, kf_reduce_layout L,                 \
                               KF_REAL param) {                                             \
    const long o0 = (long)get_global_id(0) * KF_COLS;                                       \
    (void)unused;                                                                           \
    if (o0 >= n_out) return;                                                                \
    const int nj = (int)min((long)KF_COLS, n_out - o0);                                     \
    const long s = L.rin[0];                                                                \
    A acc[KF_COLS];                                                                         \
    long at[KF_COLS];                                                                       \
    for (int j = 0; j < nj; ++j) {                                                          \
      long out_off;                                                                         \
      acc[j] = IDENTITY;                                                                    \
      kf_kept_offsets(&L, o0 + j, &out_off, &at[j]);                                        \
    }                                                                                       \
    const long inner = L.kshape[L.kdim - 1];                                                \
    if (o0 % inner + nj <= inner) { /* one run of the innermost kept dim: consecutive */   \
      for (long r = 0; r < n_red; ++r) {                                                    \
        const long p = at[0] + r * s;                                                       \
        for (int j = 0; j < nj; ++j) STEP(acc[j], LD(in, p + j), r);                        \
      }                                                                                     \
    } else {                                                                                \
      for (long r = 0; r < n_red; ++r) {                                                    \
        for (int j = 0; j < nj; ++j) STEP(acc[j], LD(in, at[j] + r * s), r);                \
      }                                                                                     \
    }                                                                                       \
    for (int j = 0; j < nj; ++j) {                                                          \
      long out_off, in_off;                                                                 \
      kf_kept_offsets(&L, o0 + j, &out_off, &in_off);                                       \
      STORE(out, out_off, acc[j], n_red);                                                   \
    }                                                                                       \
  }

#if defined(__SPIR__)  // the SPIR-V build: for GPUs (Level Zero), which never use them
#define KF_REDUCE_KERNELS(NAME, OUT_T, A, IDENTITY, STEP, COMBINE, STORE) \
  KF_REDUCE_KERNEL(NAME, OUT_T, A, IDENTITY, STEP, COMBINE, STORE)
#else
#define KF_REDUCE_KERNELS(NAME, OUT_T, A, IDENTITY, STEP, COMBINE, STORE) \
  KF_REDUCE_KERNEL(NAME, OUT_T, A, IDENTITY, STEP, COMBINE, STORE)        \
  KF_COLUMNS_KERNEL(NAME, OUT_T, A, IDENTITY, STEP, STORE)
#endif

#if !KF_IS_BOOL
KF_REDUCE_KERNELS(sum, T, KF_SUM, (KF_SUM)0, KF_SUM_STEP, KF_SUM_COMBINE, KF_SUM_STORE)
#endif
#if KF_IS_FLOAT || KF_IS_COMPLEX
KF_REDUCE_KERNELS(mean, T, KF_SUM, (KF_SUM)0, KF_SUM_STEP, KF_SUM_COMBINE, KF_MEAN_STORE)
#endif
KF_REDUCE_KERNELS(prod, T, KF_SUM, KF_PROD_ONE, KF_PROD_STEP, KF_PROD_COMBINE, KF_SUM_STORE)
#if !KF_IS_COMPLEX
KF_REDUCE_KERNELS(amax, T, C, (C)KF_LOWEST, KF_MAX_STEP, KF_MAX_COMBINE, KF_MAX_STORE)
KF_REDUCE_KERNELS(amin, T, C, (C)KF_HIGHEST, KF_MIN_STEP, KF_MIN_COMBINE, KF_MAX_STORE)
KF_REDUCE_KERNELS(argmax, long, kf_arg_best, kf_arg_none(), KF_ARG_STEP, KF_ARG_COMBINE,
                  KF_ARG_STORE)
KF_REDUCE_KERNELS(argmin, long, kf_arg_best, kf_arg_none(), KF_ARGMIN_STEP, KF_ARGMIN_COMBINE,
                  KF_ARG_STORE)
#endif
// all and any are OpenCL C builtins: their kernels are logical_all and logical_any.
KF_REDUCE_KERNELS(logical_all, uchar, uchar, (uchar)1, KF_ALL_STEP, KF_ALL_COMBINE,
                  KF_BYTE_STORE)
KF_REDUCE_KERNELS(logical_any, uchar, uchar, (uchar)0, KF_ANY_STEP, KF_ANY_COMBINE,
                  KF_BYTE_STORE)
#if KF_IS_FLOAT
KF_REDUCE_KERNELS(var, T, kf_moments, kf_moments_none(), KF_VAR_STEP, KF_VAR_COMBINE,
                  KF_VAR_STORE)
KF_REDUCE_KERNELS(std, T, kf_moments, kf_moments_none(), KF_VAR_STEP, KF_VAR_COMBINE,
                  KF_STD_STORE)
KF_REDUCE_KERNELS(logsumexp, T, kf_lse, kf_lse_none(), KF_LSE_STEP, KF_LSE_COMBINE,
                  KF_LSE_STORE)
#endif
