"""kernforge: a microkernel tensor runtime.

``import kernforge as kf`` prepares the native world in the runtime's load order (the global
deps library, then the core; _loader.py), starts the runtime with its plugins, loads the
third-party plugins of the entry-point groups ``kernforge.backends`` and
``kernforge.distributed.backends`` last (_plugins.py), and then
assembles the op surface from the registry (_ops.py): every op is ``kf.ops.<name>`` (a plugin's
``ns::name`` is ``kf.ops.<ns>.<name>``), a function ``kf.<name>`` and, when its first argument
is ``Tensor self``, a Tensor method. The array API's spellings are in the namespace too
(_array_api.py); ``kf.linalg`` holds the standard's linear algebra extension (linalg.py) and
``kf.fft`` its Fourier transform extension (fft.py).
"""

from . import _loader

_lib_dir = _loader.native_dir(__name__)
_loader.preload(_lib_dir)

from . import _C  # noqa: E402  (after the preload, by design)

_C.init(_loader.library_roots(), -1)

from . import _plugins  # noqa: E402

_entry_points = _plugins.load(_C)

from . import _array_api, _creation, _dlpack, _doctor, _ops, _tensor  # noqa: E402
from ._safetensors import load_file, load_file_with_metadata, save_file  # noqa: E402,F401
from . import autograd, fft, linalg, nn, optim  # noqa: E402
from ._grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402,F401

Tensor = _C.Tensor
dtype = _C.dtype
device = _C.device
__version__ = _C.version()


def _assemble():
    """(Re)builds kf.ops, the namespace functions and the Tensor methods from the registry."""
    global ops
    infos = _ops.build(_C)
    ops = _ops.namespace(infos)
    _tensor.install(infos)
    _array_api.bind(ops)
    linalg._bind(ops)
    fft._bind(ops)
    names = globals()
    for name, info in infos.items():
        if "::" not in name and name not in _KEEP:
            names[name] = info.function
    names.update(_array_api.namespace_functions())


def load_plugin(path):
    """Loads one plugin from its manifest (.json) or library by absolute path, and adds the ops
    it defines to kf.ops."""
    _C.load_plugin(str(path))
    _assemble()


def backends():
    """Every backend the loader knows of (loaded, unavailable, rejected, shadowed), as dicts."""
    return [_C.backend(i) for i in range(_C.backend_count())]


def devices():
    """Every device of the loaded backends."""
    out = []
    for b in backends():
        if b["state"] == "loaded":
            out.extend(device(b["device_type"], i) for i in range(b["device_count"]))
    return out


def doctor():
    """The load report: backends with their state and reason, the collective plugins, and the
    entry points of kernforge.backends and kernforge.distributed.backends (a broken one is
    listed with its error). Print it, or read .data."""
    return _doctor.report(_C, __version__, _lib_dir, _entry_points)


def dtype_from_name(name):
    """The dtype named `name` ('float32', 'f32', ...)."""
    return _C.promote_types(name, name)


from ._array_api import e, inf, nan, newaxis, pi  # noqa: E402,F401
from ._info import __array_api_version__, __array_namespace_info__  # noqa: E402,F401
from ._info import capabilities, default_device, default_dtypes, dtypes  # noqa: E402,F401

manual_seed = _C.manual_seed
synchronize = _C.synchronize
set_num_threads = _C.set_num_threads
get_num_threads = _C.get_num_threads
memory_stats = _C.memory_stats
empty_cache = _C.empty_cache
from_dlpack = _dlpack.from_dlpack
asarray = _creation.asarray
tensor = _creation.tensor
# Names the registry must not replace (the package's own functions of the same name).
_KEEP = frozenset(n for n in globals() if not n.startswith("_"))

for _d in _C._dtypes:
    globals()[_d.name] = _d
del _d

_assemble()
