#!/usr/bin/env python3
"""Writes the hand-made seeds of the kf_op_call fuzz target into corpus/op_call/.

Each seed is the byte encoding fuzz_op_call.cpp decodes: two bytes picking the call (an op index
of the registry, or 0xe000 + an index of fuzz_written::kCalls), the tensors of the pool (fresh
ones, views, from_blob aliases), then the arguments. The tables below mirror the target's
(kInts, kFloats, the dtype numbers, kCalls); op indices follow the registry's order (ops.yaml),
so a seed decodes to another call when that order changes: still a valid input, but rerun this
script then. The crash-* and oom-* files are inputs the fuzzer found, kept as they were.
    python3 tests/fuzz/make_op_call_seeds.py
"""
import os
import struct
INT = {0:0,1:1,2:2,3:3,4:4,5:5,-1:6,-2:7,-3:8,7:9,'max':10,'min':11,'2^62':12,'-2^62':13,8:14,6:15}
FLT = {0.0:0,1.0:1,-1.5:2,0.5:3,2.0:4,1e300:5,-1e300:6,1e-300:7,'inf':8,'-inf':9,'nan':10,3.0:11}
F32, F64, I32, I64, BOOL = 0, 1, 7, 8, 9
SIZE = {0:4,1:8,2:2,3:2,4:1,5:1,6:2,7:4,8:8,9:1}
def fresh(dtype, shape, fill=1):
    assert all(s < 5 for s in shape) and len(shape) < 4
    n = 1
    for s in shape: n *= s
    data = [(fill + 7 * i) % 256 for i in range(n * SIZE[dtype])]
    return [dtype, len(shape)] + list(shape) + data
def later_fresh(dtype, shape, fill=1): return [0] + fresh(dtype, shape, fill)
def slice_of(base, start, end, dim=0, step=1):
    return [1, base, 0, INT[start], INT[end], dim, step - 1]
def transpose_of(base, d0, d1): return [1, base, 1, d0, d1]
def expand_of(base, lead): return [1, base, 2, lead, 0, 1]          # [lead, -1]
def alias_of(base, dtype, shape, strides, start):
    out = [1, base, 4, dtype, len(shape) - 1]
    for n, s in zip(shape, strides): out += [n - 1, s + 3]
    return out + [start]
def tensor(i): return [1, i]
def schema_tensor(i): return [12, i]
def scalar_int(v): return [6, 1, INT[v]]
def scalar_float(v): return [6, 0, FLT[v]]
def ints(*vals): return [9, len(vals) + 1] + [INT[v] for v in vals] + [1]
def boolean(b): return [5, 1 if b else 0]
NONE = [0]
def call(op, tensors, args, tail=(1, 1, 1)):
    out = list(struct.pack('<H', op)) + [len(tensors) - 1]
    for t in tensors: out += t
    out += [len(args) + 1]
    for a in args: out += a
    return bytes(out + list(tail))
seeds = {
  'add_alpha': call(9, [fresh(F32, [2, 3]), later_fresh(F32, [2, 3], 2)],
                    [tensor(0), tensor(1), scalar_int(2)]),
  'add_broadcast_mixed': call(9, [fresh(I32, [2, 3]), later_fresh(F64, [3], 3)],
                              [schema_tensor(0), schema_tensor(1)]),
  'copy_shifted_overlap': call(33, [fresh(F32, [4, 2]), slice_of(0, 1, 4), slice_of(0, 0, 3)],
                               [tensor(1), tensor(2)]),
  'copy_into_expanded': call(33, [fresh(F32, [3]), expand_of(0, 2), later_fresh(F32, [2, 3])],
                             [tensor(1), tensor(2)]),
  'copy_from_blob_alias': call(33, [fresh(F32, [3, 4]), alias_of(0, F32, [4], [1], 2),
                                    alias_of(0, F32, [4], [1], 0)], [tensor(1), tensor(2)]),
  'add_from_blob_other_dtype': call(9, [fresh(I32, [2, 4]), alias_of(0, F32, [2, 2], [2, 1], 1)],
                                    [tensor(0), tensor(1)]),
  'copy_from_blob_overlapping_strides': call(33, [fresh(F32, [3, 4]),
                                                  alias_of(0, F32, [3, 2], [1, 1], 0),
                                                  later_fresh(F32, [3, 2])],
                                             [tensor(1), tensor(2)]),
  'sum_dim_list': call(25, [fresh(I32, [3, 4])], [tensor(0), ints(1), boolean(True), NONE]),
  'mean_bad_dim': call(26, [fresh(F64, [3, 4])], [tensor(0), ints(5, -1), boolean(False)]),
  'mm_square': call(29, [fresh(F32, [3, 3]), later_fresh(F32, [3, 3], 2)], [tensor(0), tensor(1)]),
  'mm_transposed_self': call(29, [fresh(F64, [3, 3]), transpose_of(0, 0, 1)],
                             [tensor(0), tensor(1)]),
  'arange_floats': call(4, [fresh(F32, [1])], [scalar_float(0.0), scalar_float(1e300),
                                                scalar_float(1e-300)]),
  'arange_int_extremes': call(4, [fresh(F32, [1])], [scalar_int('min'), scalar_int('max'),
                                                      scalar_int(1)]),
  'full_huge': call(1, [fresh(F32, [1])], [ints('max', 2), scalar_int(1)]),
  'reshape_minus_one': call(37, [fresh(F32, [2, 3])], [tensor(0), ints(-1, 2)]),
  'where_bool': call(16, [fresh(BOOL, [2, 2]), later_fresh(F32, [2, 2]), later_fresh(F32, [2])],
                     [tensor(0), tensor(1), tensor(2)]),
  'wrong_kinds': call(9, [fresh(F32, [2])], [[3, 1], [4, 2], [11, 1, 7, 1],
                                              [10, 2, 1, 0, 1, 0, 1]]),
  'args_null': call(9, [fresh(F32, [2])], [tensor(0), tensor(0)], tail=(1, 0, 1)),
  'too_many_args': call(17, [fresh(F32, [2])], [tensor(0)] * 17, tail=(1, 1, 1)),
  'slice_step': call(41, [fresh(F32, [4])], [tensor(0), [3, 0], [3, 1], [3, 10], [3, 3]],
                     tail=(1, 1, 1)),
  'to_dtype_bad': call(34, [fresh(F32, [2])], [tensor(0), [7, 15]], tail=(1, 1, 1)),
  'linear_bias': call(32, [fresh(F32, [2, 3]), later_fresh(F32, [4, 3]), later_fresh(F32, [4])],
                      [tensor(0), tensor(1), tensor(2)], tail=(1, 1, 1)),
  'results_null': call(17, [fresh(F32, [2])], [tensor(0)], tail=(1, 1, 0)),
}
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'op_call')
for name, data in seeds.items():
    with open(os.path.join(OUT_DIR, name + '.bin'), 'wb') as f:
        f.write(data)

# written calls: selector 0xe000 + index of fuzz_written::kCalls
CALLS = ['add', 'sub', 'mul', 'div', 'gt', 'where', 'neg', 'abs', 'exp', 'copy_', 'mm', 'bmm',
         'sum', 'amax']
def written(name, tensors, picks):
    out = [CALLS.index(name), 0xe0, len(tensors) - 1]
    for t in tensors: out += t
    return bytes(out + picks)
OUT, INPLACE = 1, 0
def extra(alpha=1, dims=(), keepdim=False):
    return [0, INT[alpha], len(dims)] + [d + 2 for d in dims] + [0 if keepdim else 1]
wseeds = {
  'w_add_out_shifted': written('add', [fresh(F32, [4, 2]), slice_of(0, 1, 4), slice_of(0, 0, 3),
                                       later_fresh(F32, [3, 2], 2)],
                               [OUT, 2, 3, 1] + extra(2)),
  'w_neg_inplace_transposed_input': written('sub', [fresh(I64, [3, 3]), transpose_of(0, 0, 1)],
                                            [INPLACE, 0, 1] + extra(1)),
  'w_mm_out_into_mat2': written('mm', [fresh(I32, [3, 3]), later_fresh(I32, [3, 3], 2)],
                                [0, 1, 1]),
  'w_sum_out_into_column': written('sum', [fresh(I64, [4, 4]), transpose_of(0, 0, 1),
                                           slice_of(1, 3, 4)],
                                   [0, 2] + extra(1, dims=(0,), keepdim=True)),
  'w_copy_shifted': written('copy_', [fresh(F64, [4, 2]), slice_of(0, 1, 4), slice_of(0, 0, 3)],
                            [1, 2]),
  'w_copy_shifted_back': written('copy_', [fresh(F64, [4, 2]), slice_of(0, 1, 4),
                                           slice_of(0, 0, 3)], [2, 1]),
  'w_add_inplace_expanded': written('add', [fresh(F32, [3]), expand_of(0, 2),
                                            later_fresh(F32, [2, 3])],
                                    [INPLACE, 1, 2] + extra(1)),
  'w_mul_out_from_blob_alias': written('mul', [fresh(F32, [3, 4]), alias_of(0, F32, [4], [1], 2),
                                               alias_of(0, F32, [4], [1], 0)],
                                       [OUT, 2, 2, 1] + extra(1)),
}
for name, data in wseeds.items():
    with open(os.path.join(OUT_DIR, name + '.bin'), 'wb') as f:
        f.write(data)
