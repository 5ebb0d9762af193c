// copy.cl — copy_ and to_dtype: out (this program's dtype T) = convert(src), src of any dtype.
// One kernel pair per source dtype: copy_from_<short name>_strided (operand 0 = out,
// 1 = src) and copy_from_<short name>_contig. Conversions as the CPU backend's: float to int
// truncates toward zero, nonzero (NaN included) to bool is true, 16-bit floats round to
// nearest even, a real value becomes a complex one with a zero imaginary part, and a complex
// one a real one by its real part.
// Floating point to an integer: through int64, truncating; NaN and values beyond int64 give
// int64's minimum (x86's "integer indefinite"), narrower types wrap (the CPU backend's rule).
#define KF_F2I(x)                                                                                  \
  (((x) > -9223372036854775808.0f && (x) < 9223372036854775808.0f) ? (long)(x) : LONG_MIN)
// uint64 takes [2^63, 2^64) as it is, as the CPU backend's float_to_int<uint64_t>.
#define KF_F2U64(x)                                                                                \
  (((x) >= 9223372036854775808.0f && (x) < 18446744073709551616.0f) ? (ulong)(x)                  \
                                                                      : (ulong)KF_F2I(x))
#if KF_IS_COMPLEX
#define KF_CONVERT(x, FROM_FLOAT) KF_CPLX(x, 0)
#elif KF_IS_BOOL
#define KF_CONVERT(x, FROM_FLOAT) ((x) != 0)
#elif KF_IS_U64
#define KF_CONVERT(x, FROM_FLOAT) ((C)((FROM_FLOAT) ? KF_F2U64(x) : (ulong)(x)))
#elif KF_IS_INT
#define KF_CONVERT(x, FROM_FLOAT) ((C)((FROM_FLOAT) ? KF_F2I(x) : (long)(x)))
#else
#define KF_CONVERT(x, FROM_FLOAT) ((C)(x))
#endif

// From a complex source: each part rounded into a complex T, true where either part is nonzero,
// else the real part converted as a float source (the CPU backend's rules).
#if KF_IS_COMPLEX
#define KF_FROM_COMPLEX(z, FROM_FLOAT) KF_CPLX((z).x, (z).y)
#elif KF_IS_BOOL
#define KF_FROM_COMPLEX(z, FROM_FLOAT) ((z).x != 0 || (z).y != 0)
#else
#define KF_FROM_COMPLEX(z, FROM_FLOAT) KF_CONVERT((z).x, 1)
#endif

#define KF_LOAD_PLAIN(p, i) ((p)[i])
#define KF_LOAD_HALF(p, i) vload_half((size_t)(i), (p))
#define KF_LOAD_BF16(p, i) kf_bf16_to_float((p)[i])

#define KF_COPY_FROM_BY(NAME, S, LOAD, F, CONVERT)                                                 \
  __kernel void copy_from_##NAME##_strided(__global T* out, __global const S* src, long n,         \
                                 kf_layout L) {                                                    \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    long off[2];                                                                                   \
    KF_OFFSETS(L, i, 2, off);                                                                      \
    ST(out, off[0], CONVERT(LOAD(src, off[1]), F));                                                \
  }                                                                                                \
  __kernel void copy_from_##NAME##_contig(__global T* out, __global const S* src, long n) {        \
    const long i = (long)get_global_id(0);                                                         \
    if (i >= n) return;                                                                            \
    ST(out, i, CONVERT(LOAD(src, i), F));                                                          \
  }

#define KF_COPY_FROM(NAME, S, LOAD, F) KF_COPY_FROM_BY(NAME, S, LOAD, F, KF_CONVERT)

KF_COPY_FROM(f32, float, KF_LOAD_PLAIN, 1)
#if KF_HAS_FP64
KF_COPY_FROM(f64, double, KF_LOAD_PLAIN, 1)
#endif
KF_COPY_FROM(f16, half, KF_LOAD_HALF, 1)
KF_COPY_FROM(bf16, ushort, KF_LOAD_BF16, 1)
KF_COPY_FROM(i8, char, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(u8, uchar, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(i16, short, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(i32, int, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(i64, long, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(u16, ushort, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(u32, uint, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(u64, ulong, KF_LOAD_PLAIN, 0)
KF_COPY_FROM(bool, uchar, KF_LD_BOOL, 0)  // any nonzero byte is true
KF_COPY_FROM_BY(c64, float2, KF_LOAD_PLAIN, 1, KF_FROM_COMPLEX)
#if KF_HAS_FP64
KF_COPY_FROM_BY(c128, double2, KF_LOAD_PLAIN, 1, KF_FROM_COMPLEX)
#endif
