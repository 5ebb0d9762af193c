// fill.cl — the factories: full/zeros/ones and fill_ (fill), arange, linspace and eye. Their
// outputs are usually contiguous (the _contig kernels) but may be any strided view when the
// caller passed out= (fill_: any view of self).
#if KF_HAS_FP64 && KF_DT != 1
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
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

#if !KF_IS_COMPLEX  // arange and linspace are for real dtypes
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

#if KF_HAS_FP64
typedef double KF_LIN;  // linspace's values: double, as the CPU backend, where the device has it
#else
typedef float KF_LIN;
#endif

/// A linspace value as the dtype: integers truncate toward zero (uint64 takes [2^63, 2^64) as it
/// is), the floats round to nearest.
#if KF_IS_U64
#define KF_LIN_TO_C(v) ((C)((v) >= (KF_LIN)9223372036854775808.0f ? (ulong)(v) : (ulong)(long)(v)))
#elif KF_IS_INT
#define KF_LIN_TO_C(v) ((C)(long)(v))
#else
#define KF_LIN_TO_C(v) ((C)(v))
#endif

/// linspace (Note [linspace] in backends/cpu/factory_kernels.cpp): the first half counts up from
/// start (start + i * step), the second half down from end (end - (n - 1 - i) * step), so both
/// ends are exact; n == 1 gives start. The host converted start and end to an integer dtype
/// first (truncating).
__kernel void linspace(__global T* out, KF_LIN start, KF_LIN end, long n, long stride) {
  const long i = (long)get_global_id(0);
  if (i >= n) return;
  KF_LIN v = start;
  if (n > 1) {
    const KF_LIN step = (end - start) / (KF_LIN)(n - 1);
    v = i < n / 2 ? start + step * (KF_LIN)i : end - step * (KF_LIN)(n - 1 - i);
  }
  ST(out, i * stride, KF_LIN_TO_C(v));
}
#endif

/// eye: out[r][c] = (r == c) over the rows x cols output of strides (s0, s1).
__kernel void eye(__global T* out, long rows, long cols, long s0, long s1) {
  const long i = (long)get_global_id(0);
  if (i >= rows * cols) return;
  const long r = i / cols, c = i % cols;
#if KF_IS_COMPLEX
  ST(out, r * s0 + c * s1, KF_CPLX(r == c ? 1 : 0, 0));
#else
  ST(out, r * s0 + c * s1, r == c ? (C)1 : (C)0);
#endif
}
