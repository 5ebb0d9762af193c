// fill.cl — the factories: full/zeros/ones (fill) and arange. Their outputs are usually
// contiguous (the _contig kernels) but may be any strided view when the caller passed out=.
#if KF_IS_FLOAT && KF_HAS_FP64
typedef double KF_RANGE;  // arange's start and step: exact enough for the double reference
#elif KF_IS_FLOAT
typedef float KF_RANGE;
#else
typedef long KF_RANGE;
#endif

/// out[i] = value (already converted to the dtype by the host). Operand 0 = out.
__kernel void fill_strided(__global T* out, C value, long n, kf_layout L) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  long off[1];
  KF_OFFSETS(L, i, 1, off);
  ST(out, off[0], value);
}

__kernel void fill_contig(__global T* out, C value, long n) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  ST(out, i, value);
}

/// out[i * stride] = start + i * step, for the 1-D output (integers wrap like the CPU
/// backend's int64 arithmetic).
__kernel void arange(__global T* out, KF_RANGE start, KF_RANGE step, long n, long stride) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
#if KF_IS_FLOAT
  ST(out, i * stride, (C)(start + (KF_RANGE)i * step));
#else
  ST(out, i * stride, (C)(long)((ulong)start + (ulong)i * (ulong)step));
#endif
}
