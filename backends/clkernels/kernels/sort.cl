// sort.cl — sort and argsort along one dim, and searchsorted, on sort keys.
//
// Keys: every element maps to an unsigned key of its width (ulong here) whose order is the
// element's order, as the CPU backend's radix_sort.hpp: unsigned integers and bool (a byte != 0)
// are their own keys, signed integers flip the sign bit, floats flip the sign bit of positives
// and every bit of negatives; every NaN is the largest key (NaN sorts above +inf) and -0 has
// +0's key (they are equal). Descending order sorts the complemented keys. The kernels read
// elements as their bits (KF_U), so float16 needs no half arithmetic.
//
// Note [Bitonic lines]: a line of n elements is sorted by the bitonic network of P = the power
// of two >= n, in the form without directions: stage k (2, 4, ..., P) first compares i with
// its mirror in its block of k (i ^ (k - 1)), then i with i + j for j = k/4, ..., 1; every
// comparator puts the smaller element at the lower index. Places n..P-1 count as larger than
// every element, so a comparator whose upper place is >= n (its lower one is always lower)
// never moves anything and is skipped: no padding is stored. The stages up to the block width
// B (the host's, a power of two) run in local memory, one work-group per block of a line
// (<name>_block); each later stage runs its steps j >= B over the whole line in global memory
// (<name>_step, one launch per step, an item per comparator) and its steps j < B in local
// memory again (<name>_block in merge mode). A line of up to B elements is one launch. Cost:
// n log^2 n comparisons, log^2(n / B) / 2 global passes.
//
// Results are exactly the CPU backend's:
//  - argsort sorts (key, position) pairs, all distinct, so the order is the stable one (in
//    both directions: the position is never complemented). Keys of up to 32 bits and lines of
//    up to 2^32 elements pack a pair into one ulong, key << 32 | position, held in out itself
//    (int64); wider keys hold the position alone and read the key from self when comparing.
//    The last pass writes the positions.
//  - sort sorts the values by key alone, in out. Equal keys are equal values but for the sign
//    of a zero and a NaN's payload, so the order of equal keys matters only for zeros: the
//    zeros of a sorted line are one run, and sort_zero_signs then gives the run's places the
//    input's zeros in their input order (the stable result, as the CPU's zero_signs.hpp).
//    Bools are written as 0 or 1.
//
// The row kernels take (out, self, n, si, so, rows, L, flags, ...): n the line length along
// dim, si and so its strides in self and out, the rows indexed over the other dims with their
// merged layout (src/rows.hpp: operand 0 = out, 1 = self); flags bit 0: descending, bit 1:
// argsort's packed pairs.
#if KF_DT == 1 || KF_DT == 8 || KF_DT == 12
typedef ulong KF_U;
#define KF_KBITS 64
#elif KF_DT == 0 || KF_DT == 7 || KF_DT == 11
typedef uint KF_U;
#define KF_KBITS 32
#elif KF_DT == 2 || KF_DT == 3 || KF_DT == 6 || KF_DT == 10
typedef ushort KF_U;
#define KF_KBITS 16
#else
typedef uchar KF_U;
#define KF_KBITS 8
#endif

#define KF_KMAX (KF_KBITS == 64 ? ~0ul : ((1ul << (KF_KBITS % 64)) - 1ul))
#define KF_KSIGN (1ul << (KF_KBITS - 1))

#if KF_DT == 0
#define KF_INF_BITS 0x7f800000ul
#elif KF_DT == 1
#define KF_INF_BITS 0x7ff0000000000000ul
#elif KF_DT == 2
#define KF_INF_BITS 0x7c00ul
#elif KF_DT == 3
#define KF_INF_BITS 0x7f80ul
#endif

/// The ascending key of an element's bits.
static inline ulong kf_key(KF_U b) {
  const ulong x = (ulong)b;
#if KF_IS_BOOL
  return x != 0 ? 1ul : 0ul;
#elif KF_IS_FLOAT
  const ulong mag = x & (KF_KSIGN - 1ul);
  if (mag > KF_INF_BITS) return KF_KMAX;  // NaN
  if (mag == 0) return KF_KSIGN;          // -0 is +0
  return (x & KF_KSIGN) != 0 ? (~x & KF_KMAX) : (x | KF_KSIGN);
#elif KF_IS_UNSIGNED
  return x;
#else
  return x ^ KF_KSIGN;
#endif
}

/// Whether (ka, ta) comes after (kb, tb): the comparator's exchange test.
static inline bool kf_after(ulong ka, ulong ta, ulong kb, ulong tb) {
  return (ka > kb) | ((ka == kb) & (ta > tb));  // no short circuit: no jumps
}

/// Comparator c of step (k, j) (Note [Bitonic lines]): its lower place *i and upper place *p.
static inline void kf_pair(long c, long k, long j, long* i, long* p) {
  const long base = c / j * 2 * j, r = c % j;
  *i = base + r;
  *p = j * 2 == k ? base + k - 1 - r : base + r + j;
}

// Each kernel set below is written once for sort (E = KF_U, the element's bits, tie 0) and
// argsort (E = ulong, a packed pair or a position, the position its tie). In scope for the
// macros: self, off (row offsets: [0] out, [1] self), si, flip (KF_KMAX when descending),
// packed.
#if KF_IS_BOOL
#define KF_SORT_LOAD(pos) ((KF_U)(self[off[1] + (pos) * si] != 0))
#else
#define KF_SORT_LOAD(pos) (self[off[1] + (pos) * si])
#endif
#define KF_SORT_KEY(e) (kf_key(e) ^ flip)
#define KF_SORT_TIE(e) 0ul
#define KF_SORT_STORE(e) (e)

#define KF_ARG_SELF_KEY(pos) (kf_key(self[off[1] + (long)(pos) * si]) ^ flip)
#define KF_ARG_LOAD(pos) (packed ? (KF_ARG_SELF_KEY(pos) << 32 | (ulong)(pos)) : (ulong)(pos))
#define KF_ARG_KEY(e) (packed ? (e) >> 32 : KF_ARG_SELF_KEY(e))
#define KF_ARG_TIE(e) (packed ? (e) & 0xfffffffful : (e))
#define KF_ARG_STORE(e) (last ? KF_ARG_TIE(e) : (e))

/// NAME_block: sorts (merge == 0) or finishes a stage's steps j < B (merge != 0) of each block
/// of B places of each line in local memory; `first` reads the line from self, `last` writes
/// the final form. Work-group g: row g / blocks, block g % blocks.
#define KF_BLOCK_KERNEL(NAME, E, LOAD, KEY, TIE, STORE)                                        \
  __kernel void NAME##_block(__global E* out, __global const KF_U* self, long n, long si,      \
                             long so, long rows, kf_layout L, int flags, int mode, long B,     \
                             __local ulong* lk, __local E* le) {                               \
    const long blocks = (n + B - 1) / B, g = (long)get_group_id(0);                            \
    if (g >= rows * blocks) return;                                                            \
    const long row = g / blocks, base = g % blocks * B;                                        \
    const int lid = (int)get_local_id(0), size = (int)get_local_size(0);                       \
    const ulong flip = (flags & 1) != 0 ? KF_KMAX : 0ul;                                       \
    const bool packed = (flags & 2) != 0, first = (mode & 2) != 0, last = (mode & 4) != 0;     \
    long off[2];                                                                               \
    KF_OFFSETS(L, row, 2, off);                                                                \
    const long m = min(B, n - base); /* the block's places that hold elements */               \
    for (long q = lid; q < m; q += size) {                                                     \
      const E e = first ? LOAD(base + q) : out[off[0] + (base + q) * so];                      \
      le[q] = e;                                                                               \
      lk[q] = KEY(e);                                                                          \
    }                                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    for (long k = (mode & 1) != 0 ? B : 2; k <= B; k *= 2) {                                   \
      for (long j = (mode & 1) != 0 ? B / 2 : k / 2; j > 0; j /= 2) {                          \
        for (long c = lid; c < B / 2; c += size) {                                             \
          long i, p;                                                                           \
          kf_pair(c, (mode & 1) != 0 ? 2 * B : k, j, &i, &p);                                  \
          if (p >= m) continue;                                                                \
          /* selects, not a jump: the exchange is a coin toss in random data */                \
          const ulong ki = lk[i], kp = lk[p];                                                  \
          const E ei = le[i], ep = le[p];                                                      \
          const bool swap = kf_after(ki, TIE(ei), kp, TIE(ep));                                \
          lk[i] = swap ? kp : ki;                                                              \
          le[i] = swap ? ep : ei;                                                              \
          lk[p] = swap ? ki : kp;                                                              \
          le[p] = swap ? ei : ep;                                                              \
        }                                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                          \
      }                                                                                        \
    }                                                                                          \
    for (long q = lid; q < m; q += size) out[off[0] + (base + q) * so] = STORE(le[q]);         \
  }

/// NAME_step: step (k, j >= B) of stage k over whole lines in global memory, an item per
/// comparator: item t serves row t / pairs (P / 2).
#define KF_STEP_KERNEL(NAME, E, KEY, TIE)                                                      \
  __kernel void NAME##_step(__global E* out, __global const KF_U* self, long n, long si,       \
                            long so, long rows, kf_layout L, int flags, long k, long j,        \
                            long pairs) {                                                      \
    const long t = (long)get_global_id(0);                                                     \
    if (t >= rows * pairs) return;                                                             \
    const long row = t >> (63 - clz(pairs)); /* pairs: a power of two */                       \
    long i, p;                                                                                 \
    kf_pair(t & (pairs - 1), k, j, &i, &p);                                                    \
    if (p >= n) return;                                                                        \
    const ulong flip = (flags & 1) != 0 ? KF_KMAX : 0ul;                                       \
    const bool packed = (flags & 2) != 0;                                                      \
    long off[2];                                                                               \
    KF_OFFSETS(L, row, 2, off);                                                                \
    const E a = out[off[0] + i * so], b = out[off[0] + p * so];                                \
    if (kf_after(KEY(a), TIE(a), KEY(b), TIE(b))) {                                            \
      out[off[0] + i * so] = b;                                                                \
      out[off[0] + p * so] = a;                                                                \
    }                                                                                          \
  }

KF_BLOCK_KERNEL(sort, KF_U, KF_SORT_LOAD, KF_SORT_KEY, KF_SORT_TIE, KF_SORT_STORE)
KF_STEP_KERNEL(sort, KF_U, KF_SORT_KEY, KF_SORT_TIE)
KF_BLOCK_KERNEL(argsort, ulong, KF_ARG_LOAD, KF_ARG_KEY, KF_ARG_TIE, KF_ARG_STORE)
KF_STEP_KERNEL(argsort, ulong, KF_ARG_KEY, KF_ARG_TIE)

#define KF_SORT_GROUP 256  // the most items of sort_zero_signs' work-group (src/sort_ops.cpp)

#if KF_IS_FLOAT
/// After sort of a float line: the zeros of out's line are one run, after the `below` elements
/// whose key is smaller than a zero's; the run takes the zeros of self's line in their order
/// (Note [Work-group scans] in scan.cl, with two counts). One work-group per row.
__kernel void sort_zero_signs(__global KF_U* out, __global const KF_U* self, long n, long si,
                              long so, long rows, kf_layout L, int flags) {
  __local long zeros[KF_SORT_GROUP], below[KF_SORT_GROUP];
  const long row = (long)get_group_id(0);
  const int lid = (int)get_local_id(0), size = (int)get_local_size(0);
  if (row >= rows) return;
  const ulong flip = (flags & 1) != 0 ? KF_KMAX : 0ul, zero = KF_KSIGN ^ flip;
  long off[2];
  KF_OFFSETS(L, row, 2, off);
  const long chunk = (n + size - 1) / size;
  const long b = min((long)lid * chunk, n), e = min(b + chunk, n);
  long z = 0, lo = 0;
  for (long i = b; i < e; ++i) {
    const ulong k = kf_key(self[off[1] + i * si]) ^ flip;
    z += k == zero;
    lo += k < zero;
  }
  zeros[lid] = z;
  below[lid] = lo;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 1; s < size; s *= 2) {
    const long ez = lid >= s ? zeros[lid - s] : 0, eb = lid >= s ? below[lid - s] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    zeros[lid] += ez;
    below[lid] += eb;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (zeros[size - 1] == 0) return;
  long at = below[size - 1] + (lid > 0 ? zeros[lid - 1] : 0);
  for (long i = b; i < e; ++i) {
    const KF_U v = self[off[1] + i * si];
    if ((kf_key(v) ^ flip) != zero) continue;
    out[off[0] + at * so] = v;
    ++at;
  }
}
#endif

/// searchsorted: out[i] = the place in the ascending 1-D seq (m elements at stride ss) before
/// the first element not smaller than self's element i (right: not smaller or equal), by keys.
static inline long kf_search(__global const KF_U* seq, long m, long ss, ulong key, int right) {
  long lo = 0, hi = m;
  while (lo < hi) {
    const long mid = lo + (hi - lo) / 2;
    const ulong k = kf_key(seq[mid * ss]);
    if (right ? k <= key : k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

__kernel void searchsorted_contig(__global long* out, __global const KF_U* self,
                                  __global const KF_U* seq, long m, long ss, int right, long n) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  out[i] = kf_search(seq, m, ss, kf_key(self[i]), right);
}

__kernel void searchsorted_strided(__global long* out, __global const KF_U* self,
                                   __global const KF_U* seq, long m, long ss, int right, long n,
                                   kf_layout L) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  long off[2];
  KF_OFFSETS(L, i, 2, off);
  out[off[0]] = kf_search(seq, m, ss, kf_key(self[off[1]]), right);
}
