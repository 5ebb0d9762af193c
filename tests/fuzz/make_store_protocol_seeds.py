"""Writes the hand-made seeds of the key-value store's protocol fuzz target into
corpus/store_protocol/ (fuzz_store_protocol.cpp; the format is in
runtime/distributed/store_protocol.hpp). Byte 0 picks the reader (0: requests, 1: replies),
then the frames. Rerun after changing the protocol:

    python3 tests/fuzz/make_store_protocol_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def frame(body):
    return struct.pack("<I", len(body)) + body


def text(b):
    return struct.pack("<I", len(b)) + b


def set_(key, value):
    return frame(b"\x01" + text(key) + text(value))


def get(key):
    return frame(b"\x02" + text(key))


def add(key, delta):
    return frame(b"\x03" + text(key) + struct.pack("<q", delta))


def reply(kind, value=None):
    return frame(bytes([kind]) + (b"" if value is None else text(value)))


SEEDS = {
    "set_get": b"\x00" + set_(b"kf_0_cpu_gloo/rank_0", b"\x01\x02addr") + get(b"kf_0_cpu_gloo/rank_0"),
    "get_missing": b"\x00" + get(b"absent"),
    "add_counter": b"\x00" + add(b"kf_joined_0", 1) + add(b"kf_joined_0", 1) + add(b"kf_joined_0", 0),
    "add_wraps": b"\x00" + add(b"c", 2**63 - 1) + add(b"c", 1),
    "set_then_add": b"\x00" + set_(b"c", b"xyz") + add(b"c", 5),
    "half_frame": b"\x00" + set_(b"key", b"value")[:7],
    "empty_key": b"\x00" + frame(b"\x02" + text(b"")),
    "unknown_op": b"\x00" + frame(b"\x09" + text(b"k")),
    "left_over": b"\x00" + frame(b"\x02" + text(b"k") + b"junk"),
    "huge_frame": b"\x00" + struct.pack("<I", 0xFFFFFFF0) + b"\x01",
    "key_past_body": b"\x00" + frame(b"\x02" + struct.pack("<I", 100) + b"k"),
    "key_over_limit": b"\x00" + frame(b"\x02" + struct.pack("<I", 5000) + b"k" * 5000),
    "empty_frame": b"\x00" + struct.pack("<I", 0),
    "replies": b"\x01" + reply(0) + reply(1, b"value") + reply(2) + reply(3, b"the store is full"),
    "reply_unknown": b"\x01" + reply(7),
    "reply_short": b"\x01" + frame(b"\x01" + struct.pack("<I", 10) + b"abc"),
}


def main():
    folder = os.path.join(HERE, "corpus", "store_protocol")
    os.makedirs(folder, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
