"""Writes the seeds of the safetensors reader's fuzz target into corpus/safetensors/: a few
valid files (every dtype, metadata, an empty tensor, an empty file list) and one malformed file
for each of the reader's checks. Rerun after changing the format's rules:

    python3 tests/fuzz/make_safetensors_seeds.py
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "safetensors")


def file_of(header, data=b"", pad=True, length=None):
    """8 bytes of length, the header (a dict or raw text), the data."""
    text = header if isinstance(header, (str, bytes)) else json.dumps(header, separators=(",", ":"))
    raw = text.encode() if isinstance(text, str) else text
    if pad:
        raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw) if length is None else length) + raw + data


def entry(dtype, shape, begin, end):
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


SIZES = {"BOOL": 1, "U8": 1, "I8": 1, "U16": 2, "I16": 2, "F16": 2, "BF16": 2, "U32": 4,
         "I32": 4, "F32": 4, "U64": 8, "I64": 8, "F64": 8, "C64": 8}


def every_dtype():
    header, at = {"__metadata__": {"format": "pt", "step": "3"}}, 0
    for code, size in sorted(SIZES.items(), key=lambda kv: -kv[1]):
        header[code.lower()] = entry(code, [2, 1], at, at + 2 * size)
        at += 2 * size
    return file_of(header, bytes(range(at)))


SEEDS = {
    "valid_every_dtype": every_dtype(),
    "valid_empty": file_of({}),
    "valid_empty_tensor": file_of({"e": entry("F32", [0, 3], 0, 0), "s": entry("I64", [], 0, 8)},
                                  b"\x01" * 8),
    "valid_unpadded": file_of({"a": entry("U8", [3], 0, 3)}, b"abc", pad=False),
    "short_file": b"\x08\x00\x00",
    "length_past_end": file_of({"a": entry("U8", [1], 0, 1)}, b"x", length=4096),
    "length_absurd": struct.pack("<Q", 1 << 60) + b"{}",
    "not_json": file_of("{\"a\" 1}"),
    "bad_utf8": file_of(b"{\"\xff\xfe\":{}}"),
    "not_object": file_of("[1,2,3]"),
    "unknown_dtype": file_of({"a": entry("F8_E4M3", [1], 0, 1)}, b"x"),
    "negative_shape": file_of({"a": entry("F32", [-1], 0, 4)}, b"xxxx"),
    "shape_overflow": file_of({"a": entry("F64", [1 << 62, 1 << 62], 0, 8)}, b"x" * 8),
    "too_many_dims": file_of({"a": entry("U8", [1] * 17, 0, 1)}, b"x"),
    "offsets_three": file_of({"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1, 2]}},
                             b"x"),
    "offsets_reversed": file_of({"a": entry("U8", [0], 1, 0)}, b"x"),
    "bytes_mismatch": file_of({"a": entry("F32", [2], 0, 4)}, b"xxxx"),
    "offsets_outside": file_of({"a": entry("U8", [4], 0, 4)}, b"xx"),
    "overlap": file_of({"a": entry("U8", [2], 0, 2), "b": entry("U8", [2], 1, 3)}, b"xxx"),
    "hole": file_of({"a": entry("U8", [1], 0, 1), "b": entry("U8", [1], 2, 3)}, b"xxx"),
    "trailing_bytes": file_of({"a": entry("U8", [1], 0, 1)}, b"xyz"),
    "duplicate_name": file_of('{"a":' + json.dumps(entry("U8", [1], 0, 1)) + ',"a":' +
                              json.dumps(entry("U8", [1], 1, 2)) + "}", b"xy"),
    "metadata_not_string": file_of({"__metadata__": {"n": 3}}),
    "missing_field": file_of({"a": {"dtype": "U8", "shape": [1]}}, b"x"),
    "unknown_field": file_of({"a": dict(entry("U8", [1], 0, 1), extra=1)}, b"x"),
    "float_shape": file_of({"a": entry("U8", [1.5], 0, 1)}, b"x"),
    "nested_deep": file_of("[" * 64 + "]" * 64),
}

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(SEEDS)} seeds to {OUT}")
