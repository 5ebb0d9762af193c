#!/usr/bin/env python3
"""Checks the Debian packages CPack made: each holds only its own files, together they hold the
whole install, and their dependencies hold.

    check_packages.py --debs <folder> --install <folder> --version <kernforge version>

<folder of debs>: the .deb files of one `cpack -G DEB` run. <install>: `cmake --install` of every
component into an empty folder (prefix /usr), the reference for "nothing left out". Exit 0 when
every check holds; otherwise 1, with one line per failure saying which package and file.
"""
import argparse
import pathlib
import re
import subprocess
import sys

# What each package may hold, as regular expressions over paths relative to the prefix.
LIBDIR = r"lib(/[a-z0-9_]+-linux-gnu)?"
OWN_FILES = {
    "kernforge-core": [rf"bin/kernforge", rf"{LIBDIR}/libkernforge\.so\.[0-9.]+",
                       rf"{LIBDIR}/libkernforge_global_deps\.so"],
    "kernforge-dev": [r"include/kernforge/[A-Za-z0-9_]+\.(h|hpp|inc)",
                      rf"{LIBDIR}/cmake/kernforge/[A-Za-z0-9_-]+\.cmake",
                      rf"{LIBDIR}/pkgconfig/kernforge(-plugin)?\.pc",
                      rf"{LIBDIR}/libkernforge\.so", r"bin/kernforge-cts"],
}
BACKEND = re.compile(r"kernforge-backend-([a-z0-9_]+)$")


def backend_files(name):
    # A backend's own helper libraries beside it (libkernforge_cpu_onednn.so) are its too.
    return [rf"{LIBDIR}/kernforge/plugins/libkernforge_{name}(_[a-z0-9]+)?\.so",
            rf"{LIBDIR}/kernforge/plugins/{name}\.json"]


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", str(deb), field], check=True,
                          capture_output=True, text=True).stdout.strip()


def deb_files(deb):
    """The non-directory paths of a .deb, relative to /usr."""
    out = subprocess.run(["dpkg-deb", "-c", str(deb)], check=True, capture_output=True,
                         text=True).stdout
    files = []
    for line in out.splitlines():
        if line.startswith("d"):
            continue
        path = line.split(None, 5)[5].split(" -> ")[0]
        files.append(re.sub(r"^\./usr/", "", path))
    return files


def check_contents(package, files, failures):
    m = BACKEND.match(package)
    allowed = backend_files(m.group(1)) if m else OWN_FILES.get(package)
    if allowed is None:
        failures.append(f"{package}: a package this check does not know")
        return
    for f in files:
        if not any(re.fullmatch(p, f) for p in allowed):
            failures.append(f"{package}: holds {f}, which is not its own")
    for p in allowed:
        if not any(re.fullmatch(p, f) for f in files):
            failures.append(f"{package}: has no file matching {p}")


def check_depends(package, depends, version, failures):
    names = [d.split()[0] for d in re.split(r"[,|]", depends) if d.strip()]
    if package == "kernforge-core":
        for n in names:
            if n.startswith("kernforge-"):
                failures.append(f"kernforge-core depends on {n}; the core depends on no backend")
    elif package == "kernforge-dev":
        if f"kernforge-core (= {version})" not in depends:
            failures.append(f"kernforge-dev: Depends '{depends}' lacks kernforge-core (= {version})")
    elif f"kernforge-core (>= {version})" not in depends or "kernforge-core (<<" not in depends:
        failures.append(f"{package}: Depends '{depends}' does not bound kernforge-core from "
                        f">= {version} to << the next incompatible version")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--debs", required=True, type=pathlib.Path)
    ap.add_argument("--install", required=True, type=pathlib.Path)
    ap.add_argument("--version", required=True)
    args = ap.parse_args()
    version = args.version.replace("-", "~")
    failures, owner = [], {}
    debs = sorted(args.debs.glob("*.deb"))
    if not debs:
        print(f"check_packages: no .deb in {args.debs}", file=sys.stderr)
        return 1
    for deb in debs:
        package = deb_field(deb, "Package")
        if deb_field(deb, "Version") != version:
            failures.append(f"{package}: version {deb_field(deb, 'Version')}, expected {version}")
        files = deb_files(deb)
        check_contents(package, files, failures)
        check_depends(package, deb_field(deb, "Depends"), version, failures)
        for f in files:
            if f in owner:
                failures.append(f"{f} is in both {owner[f]} and {package}")
            owner[f] = package
        print(f"{package} {version}: {len(files)} files")
    installed = {str(p.relative_to(args.install)) for p in args.install.rglob("*")
                 if not p.is_dir()}
    for f in sorted(installed - owner.keys()):
        failures.append(f"{f} is installed but in no package")
    for f in failures:
        print(f"check_packages: {f}", file=sys.stderr)
    print(f"check_packages: {len(debs)} packages, {len(owner)} files, "
          f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
