"""Third-party backends registered in the entry-point group ``kernforge.backends``.

They load last, after the core has started with its own plugins (the order ``import torch``
autoloads device backends in). An entry point names a manifest or a folder of manifests:

* ``mybackend = mypackage`` -- the package's folder; every ``*.json`` in it is a manifest (the
  package is not imported: finding its folder is enough);
* ``mybackend = mypackage:manifest`` -- an attribute (a path, or a function returning one) that
  is a manifest file or a folder of them; a relative path is taken from the package's folder.

A broken entry point is skipped and recorded (``kernforge.doctor()`` shows it); it never breaks
``import kernforge``. ``KERNFORGE_AUTOLOAD=0`` turns the group off, as it turns off the core's
own discovery.
"""

import importlib.util
import os

GROUP = "kernforge.backends"


def _module_dir(module):
    spec = importlib.util.find_spec(module)
    if spec is None:
        raise ImportError(f"module {module!r} is not installed")
    if spec.submodule_search_locations:
        return os.path.abspath(list(spec.submodule_search_locations)[0])
    if spec.origin is None:
        raise ImportError(f"module {module!r} has no folder")
    return os.path.dirname(os.path.abspath(spec.origin))


def _manifests(path):
    if os.path.isdir(path):
        found = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".json"))
        if not found:
            raise FileNotFoundError(f"no *.json plugin manifest in the folder {path}")
        return found
    if not os.path.exists(path):
        raise FileNotFoundError(f"the plugin manifest {path} does not exist")
    return [path]


def paths_of(ep):
    """The manifest paths an entry point names (absolute)."""
    if ep.attr is None:
        return _manifests(_module_dir(ep.module))
    target = ep.load()
    if callable(target):
        target = target()
    path = os.fspath(target)
    if not os.path.isabs(path):
        path = os.path.join(_module_dir(ep.module), path)
    return _manifests(path)


def _entry_points():
    from importlib.metadata import entry_points
    return list(entry_points(group=GROUP))


def load(C):
    """Loads every plugin of the group; returns one record per entry point."""
    if os.environ.get("KERNFORGE_AUTOLOAD", "").strip() == "0":
        return []
    try:
        eps = _entry_points()
    except Exception as e:  # a broken distribution's metadata must not break import
        return [{"name": "*", "value": GROUP, "paths": [], "state": "failed",
                 "error": f"reading the entry points failed: {type(e).__name__}: {e}"}]
    records = []
    for ep in sorted(eps, key=lambda e: e.name):
        record = {"name": ep.name, "value": ep.value, "paths": [], "state": "loaded", "error": ""}
        try:
            record["paths"] = paths_of(ep)
        except Exception as e:
            record.update(state="failed", error=f"{type(e).__name__}: {e}")
            records.append(record)
            continue
        errors = []
        for path in record["paths"]:
            status, message = C.try_load_plugin(path)
            if status == "KF_ALREADY_EXISTS":
                record["state"] = "already loaded"
            elif status != "KF_OK":
                errors.append(f"{path}: {status}: {message}")
        if errors:
            record.update(state="failed", error="; ".join(errors))
        records.append(record)
    return records
