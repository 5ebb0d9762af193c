// softmax.cl — softmax and log_softmax along one dim, one work-group per row (the line along
// dim through one index of the other dims), three passes over the row as the CPU backend makes
// them: the maximum (NaN skipped), the sum of e^(x - max) (in double where the device has it),
// then y = e^(x - max) / sum (log_softmax: y = (x - max) - log(sum)). Both trees combine in a
// fixed order, so results are deterministic. IEEE arithmetic gives PyTorch's special cases: a
// NaN or +inf makes the row NaN, a row of only -inf is NaN, a -inf beside finite values gives
// 0. Operand 0 of the layout = out, 1 = in, over the dims other than `dim`.
#if KF_IS_FLOAT
#if KF_HAS_FP64
typedef double KF_SUM;
#else
typedef float KF_SUM;
#endif

#define KF_SOFTMAX_GROUP 256

/// Passes 1 and 2 over the row at `in` (n elements, stride si), by the whole work-group: its
/// maximum (NaN skipped) into *max, and the sum of e^(x - max), returned to every item.
static KF_SUM kf_row_max_sum(__global const T* in, long n, long si, __local C* peak,
                             __local KF_SUM* total, C* max) {
  const int lid = (int)get_local_id(0), size = (int)get_local_size(0);
  C m = -INFINITY;
  for (long i = lid; i < n; i += size) m = fmax(m, LD(in, i * si));
  peak[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = size / 2; step > 0; step /= 2) {
    if (lid < step) peak[lid] = fmax(peak[lid], peak[lid + step]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = peak[0];
  KF_SUM s = 0;
  for (long i = lid; i < n; i += size) s += (KF_SUM)exp(LD(in, i * si) - m);
  total[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = size / 2; step > 0; step /= 2) {
    if (lid < step) total[lid] += total[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *max = m;
  return total[0];
}

__kernel void softmax_rows(__global T* out, __global const T* in, long n, long si, long so,
                           long rows, kf_layout L) {
  __local C peak[KF_SOFTMAX_GROUP];
  __local KF_SUM total[KF_SOFTMAX_GROUP];
  const long row = (long)get_group_id(0);
  const int lid = (int)get_local_id(0), size = (int)get_local_size(0);
  if (row >= rows) return;  // whole groups only: every item of a group takes this branch alike
  long off[2];
  KF_OFFSETS(L, row, 2, off);
  C m;
  const KF_SUM inv = (KF_SUM)1 / kf_row_max_sum(in + off[1], n, si, peak, total, &m);
  for (long i = lid; i < n; i += size) {
    const C e = exp(LD(in, off[1] + i * si) - m);
    ST(out, off[0] + i * so, (C)((KF_SUM)e * inv));
  }
}

/// log_softmax: y = (x - max) - log(sum), x - max in C and the log in KF_SUM (the CPU
/// backend's). A NaN, a +inf or a row of only -inf gives a NaN row; -inf beside finite values
/// gives -inf.
__kernel void log_softmax_rows(__global T* out, __global const T* in, long n, long si, long so,
                               long rows, kf_layout L) {
  __local C peak[KF_SOFTMAX_GROUP];
  __local KF_SUM total[KF_SOFTMAX_GROUP];
  const long row = (long)get_group_id(0);
  const int lid = (int)get_local_id(0), size = (int)get_local_size(0);
  if (row >= rows) return;
  long off[2];
  KF_OFFSETS(L, row, 2, off);
  C m;
  const C log_sum = (C)log(kf_row_max_sum(in + off[1], n, si, peak, total, &m));
  for (long i = lid; i < n; i += size) {
    ST(out, off[0] + i * so, (LD(in, off[1] + i * si) - m) - log_sum);
  }
}
#endif
