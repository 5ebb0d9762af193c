"""The Python package's version, for scikit-build-core's dynamic metadata (pyproject.toml's
``[tool.scikit-build.metadata.version]``, a provider kept in the source tree).

The build has one version, and the wheel takes the same one the CMake build does
(cmake/KernforgeVersion.cmake): ``KERNFORGE_BUILD_VERSION`` when it is set and not empty,
else the first line of ``version.txt``. It must be ``<major>.<minor>.<patch>`` with an optional
suffix (``0.2.0``, ``0.2.0-rc1``); anything else stops the build, saying where it came from.
The wheel's metadata spells it as PEP 440 does (``0.2.0-rc1`` becomes ``0.2.0rc1``); a suffix that
PEP 440 cannot spell (``0.2.0~rc1``, which Debian's packages can) stops the wheel's build.
"""

import os
import re
from pathlib import Path

_VERSION_TXT = Path(__file__).resolve().parents[2] / "version.txt"
_FORM = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+([-+~.][0-9A-Za-z.+~-]*)?$")


def build_version(environ=os.environ, version_txt=_VERSION_TXT):
    """The version and where it came from."""
    given = environ.get("KERNFORGE_BUILD_VERSION", "").strip()
    if given:
        version, source = given, "KERNFORGE_BUILD_VERSION"
    else:
        lines = Path(version_txt).read_text(encoding="utf-8").splitlines()
        version, source = (lines[0].strip() if lines else ""), str(version_txt)
    if not _FORM.match(version):
        raise ValueError(f"the version {version!r} (from {source}) is not "
                         "<major>.<minor>.<patch>[-<suffix>], e.g. 0.2.0 or 0.2.0-rc1")
    return version, source


def dynamic_metadata(field, settings=None):
    """scikit-build-core's provider hook: the value of ``field``: "version", or "dependencies"
    (a backend's wheel: ``requires``, a list of requirements in which ``{version}`` is this
    build's version, so ``kernforge=={version}`` ties the backend to exactly its core)."""
    if field == "dependencies":
        return dependencies(settings or {})
    if field != "version":
        raise ValueError(f"kernforge_version provides the version and dependencies, not {field!r}")
    if settings:
        raise ValueError(f"kernforge_version takes no settings for the version, got {sorted(settings)}")
    return wheel_version()


def dependencies(settings):
    """The ``requires`` setting's requirements with ``{version}`` replaced."""
    unknown = sorted(set(settings) - {"requires"})
    if unknown or not isinstance(settings.get("requires"), list):
        raise ValueError("kernforge_version's dependencies take one setting, requires = [...] "
                         f"(requirements; {{version}} is this build's version), got {sorted(settings)}")
    version = wheel_version()
    return [str(r).replace("{version}", version) for r in settings["requires"]]


def wheel_version():
    """The version as the wheel's metadata spells it (PEP 440)."""
    version, source = build_version()
    try:  # scikit-build-core's own dependency: the wheel's version must be PEP 440's
        from packaging.version import InvalidVersion, Version
    except ImportError:
        return version
    try:
        Version(version)
    except InvalidVersion:
        raise ValueError(f"the version {version!r} (from {source}) has no spelling in a Python "
                         "package's metadata (PEP 440); use a suffix such as -rc1, .dev1 or "
                         "+local") from None
    return version
