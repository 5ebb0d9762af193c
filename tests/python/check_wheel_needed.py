"""Checks an installed self-contained wheel: every DT_NEEDED of every ELF file of the package
(kernforge/ and the libraries auditwheel bundled, kernforge.libs/) resolves inside the
installed wheel through that file's own RPATH or RUNPATH, or names a system library that the
manylinux policy of the wheel's tag allows (and the dynamic loader, every program's PT_INTERP,
which links against itself, as auditwheel counts it). The policy is auditwheel's own (its
manylinux-policy.json), read from the installed auditwheel, so run this with the interpreter
that has auditwheel:

    check_wheel_needed.py <site-packages> [<package>]

Exit 0 when every entry resolves; 1 with one line per entry that does not, naming the file,
the entry and where it was looked for.
"""
import json
import os
import pathlib
import sys

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile


def policy_whitelist(tag):
    """The allowed system libraries of the policy named by a wheel tag's platform
    (manylinux_2_35_x86_64 -> manylinux_2_35)."""
    import auditwheel.policy
    path = pathlib.Path(auditwheel.policy.__file__).parent / "manylinux-policy.json"
    for policy in json.loads(path.read_text()):
        if tag.startswith(policy["name"] + "_") or tag in policy.get("aliases", []):
            return policy["name"], set(policy["lib_whitelist"])
    sys.exit(f"no manylinux policy in {path} matches the wheel's platform tag {tag}")


def dynamic_loader():
    """The file name of this interpreter's PT_INTERP (ld-linux-x86-64.so.2)."""
    with open(os.path.realpath(sys.executable), "rb") as f:
        for segment in ELFFile(f).iter_segments():
            if segment.header.p_type == "PT_INTERP":
                return os.path.basename(segment.get_interp_name())
    return None


def wheel_tag(site, package):
    for dist in site.glob(f"{package}-*.dist-info"):
        for line in (dist / "WHEEL").read_text().splitlines():
            if line.startswith("Tag:"):
                return line.split("-")[-1].strip()
    sys.exit(f"no {package}-*.dist-info/WHEEL with a Tag in {site}")


def elf_files(roots):
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink():
                with open(path, "rb") as f:
                    if f.read(4) == b"\x7fELF":
                        yield path


def dynamic(path):
    """(DT_NEEDED names, search folders of its RPATH and RUNPATH with $ORIGIN expanded)."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        needed, folders = [], []
        for section in elf.iter_sections():
            if not isinstance(section, DynamicSection):
                continue
            for tag in section.iter_tags():
                if tag.entry.d_tag == "DT_NEEDED":
                    needed.append(tag.needed)
                elif tag.entry.d_tag in ("DT_RPATH", "DT_RUNPATH"):
                    value = tag.rpath if tag.entry.d_tag == "DT_RPATH" else tag.runpath
                    origin = str(path.parent)
                    for entry in value.split(":"):
                        entry = entry.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)
                        folders.append(pathlib.Path(os.path.normpath(entry)))
        return needed, folders


def main():
    site = pathlib.Path(sys.argv[1]).resolve()
    package = sys.argv[2] if len(sys.argv) > 2 else "kernforge"
    roots = [site / package, site / f"{package}.libs"]
    name, allowed = policy_whitelist(wheel_tag(site, package))
    allowed.add(dynamic_loader())
    failures, checked, inside, system = [], 0, 0, 0
    for path in elf_files(r for r in roots if r.is_dir()):
        needed, folders = dynamic(path)
        for lib in needed:
            checked += 1
            found = [d / lib for d in folders if (d / lib).is_file()]
            if found and any(r in found[0].resolve().parents for r in roots):
                inside += 1
            elif lib in allowed:
                system += 1
            else:
                where = ", ".join(str(d) for d in folders) or "no RPATH or RUNPATH"
                failures.append(f"{path.relative_to(site)}: needs {lib}, which is neither in the "
                                f"wheel (looked in {where}) nor a system library {name} allows")
    for line in failures:
        print(line)
    print(f"{checked} DT_NEEDED entries of the installed {package} ({name}): {inside} in the "
          f"wheel, {system} allowed system libraries, {len(failures)} unresolved")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
