"""``kernforge.doctor()``: what the loader did in this process, as text and as data."""

import json
import os

from ._plugins import GROUPS


class Report:
    """The load report of the core (``data["runtime"]``), the backends, and the entry points of
    ``kernforge.backends`` and ``kernforge.distributed.backends`` (``data["entry_points"]``,
    each with its ``group``). ``ok`` is False when a backend or an
    entry point failed to load; ``str(report)`` is the text ``doctor()`` prints."""

    def __init__(self, data, text, ok):
        self.data, self.text, self.ok = data, text, ok

    def __str__(self):
        return self.text

    __repr__ = __str__


def _printable(path):
    """A path as text any stream can print: bytes that are not UTF-8 as \\x escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _collective_lines(runtime):
    """The collective plugins the loader found (docs/distributed.md), as `kernforge doctor`."""
    found = runtime.get("collectives") or []
    out = ["collectives:" + ("" if found else " none")]
    for c in found:
        line = f"  {c['name']} ({c['device_type']}): {c['state']}"
        if c.get("version"):
            line += f" {c['version']}"
        line += f" {_printable(c.get('library') or c.get('manifest') or '')}"
        if c.get("details"):
            line += f" ({c['details']})"
        out.append(line)
        if c.get("reason"):
            out.append(f"      reason: {c['reason']}")
    return out


def _lines(C, version, package_dir, backends, entry_points, runtime):
    major, minor = C.abi_version()
    out = [f"kernforge {version} (C ABI {major}.{minor}), native libraries in {package_dir}",
           "backends:"]
    for b in backends:
        where = _printable(b["library_path"] or b["manifest_path"])
        line = f"  {b['name']:<12} {b['state']:<12} devices={b['device_count']}  {where}"
        if b["reason"]:
            line += f"\n      reason: {b['reason']}"
        out.append(line)
    out.extend(_collective_lines(runtime))
    for group in GROUPS:
        mine = [e for e in entry_points if e.get("group", GROUPS[0]) == group]
        out.append(f"entry points ({group}):" + ("" if mine else " none"))
        for e in mine:
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
    return Report(data, _lines(C, version, package_dir, backends, entry_points, runtime),
                  not failed)
