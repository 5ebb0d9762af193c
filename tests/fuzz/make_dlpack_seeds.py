"""Writes the hand-made seeds of the DLPack import fuzz target into corpus/dlpack/.

Each seed is the byte encoding fuzz_dlpack.cpp decodes, in its order: the header (struct kind
and version, minor, flags, dtype pick, device), the layout (ndim, sizes, stride mode, strides,
byte_offset) and the memory (kind, buffer size). Integers go through Bytes::integer(): a byte
below 160 is the value byte % 8. Rerun after changing the decoder:

    python3 tests/fuzz/make_dlpack_seeds.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# header: [struct/version byte, minor, flags, dtype pick, device]
CPU_F32 = [0, 1, 0, 0, 0]


def seed(header, ndim, sizes, stride_mode, strides, offset, memory):
    return bytes(header + [ndim] + sizes + [stride_mode] + strides + [offset] + memory)


BUF = lambda n: [0, n >> 8, n & 0xFF]  # a real buffer of n bytes

seeds = {
    # float32 [3, 4], row-major strides given, in a buffer of exactly 48 bytes
    "f32_rowmajor": seed(CPU_F32, 2, [3, 4], 0, [4, 1], 0, BUF(48)),
    # the same transposed (strides [1, 3]) and with NULL strides
    "f32_transposed": seed(CPU_F32, 2, [4, 3], 0, [1, 4], 0, BUF(48)),
    "f32_null_strides": seed(CPU_F32, 2, [3, 4], 1, [0, 0], 0, BUF(48)),
    # a buffer one element short of the span: accepted (the producer vouches), never read
    "f32_short_buffer": seed(CPU_F32, 2, [3, 4], 0, [4, 1], 0, BUF(44)),
    # byte_offset 4 into the buffer, and a misaligned byte_offset 2
    "f32_byte_offset": seed(CPU_F32, 1, [5], 0, [1], 4, BUF(24)),
    "f32_misaligned": seed(CPU_F32, 1, [5], 0, [1], 2, BUF(24)),
    # 0-dim, and an empty [0, 3] over NULL memory
    "f32_zero_dim": seed(CPU_F32, 0, [], 0, [], 0, BUF(4)),
    "f32_empty_null": seed(CPU_F32, 2, [0, 3], 1, [0, 0], 0, [210]),
    # legacy struct, bool and bfloat16 dtypes, a stride 0 (broadcast) dim
    "legacy_bool": seed([7, 0, 0, 9, 0], 2, [2, 2], 0, [2, 1], 0, BUF(4)),
    "bf16_broadcast": seed([0, 1, 0, 3, 0], 2, [4, 3], 0, [0, 1], 0, BUF(6)),
    # refusals: major 2, READ_ONLY, uint16, a vector type, another device, a negative stride
    "major_2": seed([0x38, 2, 0, 0, 0, 0], 1, [2], 0, [1], 0, BUF(8)),
    "read_only": seed([0, 1, 201, 0, 0], 1, [2], 0, [1], 0, BUF(8)),
    "uint16": seed([0, 1, 0, 10, 0], 1, [2], 0, [1], 0, BUF(8)),
    "lanes_4": seed([0, 1, 0, 240, 0], 1, [2], 0, [1], 0, BUF(32)),
    "cuda_host": seed([0, 1, 0, 0, 230, 3, 0], 1, [2], 0, [1], 0, BUF(8)),
    "negative_stride": seed(CPU_F32, 1, [3], 0, [160 + 0], 0, BUF(12)),  # edges[0] = -1
    # sizes at the edges of int64: 2^62 x 2^62, and a stride of INT64_MAX
    "huge_sizes": seed(CPU_F32, 2, [160 + 8, 160 + 8], 1, [0, 0], 0, BUF(16)),
    "huge_stride": seed(CPU_F32, 2, [2, 2], 0, [160 + 9, 1], 0, BUF(16)),
}

out = os.path.join(HERE, "corpus", "dlpack")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(f"wrote {len(seeds)} seeds to {out}")
