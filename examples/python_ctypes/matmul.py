#!/usr/bin/env python3
"""matmul.py: embedding kernforge from Python through ctypes, the standard library only (no
compiler, no numpy, no kernforge Python package).

Declares the parts of the C ABI it uses, then runs a 2x3 @ 3x2 float32 matmul and a relu of it on
one device and checks them against the same product computed here with three plain loops.

    python3 matmul.py [device]        device: "cpu" (the default), "opencl", "xpu:1", ...

libkernforge is the file KERNFORGE_LIBRARY names when it is set, else the one
ctypes.util.find_library("kernforge") finds, else libkernforge.so.2 on the loader's search path.
Exit status 0 when every value is right; otherwise 1, after printing the failing call, its status
and kf_last_error_message().
"""
import ctypes
import ctypes.util
import os
import sys

M, K, N = 2, 3, 2

# ---- The C ABI (kernforge.h, kernforge/types.h), as much of it as this program uses. ----

Status = ctypes.c_int32  # kf_status_t: a C enum held in 32 bits
KF_OK = 0
KF_FLOAT32 = 0  # kf_dtype_t, also 32 bits
Tensor = ctypes.c_void_p  # kf_tensor_t: an opaque handle (a number, never dereferenced)


class Device(ctypes.Structure):
    """kf_device_t, passed by value."""
    _fields_ = [("type", ctypes.c_int32), ("index", ctypes.c_int32)]


class KernforgeError(Exception):
    """A call of the C ABI that did not return KF_OK."""


def load_library():
    """Opens libkernforge and declares the argument and result types of every function used."""
    path = (os.environ.get("KERNFORGE_LIBRARY") or ctypes.util.find_library("kernforge")
            or "libkernforge.so.2")
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise KernforgeError("cannot load libkernforge from %r (%s): install kernforge or set "
                             "KERNFORGE_LIBRARY to the library's path" % (path, e))

    def check(status, func, args):  # every kf_status_t result passes through here
        if status != KF_OK:
            raise KernforgeError("%s failed: %s: %s" % (
                func.__name__, lib.kf_status_name(status).decode(),
                lib.kf_last_error_message().decode()))
        return status

    def declare(name, restype, *argtypes):
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, list(argtypes)
        if restype is Status:
            function.errcheck = check

    text, out_tensor = ctypes.c_char_p, ctypes.POINTER(Tensor)
    declare("kf_last_error_message", text)
    declare("kf_status_name", text, Status)
    declare("kf_version", text)
    declare("kf_init", Status, ctypes.c_void_p)  # const kf_init_options_t*; NULL: the defaults
    declare("kf_device_parse", Status, text, ctypes.POINTER(Device))
    declare("kf_device_name", Status, Device, ctypes.c_char_p, ctypes.c_size_t)
    declare("kf_tensor_from_data", Status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64),
            ctypes.c_int32, ctypes.c_int32, Device, out_tensor)
    declare("kf_tensor_ndim", Status, Tensor, ctypes.POINTER(ctypes.c_int32))
    declare("kf_tensor_shape", Status, Tensor, ctypes.POINTER(ctypes.POINTER(ctypes.c_int64)))
    declare("kf_tensor_copy_to_host", Status, Tensor, ctypes.c_void_p, ctypes.c_size_t)
    declare("kf_tensor_release", Status, Tensor)
    declare("kf_matmul", Status, Tensor, Tensor, out_tensor)
    declare("kf_relu", Status, Tensor, out_tensor)
    return lib


# ---- The program. ----

def reference(a, b):
    """a @ b (row-major lists) with three loops."""
    return [sum(a[i * K + k] * b[k * N + j] for k in range(K)) for i in range(M) for j in range(N)]


def expect(lib, label, t, want):
    """Checks that `t` is an M x N float32 tensor holding `want`, and prints it."""
    ndim, dims = ctypes.c_int32(), ctypes.POINTER(ctypes.c_int64)()
    lib.kf_tensor_ndim(t, ctypes.byref(ndim))
    lib.kf_tensor_shape(t, ctypes.byref(dims))
    shape = [dims[i] for i in range(ndim.value)]  # valid while the tensor lives
    if shape != [M, N]:
        raise KernforgeError("%s has shape %s, expected [%d, %d]" % (label, shape, M, N))
    got = (ctypes.c_float * (M * N))()
    lib.kf_tensor_copy_to_host(t, got, ctypes.sizeof(got))
    print("%-12s = %s" % (label, list(got)))
    for i, (g, w) in enumerate(zip(got, want)):
        if abs(g - w) > 1e-5:
            raise KernforgeError("%s[%d] = %g, expected %g" % (label, i, g, w))


def run(lib, device_text, tensors):
    """The checked matmul and relu; every handle made goes to `tensors`, which the caller
    releases."""
    def new_tensor():
        tensors.append(Tensor())
        return tensors[-1]

    # Starts the runtime now (it would on first use): the plugins load, so a device type one of
    # them brings ("opencl") parses.
    lib.kf_init(None)
    device, name = Device(), ctypes.create_string_buffer(64)
    lib.kf_device_parse(device_text.encode(), ctypes.byref(device))
    lib.kf_device_name(device, name, len(name))
    print("kernforge %s, device %s: a (2x3) @ b (3x2), then relu"
          % (lib.kf_version().decode(), name.value.decode()))

    a_data, b_data = [1, 2, 3, 4, 5, 6], [1, -1, 2, 0, -1, 0.5]
    a, b, mm, relu = new_tensor(), new_tensor(), new_tensor(), new_tensor()
    for t, data, shape in ((a, a_data, (M, K)), (b, b_data, (K, N))):
        lib.kf_tensor_from_data((ctypes.c_float * len(data))(*data), (ctypes.c_int64 * 2)(*shape),
                                2, KF_FLOAT32, device, ctypes.byref(t))
    lib.kf_matmul(a, b, ctypes.byref(mm))
    lib.kf_relu(mm, ctypes.byref(relu))

    want_mm = reference(a_data, b_data)
    expect(lib, "a @ b", mm, want_mm)
    expect(lib, "relu(a @ b)", relu, [max(x, 0) for x in want_mm])
    print("ok: both match the values computed by hand")


def main(argv):
    tensors, lib = [], None
    try:
        lib = load_library()
        run(lib, argv[1] if len(argv) > 1 else "cpu", tensors)
        return 0
    except KernforgeError as e:
        print("matmul.py: %s" % e, file=sys.stderr)
        return 1
    finally:
        for t in reversed(tensors):  # releasing NULL (a call that failed) is KF_OK
            lib.kf_tensor_release(t)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
