"""The wheel's version provider (packaging/python/kernforge_version.py): the CMake build's rule,
KERNFORGE_BUILD_VERSION before version.txt, and a clear error for a version of another form."""

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def provider():
    path = ROOT / "packaging" / "python" / "kernforge_version.py"
    spec = importlib.util.spec_from_file_location("kernforge_version", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_version_txt_when_the_variable_is_unset_or_empty(tmp_path):
    txt = tmp_path / "version.txt"
    txt.write_text("1.2.3\nsecond line\n")
    assert provider().build_version({}, txt) == ("1.2.3", str(txt))
    assert provider().build_version({"KERNFORGE_BUILD_VERSION": "  "}, txt)[0] == "1.2.3"


def test_the_variable_wins(tmp_path):
    txt = tmp_path / "version.txt"
    txt.write_text("1.2.3\n")
    got = provider().build_version({"KERNFORGE_BUILD_VERSION": "0.2.0-rc1"}, txt)
    assert got == ("0.2.0-rc1", "KERNFORGE_BUILD_VERSION")


@pytest.mark.parametrize("bad", ["1.2", "v1.2.3", "1.2.3 beta", "", "1.2.3-rc1/x"])
def test_another_form_names_the_value_and_its_source(tmp_path, bad):
    txt = tmp_path / "version.txt"
    txt.write_text("1.2.3\n")
    env = {"KERNFORGE_BUILD_VERSION": bad} if bad else {}
    if not bad:
        txt.write_text("")
    with pytest.raises(ValueError) as e:
        provider().build_version(env, txt)
    assert repr(bad) in str(e.value)
    assert ("KERNFORGE_BUILD_VERSION" if bad else str(txt)) in str(e.value)


def test_the_hook_gives_the_repository_version(monkeypatch):
    monkeypatch.delenv("KERNFORGE_BUILD_VERSION", raising=False)
    first = (ROOT / "version.txt").read_text().splitlines()[0].strip()
    assert provider().dynamic_metadata("version") == first
    with pytest.raises(ValueError, match="version and dependencies"):
        provider().dynamic_metadata("readme")


def test_the_variable_reaches_the_version_and_a_backend_s_dependencies(monkeypatch):
    monkeypatch.setenv("KERNFORGE_BUILD_VERSION", "0.3.0-rc1")
    assert provider().dynamic_metadata("version") == "0.3.0-rc1"
    got = provider().dynamic_metadata("dependencies",
                                      {"requires": ["kernforge=={version}", "nvidia-cublas>=13"]})
    assert got == ["kernforge==0.3.0-rc1", "nvidia-cublas>=13"]


@pytest.mark.parametrize("settings", [None, {}, {"requires": "kernforge"}, {"other": []}])
def test_dependencies_need_a_requires_list(settings):
    with pytest.raises(ValueError, match="requires"):
        provider().dynamic_metadata("dependencies", settings)


def test_the_hook_refuses_what_pep_440_cannot_spell(monkeypatch):
    pytest.importorskip("packaging")
    monkeypatch.setenv("KERNFORGE_BUILD_VERSION", "0.2.0~rc1")
    with pytest.raises(ValueError, match="PEP 440"):
        provider().dynamic_metadata("version")
    monkeypatch.setenv("KERNFORGE_BUILD_VERSION", "0.2.0-rc1")
    assert provider().dynamic_metadata("version") == "0.2.0-rc1"
