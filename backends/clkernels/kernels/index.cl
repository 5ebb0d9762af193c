// index.cl — index_select and gather, reading self at positions an index names. The host
// checked
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
