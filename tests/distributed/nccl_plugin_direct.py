#!/usr/bin/env python3
"""distributed.nccl_plugin_direct: the nccl plugin's library opened directly (ctypes), as the
loader would once its gate passed, on a machine without a GPU: its table (name, device type,
collective ABI, doctor's line with NCCL's version), a host of another ABI major refused, and
comm_init's answers: mpi:// refused with KF_UNIMPLEMENTED naming the rendezvous it takes, and
file:// without a usable GPU or driver KF_UNAVAILABLE with CUDA's reason (never a crash or a
hang). Prints SKIPPED where the library's CUDA runtime or NCCL cannot be opened, or where a GPU
answers.

    nccl_plugin_direct.py LIBKERNFORGE_NCCL_SO FOLDER
"""
import ctypes
import sys

KF_UNAVAILABLE, KF_UNIMPLEMENTED = 5, 4  # kernforge/types.h
P = ctypes.c_void_p


class Table(ctypes.Structure):  # the head of kf_collective_plugin_t
    _fields_ = [("struct_size", ctypes.c_size_t), ("abi_major", ctypes.c_uint32),
                ("abi_minor", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("version", ctypes.c_char_p), ("device_type", ctypes.c_char_p),
                ("describe", ctypes.CFUNCTYPE(ctypes.c_char_p)), ("comm_init", P)]


class Init(ctypes.Structure):  # kf_comm_init_t (collective ABI 1.1)
    _fields_ = [("struct_size", ctypes.c_size_t), ("rendezvous", ctypes.c_char_p),
                ("prefix", ctypes.c_char_p), ("rank", ctypes.c_int32),
                ("world_size", ctypes.c_int32), ("timeout_ms", ctypes.c_int64),
                ("error", P), ("error_cap", ctypes.c_size_t), ("store", P)]


def comm_init(table, url):
    fn = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(Init), ctypes.POINTER(P))(table.comm_init)
    buf = ctypes.create_string_buffer(1024)
    init = Init(ctypes.sizeof(Init), url.encode(), b"direct/", 0, 1, 2000,
                ctypes.cast(buf, P), len(buf), None)
    out = P()
    status = fn(ctypes.byref(init), ctypes.byref(out))
    return status, buf.value.decode(errors="replace")


def main():
    try:
        lib = ctypes.CDLL(sys.argv[1])
    except OSError as e:
        print(f"SKIPPED: the plugin's libraries cannot be opened here: {e}")
        return 0
    get = lib.kf_collective_get
    get.restype, get.argtypes = P, [ctypes.c_uint32, ctypes.c_uint32]
    failures = []
    if get(2, 0) is not None:
        failures.append("a host of collective ABI 2 got a table")
    table = Table.from_address(get(1, 1))
    line = table.describe().decode()
    if (table.name, table.device_type, table.abi_major) != (b"nccl", b"cuda", 1):
        failures.append(f"table: {table.name} {table.device_type} {table.abi_major}")
    if not line.startswith("NCCL 2."):
        failures.append(f"describe: {line}")
    status, text = comm_init(table, "mpi://")
    if status != KF_UNIMPLEMENTED or "file://" not in text or "mpi://" not in text:
        failures.append(f"mpi://: status {status}: {text}")
    status, text = comm_init(table, "file://" + sys.argv[2])
    if status == 0:
        print("SKIPPED: a GPU answered: comm_init made a communicator")
        return 0
    if status != KF_UNAVAILABLE or "cuda" not in text:
        failures.append(f"file:// without a GPU: status {status}: {text}")
    print(f"describe: {line}\nfile:// without a GPU: {text}")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
