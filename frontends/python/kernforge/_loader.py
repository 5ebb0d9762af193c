"""Prepares the native world before the extension is used, in the runtime's load order.

1. ``libkernforge_global_deps`` is opened with RTLD_GLOBAL, so the libraries that must exist
   once per process (the OpenMP runtime) are loaded once and shared by every plugin.
2. The core, ``libkernforge``, is opened by its path inside the package; the extension ``_C``
   links it by soname and finds this copy already loaded.
3. ``_C`` is imported and the runtime starts (``kf_init``) with the interpreter's site-packages
   folders as library roots, where plugins find their ``nvidia/<folder>/lib`` dependencies.

The native files sit in ``<folder of _C>/lib`` (the wheel puts them there; the build tree has a
link of that name to the build's ``lib/``). The folder of ``_C`` is looked up rather than taken
from ``__file__``: in an editable install the Python files stay in the source tree while ``_C``
and ``lib/`` are in site-packages.
"""

import ctypes
import importlib.util
import os
import sys

_NAMES = {  # (global deps, core) by platform
    "linux": ("libkernforge_global_deps.so", "libkernforge.so.2"),
    "darwin": ("libkernforge_global_deps.dylib", "libkernforge.1.dylib"),
    "win32": ("libkernforge_global_deps.dll", "libkernforge.dll"),
}


def native_dir(package):
    """The folder holding the core, its global deps and the plugin folder."""
    spec = importlib.util.find_spec(package + "._C")
    if spec is None or spec.origin is None:
        raise ImportError(
            "kernforge: the native extension kernforge._C is missing; reinstall the package "
            "(pip install kernforge) or build it (cmake --build --preset default)")
    return os.path.join(os.path.dirname(spec.origin), "lib")


def library_roots():
    """The interpreter's site-packages folders, absolute and existing, in sys.path's order."""
    roots = []
    for p in sys.path:
        if os.path.basename(p) in ("site-packages", "dist-packages") and os.path.isabs(p) \
                and p not in roots and os.path.isdir(p):
            roots.append(p)
    return roots


def preload(lib_dir):
    """Opens the global deps (RTLD_GLOBAL), then the core. Returns the paths opened."""
    deps, core = _NAMES.get(sys.platform, _NAMES["linux"])
    opened = []
    for name, mode in ((deps, os.RTLD_NOW | os.RTLD_GLOBAL), (core, os.RTLD_NOW)):
        path = os.path.join(lib_dir, name)
        if not os.path.exists(path):
            raise ImportError(f"kernforge: {path} is missing; the package is incomplete "
                              "(reinstall it, or rebuild the build tree)")
        try:
            ctypes.CDLL(path, mode=mode)
        except OSError as e:
            raise ImportError(f"kernforge: cannot load {path}: {e}") from e
        opened.append(path)
    return opened
