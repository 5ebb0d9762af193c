"""Third-party plugins from the entry-point groups kernforge.backends and
kernforge.distributed.backends: a
fake installed distribution (a dist-info folder with entry_points.txt) on sys.path, with a good
plugin (the cdev test plugin, or the nullcoll collective plugin of tests/distributed, copied
into its package) and broken ones; each case in a fresh interpreter."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest


def make_distribution(root, entry_points, name="fake_kernforge_backends",
                      group="kernforge.backends"):
    info = os.path.join(root, f"{name}-1.0.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    with open(os.path.join(info, "entry_points.txt"), "w") as f:
        f.write(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points))


@pytest.fixture
def site(tmp_path, cdev_dir):
    good = tmp_path / "fake_cdev"
    good.mkdir()
    for name in ("cdev.json", "libkernforge_cdev.so"):
        shutil.copy(os.path.join(cdev_dir, name), good / name)
    (good / "__init__.py").write_text("")
    broken = tmp_path / "fake_broken"
    broken.mkdir()
    (broken / "__init__.py").write_text("MANIFEST = 'nothing_here.json'\n")
    return tmp_path


def run(site, code, env=None):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(site), e.get("PYTHONPATH", "")])
    e.pop("KERNFORGE_PLUGIN_PATH", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=e,
                          capture_output=True, text=True, timeout=120)


def test_a_good_entry_point_loads_last_and_its_ops_appear(site):
    make_distribution(site, [("cdev", "fake_cdev")])
    r = run(site, """
        import kernforge as kf
        names = [b["name"] for b in kf.backends()]
        print(names[-1], [b["state"] for b in kf.backends() if b["name"] == "cdev"])
        print(kf.ops.cdev.scale(kf.ones(2).to("cdev"), 3.0).to("cpu").tolist())
        print(kf.doctor().ok)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["cdev ['loaded']", "[3.0, 3.0]", "True"]


def test_broken_entry_points_are_skipped_and_reported(site):
    make_distribution(site, [("cdev", "fake_cdev"), ("missing", "no_such_module_kf"),
                             ("nomanifest", "fake_broken:MANIFEST"),
                             ("raises", "fake_broken:no_such_attribute")])
    r = run(site, """
        import kernforge as kf
        print(kf.ones(2) + 1)
        rep = kf.doctor()
        print(rep.ok)
        for e in rep.data["entry_points"]:
            print(e["name"], e["state"], e["error"][:60])
        print(str(rep))
    """)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "tensor([2., 2.], dtype=float32)" and out[1] == "False"
    states = dict(line.split(" ", 2)[:2] for line in out[2:6])
    assert states == {"cdev": "loaded", "missing": "failed", "nomanifest": "failed",
                      "raises": "failed"}
    assert "no_such_module_kf" in r.stdout and "nothing_here.json" in r.stdout
    assert "entry points (kernforge.backends):" in r.stdout


def test_a_manifest_whose_library_is_broken_is_rejected_not_fatal(site):
    bad = site / "fake_cdev"
    (bad / "libkernforge_cdev.so").write_bytes(b"")  # a zero-byte library
    make_distribution(site, [("cdev", "fake_cdev")])
    r = run(site, """
        import kernforge as kf
        print(kf.zeros(1).tolist())
        rep = kf.doctor()
        print(rep.ok, rep.data["entry_points"][0]["state"])
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1] == "False failed"


def test_autoload_0_turns_entry_points_off(site):
    make_distribution(site, [("cdev", "fake_cdev")])
    r = run(site, """
        import kernforge as kf
        print(kf.doctor().data["entry_points"], hasattr(kf.ops, "cdev"))
    """, {"KERNFORGE_AUTOLOAD": "0"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[] False"


def _states(r):
    """{entry point: state} from the lines "name state" the cases below print."""
    return dict(line.split(" ")[1:3] for line in r.stdout.splitlines() if line.startswith("ep "))


_REPORT = """
    import kernforge as kf
    print(kf.ones(2).tolist())
    for e in kf.doctor().data["entry_points"]:
        print("ep", e["name"], e["state"])
    print(kf.doctor())
"""


def test_a_file_name_that_is_not_utf8_in_a_backend_folder_is_one_failed_path(site):
    # A folder entry point loads every *.json of the folder; one of them has a name that is not
    # UTF-8 (and is no manifest). The others still load and import goes on.
    folder = site / "fake_cdev"
    with open(os.path.join(os.fsencode(folder), b"bad-\xff.json"), "wb") as f:
        f.write(b"{}")
    make_distribution(site, [("cdev", "fake_cdev")])
    r = run(site, _REPORT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "[1.0, 1.0]"
    assert _states(r) == {"cdev": "failed"}
    assert "bad-\\xff.json" in r.stdout  # the name shown with its byte escaped
    assert "cdev" in [line.split()[0] for line in r.stdout.splitlines()
                      if "loaded" in line and "devices=" in line]


@pytest.mark.parametrize("exc", ["SystemExit(3)", "GeneratorExit()", "SystemExit()"])
def test_a_module_raising_systemexit_or_generatorexit_is_a_failed_entry_point(site, exc):
    (site / "fake_exits").mkdir()
    (site / "fake_exits" / "__init__.py").write_text(f"raise {exc}\n")
    make_distribution(site, [("cdev", "fake_cdev"), ("exits", "fake_exits:MANIFEST")])
    r = run(site, _REPORT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "[1.0, 1.0]"
    assert _states(r) == {"cdev": "loaded", "exits": "failed"}
    assert exc.split("(")[0] in r.stdout


def test_one_distribution_whose_entry_points_are_not_utf8_stops_no_other(site):
    make_distribution(site, [("cdev", "fake_cdev")], name="good_backends")
    make_distribution(site, [("other", "fake_cdev")], name="bad_backends")
    with open(site / "bad_backends-1.0.dist-info" / "entry_points.txt", "ab") as f:
        f.write(b"# \xff\xfe not UTF-8\n")
    r = run(site, _REPORT)
    assert r.returncode == 0, r.stderr
    states = _states(r)
    assert states["cdev"] == "loaded" and states["bad_backends"] == "failed", r.stdout
    assert "UnicodeDecodeError" in r.stdout


def test_a_collective_plugin_of_the_distributed_backends_group_serves_a_communicator(tmp_path):
    d = os.environ.get("KF_NULLCOLL_PLUGIN_DIR", "")
    if not d or not os.path.exists(os.path.join(d, "nullcoll.json")):
        pytest.skip("KF_NULLCOLL_PLUGIN_DIR does not name the nullcoll test plugin's folder")
    pkg = tmp_path / "fake_nullcoll"
    pkg.mkdir()
    for name in ("nullcoll.json", "libkernforge_nullcoll.so"):
        shutil.copy(os.path.join(d, name), pkg / name)
    (pkg / "__init__.py").write_text("")
    make_distribution(tmp_path, [("nullcoll", "fake_nullcoll")], name="fake_collectives",
                      group="kernforge.distributed.backends")
    r = run(tmp_path, f"""
        import kernforge as kf
        import kernforge.distributed as dist
        rep = kf.doctor()
        print([(e["name"], e["group"], e["state"]) for e in rep.data["entry_points"]])
        print([c["state"] for c in rep.data["runtime"]["collectives"] if c["name"] == "nullcoll"])
        dist.init_process_group("nullcoll", init_method="file://{tmp_path}", rank=0,
                                world_size=1)
        try:
            dist.all_reduce(kf.ones(2))
        except NotImplementedError as e:
            print("NotImplementedError", "nullcoll" in str(e))
        print(rep)
    """)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "[('nullcoll', 'kernforge.distributed.backends', 'loaded')]"
    assert out[1] == "['loaded']"
    assert out[2] == "NotImplementedError True"
    assert "entry points (kernforge.distributed.backends):\n  nullcoll" in r.stdout
