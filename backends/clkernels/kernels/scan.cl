// scan.cl — cumsum and cumprod along one dim, and the compactions of masked_select_static and
// nonzero_static (at the end). cumsum and cumprod: one work-group per line (src/rows.hpp: operand 0
// of the layout = out, 1 = in, over the dims other than dim). The core hands over self already
// converted to the output's dtype (every numeric dtype but bool). Element i of a line is the sum
// (the product) of elements 0..i: integers in wrapping 64-bit arithmetic stored modulo their width
// (two's complement, as the CPU backend), floating types accumulated in double where the device has
// it (else float) and rounded once per element, complex ones in their own parts.
//
// Note [Work-group scans]: item k of the group takes the k-th of `size` consecutive chunks of
// the line (chunk = ceil(n / size)): it folds its chunk, the chunk totals are scanned across the
// group in local memory (Hillis and Steele: step s combines the total s items earlier), and the
// item folds its chunk again from the total of the chunks before it, storing each element. The
// order of the operations depends on n and the group size only, so results are the same on
// every run (no atomics). Each item reads and writes only its own chunk, and reads an element
// before writing it, so out may be self.
#if KF_HAS_FP64 && KF_DT != 1
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define KF_SCAN_GROUP 256  // the most items of a work-group (src/rows.cpp, scan_ops.cpp)

#if !KF_IS_BOOL
#if KF_IS_COMPLEX
typedef C KF_CUM;  // in the dtype's own parts
#elif KF_IS_FLOAT && (KF_HAS_FP64 || KF_DT == 1)
typedef double KF_CUM;
#elif KF_IS_FLOAT
typedef float KF_CUM;
#else
typedef ulong KF_CUM;  // wraps like the CPU backend's unsigned arithmetic
#endif

#if KF_IS_FLOAT || KF_IS_COMPLEX
#define KF_CUM_STORE(v) ((C)(v))
#else
#define KF_CUM_STORE(v) ((C)(long)(v))
#endif

#define KF_PLUS(a, b) ((a) + (b))
#if KF_IS_COMPLEX  // C99 Annex G's product (common.clh), as std::complex on the CPU
#define KF_TIMES(a, b) kf_cmul(a, b)
#define KF_CUM_ONE KF_CPLX(1, 0)
#else
#define KF_TIMES(a, b) ((a) * (b))
#define KF_CUM_ONE ((KF_CUM)1)
#endif

#define KF_SCAN_ROWS(NAME, OP, IDENTITY)                                                        \
  __kernel void NAME##_rows(__global T* out, __global const T* in, long n, long si, long so,  \
                            long rows, kf_layout L) {                                         \
    __local KF_CUM part[KF_SCAN_GROUP];                                                       \
    const long row = (long)get_group_id(0);                                                   \
    const int lid = (int)get_local_id(0), size = (int)get_local_size(0);                      \
    if (row >= rows) return; /* whole groups only: the group takes this branch alike */       \
    long off[2];                                                                              \
    KF_OFFSETS(L, row, 2, off);                                                               \
    const long chunk = (n + size - 1) / size;                                                 \
    const long b = min((long)lid * chunk, n), e = min(b + chunk, n);                          \
    KF_CUM acc = IDENTITY;                                                                    \
    for (long i = b; i < e; ++i) acc = OP(acc, (KF_CUM)LD(in, off[1] + i * si));              \
    part[lid] = acc;                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (int s = 1; s < size; s *= 2) {                                                       \
      const KF_CUM earlier = lid >= s ? part[lid - s] : IDENTITY;                             \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
      part[lid] = OP(earlier, part[lid]);                                                     \
      barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    }                                                                                         \
    KF_CUM run = lid > 0 ? part[lid - 1] : IDENTITY;                                          \
    for (long i = b; i < e; ++i) {                                                            \
      run = OP(run, (KF_CUM)LD(in, off[1] + i * si));                                         \
      ST(out, off[0] + i * so, KF_CUM_STORE(run));                                            \
    }                                                                                         \
  }

KF_SCAN_ROWS(cumsum, KF_PLUS, (KF_CUM)0)
KF_SCAN_ROWS(cumprod, KF_TIMES, KF_CUM_ONE)
#endif

// The work-group's scan of its items' counts (the compactions below): returns the sum of the
// counts of the items before this one, and the sum of all in *total. Every item calls it.
long group_offset(__local long* part, long count, long* total) {
  const int lid = (int)get_local_id(0), group = (int)get_local_size(0);
  part[lid] = count;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 1; s < group; s *= 2) {
    const long earlier = lid >= s ? part[lid - s] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    part[lid] += earlier;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *total = part[group - 1];
  return lid > 0 ? part[lid - 1] : 0;
}

// masked_select_static: the elements of self where mask is true (a byte != 0), in row-major
// order, the first `size` of them into the 1-D out (stride os), then zeros. One work-group over
// the whole tensor (Note [Work-group scans], with counts): item k counts the true mask bytes of
// the k-th chunk of row-major positions, the counts are scanned, and the item writes its chunk's
// selected elements from its offset; the items then zero out's places past the total. The
// layout: self's shape, operand 0 = self, 1 = mask.
__kernel void masked_select(__global T* out, __global const T* self, __global const uchar* mask,
                            long n, long size, long os, kf_layout L) {
  __local long part[KF_SCAN_GROUP];
  const int lid = (int)get_local_id(0), group = (int)get_local_size(0);
  const long chunk = (n + group - 1) / group;
  const long b = min((long)lid * chunk, n), e = min(b + chunk, n);
  long count = 0;
  for (long i = b; i < e; ++i) {
    long off[2];
    KF_OFFSETS(L, i, 2, off);
    count += mask[off[1]] != 0;
  }
  long total;
  long at = group_offset(part, count, &total);
  for (long i = b; i < e && at < size; ++i) {
    long off[2];
    KF_OFFSETS(L, i, 2, off);
    if (mask[off[1]] == 0) continue;
    ST(out, at * os, LD(self, off[0]));
    ++at;
  }
  for (long q = total + lid; q < size; q += group) ST(out, q * os, (C)0);
}

#if KF_IS_COMPLEX
#define KF_NONZERO(z) KF_CTRUTH(z)
#else
#define KF_NONZERO(x) ((x) != 0)
#endif

// nonzero_static: the coordinates of self's nonzero elements (LD(x) != 0: NaN is nonzero, -0
// is not, a bool byte is nonzero when not 0) in row-major order, the first `size` of them as
// rows of out (row stride rs, column stride cs), the rows past the count filled with `fill`.
// One work-group, as masked_select: item k counts the k-th chunk of row-major positions, the
// counts are scanned, and the item writes its chunk's rows from its offset. L: self's own shape
// (not merged: the coordinates are in it) and its strides as operand 0.
__kernel void nonzero_static(__global long* out, __global const T* self, long n, long size,
                             long rs, long cs, long fill, kf_layout L) {
  __local long part[KF_SCAN_GROUP];
  const int lid = (int)get_local_id(0), group = (int)get_local_size(0);
  const long chunk = (n + group - 1) / group;
  const long b = min((long)lid * chunk, n), e = min(b + chunk, n);
  long count = 0;
  for (long i = b; i < e; ++i) {
    long off[1];
    KF_OFFSETS(L, i, 1, off);
    count += KF_NONZERO(LD(self, off[0]));
  }
  long total;
  long at = group_offset(part, count, &total);
  for (long i = b; i < e && at < size; ++i) {
    long off[1];
    KF_OFFSETS(L, i, 1, off);
    if (!KF_NONZERO(LD(self, off[0]))) continue;
    long rest = i;
    for (int d = L.ndim - 1; d >= 0; --d) {
      out[at * rs + d * cs] = rest % L.shape[d];
      rest /= L.shape[d];
    }
    ++at;
  }
  for (long q = total + lid; q < size; q += group) {
    for (int d = 0; d < L.ndim; ++d) out[q * rs + d * cs] = fill;
  }
}
