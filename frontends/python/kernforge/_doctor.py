"""``kernforge.doctor()``: what the loader did in this process, as text and as data."""

import json
import os


class Report:
    """The load report of the core (``data["runtime"]``), the backends, and the entry points of
    ``kernforge.backends`` (``data["entry_points"]``). ``ok`` is False when a backend or an
    entry point failed to load; ``str(report)`` is the text ``doctor()`` prints."""

    def __init__(self, data, text, ok):
        self.data, self.text, self.ok = data, text, ok

    def __str__(self):
        return self.text

    __repr__ = __str__


def _printable(path):
    """A path as text any stream can print: bytes that are not UTF-8 as \\x escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _lines(C, version, package_dir, backends, entry_points):
    major, minor = C.abi_version()
    out = [f"kernforge {version} (C ABI {major}.{minor}), native libraries in {package_dir}",
           "backends:"]
    for b in backends:
        where = _printable(b["library_path"] or b["manifest_path"])
        line = f"  {b['name']:<12} {b['state']:<12} devices={b['device_count']}  {where}"
        if b["reason"]:
            line += f"\n      reason: {b['reason']}"
        out.append(line)
    out.append("entry points (kernforge.backends):" + ("" if entry_points else " none"))
    for e in entry_points:
        out.append(f"  {e['name']:<12} {e['state']:<12} {e['value']}")
        if e["error"]:
            out.append(f"      error: {e['error']}")
    from ._ops import skipped
    for name, why in skipped:
        out.append(f"op {name}: not in the Python namespace (this frontend cannot call it: {why})")
    env = sorted(k for k in os.environ if k.startswith("KERNFORGE_"))
    if env:
        out.append("environment: " + ", ".join(f"{k}={os.environ[k]}" for k in env))
    return "\n".join(out)


def report(C, version, package_dir, entry_points):
    backends = [C.backend(i) for i in range(C.backend_count())]
    try:
        runtime = json.loads(C.report_json())
    except ValueError:
        runtime = {}
    failed = any(b["state"] == "rejected" for b in backends) or \
        any(e["state"] == "failed" for e in entry_points)
    from ._ops import skipped
    data = {"version": version, "backends": backends, "entry_points": entry_points,
            "runtime": runtime, "skipped_ops": [{"op": n, "why": why} for n, why in skipped]}
    return Report(data, _lines(C, version, package_dir, backends, entry_points), not failed)
