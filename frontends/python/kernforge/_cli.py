"""The ``kernforge`` command of the wheel (``[project.scripts]``): a thin launcher of the C++
command that the package carries in ``kernforge/bin``, so that ``kernforge doctor``, ``info``,
``ops`` and ``bench`` work from the environment's ``bin/`` with the C++ command's output and exit
codes (doctor: 0 all well, 1 degraded, 2 no usable backend; a bad argument: 2).

The command reads the same plugins as ``import kernforge``: the package's own, and the folders
of the manifests that installed plugins register in the entry-point groups
``kernforge.backends`` and ``kernforge.distributed.backends``, put before
``KERNFORGE_PLUGIN_PATH``'s folders.
"""

import os
import subprocess
import sys

from . import _loader, _plugins


def executable():
    """The C++ command inside the package (beside ``lib/``, next to ``_C``)."""
    name = "kernforge.exe" if sys.platform == "win32" else "kernforge"
    return os.path.join(os.path.dirname(_loader.native_dir(__package__)), "bin", name)


def entry_point_folders():
    """The folders of the manifests the entry-point groups name, in their order; broken entries
    are left out here (``kf.doctor()`` reports them)."""
    if os.environ.get("KERNFORGE_AUTOLOAD", "").strip() == "0":
        return []
    folders = []
    eps, _failed = _plugins.entry_points()
    for ep in sorted(eps, key=_plugins.load_order):  # the order import kernforge loads them in
        try:
            paths = _plugins.paths_of(ep)
        except _plugins.CAUGHT:  # reported by kf.doctor(); the command runs without it
            continue
        for path in paths:
            folder = os.path.dirname(os.path.abspath(path))
            if folder not in folders:
                folders.append(folder)
    return folders


def main():
    exe = executable()
    if not os.path.exists(exe):
        sys.stderr.write(f"kernforge: {exe} is missing; the package is incomplete (reinstall it: "
                         "pip install --force-reinstall kernforge)\n")
        return 2
    env = dict(os.environ)
    folders = entry_point_folders()
    if folders:
        rest = env.get("KERNFORGE_PLUGIN_PATH", "")
        env["KERNFORGE_PLUGIN_PATH"] = os.pathsep.join(folders + ([rest] if rest else []))
    argv = [exe] + sys.argv[1:]
    sys.stdout.flush()
    sys.stderr.flush()
    if sys.platform == "win32":  # no exec there: wait for it and pass its exit code on
        return subprocess.call(argv, env=env)
    os.execve(exe, argv, env)
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
