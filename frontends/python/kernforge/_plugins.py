"""Third-party plugins registered in the entry-point groups ``kernforge.backends`` (device
backends) and ``kernforge.distributed.backends`` (collective plugins: docs/distributed.md).

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
import sys

# The groups, in the order their plugins load (the loader tells a manifest's kind from the
# manifest itself; the group only says where a package registered it).
GROUPS = ("kernforge.backends", "kernforge.distributed.backends")


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


class EntryPoint:
    """One `name = module[:attr]` line of the group (importlib.metadata's EntryPoint, minus the
    ~15 ms its import costs; importing it would be a third of the import budget)."""

    def __init__(self, name, value, group=GROUPS[0]):
        self.name, self.value, self.group = name, value, group
        module, _, attr = value.partition(":")
        self.module, self.attr = module.strip(), (attr.strip() or None)

    def load(self):
        import importlib
        obj = importlib.import_module(self.module)
        for part in (self.attr or "").split("."):
            if part:
                obj = getattr(obj, part)
        return obj


def _group_lines(text):
    section = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section in GROUPS and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            yield name.strip(), value.strip(), section


def _distribution_entry_points(folder, n):
    """The groups' entry points of one distribution's metadata folder (none without the file).
    A file that is not UTF-8 raises UnicodeDecodeError, a ValueError."""
    try:
        with open(os.path.join(folder, n, "entry_points.txt"), encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    if not any(g in text for g in GROUPS):
        return []
    return [EntryPoint(k, v, g) for k, v, g in _group_lines(text)]


def entry_points():
    """(entry points, failed records): the groups' entry points of every distribution on
    sys.path, the first distribution of a name winning, as importlib.metadata orders them
    (sys.path order). A distribution whose metadata cannot be read is one failed record; the
    others' entry points are still found."""
    seen, found, failed = set(), [], []
    for base in sys.path:
        base = base or "."
        try:
            names = sorted(os.listdir(base))
        except (OSError, ValueError):
            continue
        for n in names:
            if not n.endswith((".dist-info", ".egg-info")):
                continue
            dist = n.rsplit(".", 1)[0].split("-")[0].lower().replace("-", "_").replace(".", "_")
            if dist in seen:
                continue
            seen.add(dist)
            try:
                found.extend(_distribution_entry_points(base, n))
            except (OSError, ValueError) as e:
                failed.append(_failed_record(dist, _shown(os.path.join(base, n)),
                                             f"reading its entry_points.txt failed: "
                                             f"{type(e).__name__}: {e}"))
    return found, failed


def _shown(path):
    """A path as text that can always be printed (undecodable bytes as \\x escapes)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _failed_record(name, value, error, group=GROUPS[0]):
    return {"name": name, "value": value, "group": group, "paths": [], "state": "failed",
            "error": error}


# What one entry point may raise and still leave import standing. KeyboardInterrupt is the user
# asking to stop, and propagates.
CAUGHT = (Exception, SystemExit, GeneratorExit)


def _load_paths(C, record):
    """Loads each manifest path of a record; a path that cannot even be named to the core (a
    file name that is not UTF-8 is passed as its bytes) is a failure of that path only. A plugin
    the core finds unavailable (KF_UNAVAILABLE: no device or driver here, as kernforge-rocm on a
    machine without an AMD GPU) makes the record "unavailable", which is no failure."""
    errors, unavailable = [], []
    for path in record["paths"]:
        try:
            status, message = C.try_load_plugin(os.fsencode(path))
        except CAUGHT as e:
            status, message = type(e).__name__, str(e)
        if status == "KF_ALREADY_EXISTS":
            record["state"] = "already loaded"
        elif status == "KF_UNAVAILABLE":  # its device or driver is missing here: not a failure
            unavailable.append(f"{_shown(path)}: {message}")
        elif status != "KF_OK":
            errors.append(f"{_shown(path)}: {status}: {message}")
    if errors:
        record.update(state="failed", error="; ".join(errors + unavailable))
    elif unavailable:
        record.update(state="unavailable", error="; ".join(unavailable))


def load_order(ep):
    """The groups in GROUPS' order, each by name."""
    return GROUPS.index(ep.group), ep.name


def load(C):
    """Loads every plugin of the groups; returns one record per entry point."""
    if os.environ.get("KERNFORGE_AUTOLOAD", "").strip() == "0":
        return []
    try:
        eps, records = entry_points()
    except CAUGHT as e:  # a broken sys.path entry must not break import
        return [_failed_record("*", ", ".join(GROUPS), f"reading the entry points failed: "
                                           f"{type(e).__name__}: {e}")]
    for ep in sorted(eps, key=load_order):
        record = {"name": ep.name, "value": ep.value, "group": ep.group, "paths": [],
                  "state": "loaded", "error": ""}
        records.append(record)
        try:
            record["paths"] = paths_of(ep)
        except CAUGHT as e:
            record.update(state="failed", error=f"{type(e).__name__}: {e}")
            continue
        _load_paths(C, record)
    for record in records:
        record["paths"] = [_shown(p) for p in record["paths"]]
    return records
