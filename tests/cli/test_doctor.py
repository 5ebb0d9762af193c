#!/usr/bin/env python3
"""`kernforge doctor` end to end: runs the built command in child processes with a controlled
environment and checks its exit codes (0 all well, 1 degraded, 2 no usable backend), the text
and the --json output. The command's path comes from KERNFORGE_CLI (CTest sets it).

    KERNFORGE_CLI=build/default/bin/kernforge python3 tests/cli/test_doctor.py [-v] [Case.test]
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

LIB_SUFFIX = ".dll" if os.name == "nt" else ".so"


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without any KERNFORGE_* variable, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KERNFORGE_")}
    env.update(extra)
    return env


def doctor(*args: str, **env: str) -> subprocess.CompletedProcess:
    cli = os.environ.get("KERNFORGE_CLI")
    if not cli:
        raise unittest.SkipTest("KERNFORGE_CLI is not set (run through ctest)")
    return subprocess.run([cli, "doctor", *args], env=clean_env(**env), capture_output=True,
                          text=True, timeout=60, check=False)


def report(proc: subprocess.CompletedProcess) -> dict:
    """stdout of `doctor --json`, which must be one JSON object and nothing else."""
    try:
        parsed = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise AssertionError(f"--json printed something that is not JSON ({e}):\n{proc.stdout}")
    assert isinstance(parsed, dict), proc.stdout
    return parsed


def states(rep: dict) -> dict[str, str]:
    return {b.get("name"): b.get("state") for b in rep.get("backends", [])}


def hint_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("what to do:")]


# What every machine without some device shows for the driver backends it builds (xpu without an
# Intel GPU, opencl without an OpenCL platform): not a problem to report.
MISSING_DEVICE = "its driver or device is missing"


def other_hints(stdout: str) -> list[str]:
    return [h for h in hint_lines(stdout) if MISSING_DEVICE not in h]


class PluginFolder:
    """A temporary folder holding one plugin manifest (and optionally its library file)."""

    def __init__(self, name: str, library_bytes: bytes | None, **manifest: object) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="kf_doctor_")
        self.path = Path(self._tmp.name)
        self.library = self.path / f"libkernforge_{name}{LIB_SUFFIX}"
        if library_bytes is not None:
            self.library.write_bytes(library_bytes)
        data = {"manifest_version": 1, "name": name, "library": self.library.name,
                "abi": [2, 0], "device_type": name, "priority": 1, "search": ["$ORIGIN"]}
        data.update(manifest)
        self.manifest = self.path / f"{name}.json"
        self.manifest.write_text(json.dumps(data))

    def __enter__(self) -> "PluginFolder":
        return self

    def __exit__(self, *exc: object) -> None:
        self._tmp.cleanup()


class Doctor(unittest.TestCase):
    def check_exit(self, proc: subprocess.CompletedProcess, code: int) -> None:
        self.assertEqual(proc.returncode, code,
                         f"exit code {proc.returncode}, expected {code}\n--- stdout\n"
                         f"{proc.stdout}--- stderr\n{proc.stderr}")

    def test_all_well(self) -> None:
        proc = doctor()
        self.check_exit(proc, 0)
        self.assertIn("kernforge doctor: all well", proc.stdout)
        self.assertIn("search roots:", proc.stdout)
        self.assertRegex(proc.stdout, r"(?m)^\s+cpu\s+loaded\s")
        # A driver backend whose device this machine lacks (xpu without an Intel GPU) has its
        # normal hint; nothing else may need doing.
        self.assertEqual(other_hints(proc.stdout), [])
        self.assertTrue(proc.stdout.rstrip().splitlines()[-1].startswith("kernforge doctor:"),
                        "the verdict is the last line")

    def test_json_is_the_report(self) -> None:
        proc = doctor("--json")
        self.check_exit(proc, 0)
        rep = report(proc)
        self.assertEqual(rep.get("schema_version"), 1)
        self.assertEqual(states(rep).get("cpu"), "loaded", rep.get("backends"))
        for key in ("backends", "search_roots", "steps"):
            self.assertIsInstance(rep.get(key), list, key)
        self.assertNotIn("kernforge doctor:", proc.stdout)

    def test_cpu_names_its_gemm_engines(self) -> None:
        # Per dtype: the library (OpenBLAS, oneDNN, the plugin's own, or via float32) and, for a
        # library, the instruction set of its kernels; then the thread count and the CPU's level.
        proc = doctor("--json")
        self.check_exit(proc, 0)
        cpu = next(b for b in report(proc)["backends"] if b.get("name") == "cpu")
        details = cpu.get("details", "")
        engine = r"(OpenBLAS \S+ \S+|oneDNN \S+|the plugin's blocked GEMM \(no BLAS library\))"
        isa = r"\((generic|SSE3|AVX|AVX2|AVX-512|AVX-512 BF16|AMX)\)"
        self.assertRegex(details, rf"^GEMM float32 {engine} {isa}, float64 {engine} {isa}, ")
        self.assertRegex(details, r"bfloat16 (oneDNN \S+ \(.+?\)|via float32), float16 ")
        self.assertRegex(details, r"; \d+ threads?(; | \(no OpenMP\); )CPU ")

    def test_thread_count_from_the_environment(self) -> None:
        proc = doctor("--json", KERNFORGE_NUM_THREADS="1")
        self.check_exit(proc, 0)
        cpu = next(b for b in report(proc)["backends"] if b.get("name") == "cpu")
        self.assertIn("; 1 thread;", cpu.get("details", ""))
        bad = doctor(KERNFORGE_NUM_THREADS="many")
        self.check_exit(bad, 0)
        self.assertIn("KERNFORGE_NUM_THREADS='many' is not a thread count", bad.stderr)

    def test_a_thread_count_beyond_the_bound_is_ignored_with_a_warning(self) -> None:
        proc = doctor(KERNFORGE_NUM_THREADS="2000000")
        self.check_exit(proc, 0)
        self.assertIn("KERNFORGE_NUM_THREADS='2000000' is not a thread count (1 to ", proc.stderr)

    def test_a_log_level_that_names_no_level_is_said(self) -> None:
        proc = doctor(KERNFORGE_LOG_LEVEL="garbage")
        self.check_exit(proc, 0)
        self.assertIn("KERNFORGE_LOG_LEVEL='garbage' is not a log level", proc.stderr)
        self.assertEqual(proc.stderr.count("KERNFORGE_LOG_LEVEL='garbage'"), 1, proc.stderr)

    def test_verbose_lists_the_steps(self) -> None:
        proc = doctor("--verbose")
        self.check_exit(proc, 0)
        self.assertIn("steps:", proc.stdout)
        self.assertRegex(proc.stdout, r"(?m)^\s+dlopen\s+cpu\s+ok\s+\d+\s")
        self.assertIn("start-up:", proc.stdout)
        self.assertNotIn("steps:", doctor().stdout, "steps are for --verbose only")

    def test_autoload_off_is_no_usable_backend(self) -> None:
        proc = doctor(KERNFORGE_AUTOLOAD="0")
        self.check_exit(proc, 2)
        self.assertIn("kernforge doctor: no usable backend", proc.stdout)
        self.assertIn("KERNFORGE_AUTOLOAD=0", proc.stdout)
        proc = doctor("--json", KERNFORGE_AUTOLOAD="0")
        self.check_exit(proc, 2)
        self.assertNotIn("loaded", states(report(proc)).values())

    def test_zero_byte_library_is_degraded(self) -> None:
        with PluginFolder("broken", b"") as folder:
            proc = doctor(KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 1)
            self.assertIn(str(folder.library), proc.stdout)
            self.assertIn("kernforge doctor: degraded: 1 plugin(s) rejected", proc.stdout)
            self.assertRegex(proc.stdout, r"(?m)^\s+cpu\s+loaded\s", "cpu keeps working")
            self.assertTrue(any(str(folder.library) in h for h in hint_lines(proc.stdout)),
                            proc.stdout)
            proc = doctor("--json", KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 1)
            self.assertEqual(states(report(proc)).get("broken"), "rejected")

    def test_disabling_every_backend_is_no_usable_backend(self) -> None:
        names = [b.get("name") for b in report(doctor("--json")).get("backends", [])]
        self.assertIn("cpu", names)
        proc = doctor(KERNFORGE_DISABLE_PLUGINS=",".join(names))
        self.check_exit(proc, 2)
        self.assertIn("kernforge doctor: no usable backend", proc.stdout)
        hints = hint_lines(proc.stdout)
        self.assertTrue(any("KERNFORGE_DISABLE_PLUGINS" in h for h in hints), proc.stdout)

    def test_missing_dependency_names_the_library(self) -> None:
        cpu = next(b for b in report(doctor("--json")).get("backends", [])
                   if b.get("name") == "cpu")
        with PluginFolder("gpulike", None, device_type="gpulike",
                          preload=[{"soname": "libkf_no_such_dependency.so.13",
                                    "folders": ["nowhere"]}]) as folder:
            shutil.copyfile(cpu["library"], folder.library)
            proc = doctor(KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 0)  # a missing dependency makes it unavailable: normal
            self.assertRegex(proc.stdout, r"(?m)^\s+gpulike\s+unavailable\s")
            hints = [h for h in hint_lines(proc.stdout) if "libkf_no_such_dependency.so.13" in h]
            self.assertEqual(len(hints), 1, proc.stdout)
            self.assertIn("KERNFORGE_GPULIKE_HOME", hints[0])

    @unittest.skipIf(os.name == "nt", "POSIX permissions")
    def test_world_writable_folder_is_degraded(self) -> None:
        with PluginFolder("exposed", b"") as folder:
            folder.path.chmod(folder.path.stat().st_mode | stat.S_IWOTH)
            proc = doctor(KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 1)
            self.assertRegex(proc.stdout, r"(?m)^\s+exposed\s+rejected\s")
            hints = hint_lines(proc.stdout)
            self.assertTrue(any("chmod o-w" in h and "KERNFORGE_ALLOW_INSECURE_PLUGINS" in h
                                for h in hints), proc.stdout)

    def _cpu_library(self) -> str:
        return next(b for b in report(doctor("--json")).get("backends", [])
                    if b.get("name") == "cpu")["library"]

    def test_third_party_cpu_does_not_replace_shipped_cpu(self) -> None:
        # A copy of the CPU plugin under another name, found through KERNFORGE_PLUGIN_PATH,
        # declaring device type cpu with a far higher priority: the shipped plugin keeps cpu.
        cpu = self._cpu_library()
        with PluginFolder("mycpu", None, device_type="cpu", priority=100000) as folder:
            shutil.copyfile(cpu, folder.library)
            proc = doctor(KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 0)
            self.assertRegex(proc.stdout, r"(?m)^\s+mycpu\s+shadowed\s")
            self.assertIn("device types:", proc.stdout)
            self.assertRegex(proc.stdout, r"(?m)^\s+cpu\s+cpu\s+shipped with kernforge\s*$")
            self.assertTrue(any("KERNFORGE_PREFER_PLUGINS=cpu=mycpu" in h
                                for h in hint_lines(proc.stdout)), proc.stdout)
            rep = report(doctor("--json", KERNFORGE_PLUGIN_PATH=str(folder.path)))
            self.assertEqual(rep["device_types"]["cpu"]["plugin"], "cpu", rep["device_types"])
            self.assertTrue(rep["device_types"]["cpu"]["shipped"])

    def test_preferred_replacement_is_shown_with_a_warning(self) -> None:
        cpu = self._cpu_library()
        with PluginFolder("mycpu", None, device_type="cpu") as folder:
            shutil.copyfile(cpu, folder.library)
            env = {"KERNFORGE_PLUGIN_PATH": str(folder.path),
                   "KERNFORGE_PREFER_PLUGINS": "cpu=mycpu"}
            proc = doctor(**env)
            self.check_exit(proc, 0)  # the user's explicit choice: a warning, not a fault
            self.assertRegex(proc.stdout, r"(?m)^\s+mycpu\s+loaded\s")
            self.assertRegex(proc.stdout, r"(?m)^\s+cpu\s+mycpu\s+KERNFORGE_PLUGIN_PATH, "
                                          r"KERNFORGE_PREFER_PLUGINS\s*$")
            self.assertIn("warning: device type cpu is served by plugin 'mycpu'", proc.stdout)
            self.assertIn("not by 'cpu' shipped with kernforge", proc.stdout)
            rep = report(doctor("--json", **env))
            served = rep["device_types"]["cpu"]
            self.assertEqual((served["plugin"], served["preferred"], served["replaces_shipped"]),
                             ("mycpu", True, "cpu"), served)

    def test_unchosen_replacement_is_degraded(self) -> None:
        # The shipped plugin is disabled and a plugin from elsewhere took cpu without being named
        # in KERNFORGE_PREFER_PLUGINS: doctor says so and exits 1.
        cpu = self._cpu_library()
        with PluginFolder("mycpu", None, device_type="cpu") as folder:
            shutil.copyfile(cpu, folder.library)
            proc = doctor(KERNFORGE_PLUGIN_PATH=str(folder.path), KERNFORGE_DISABLE_PLUGINS="cpu")
            self.check_exit(proc, 1)
            self.assertIn("kernforge doctor: degraded: device type cpu is served by plugin "
                          "'mycpu'", proc.stdout)
            self.assertIn("KERNFORGE_PREFER_PLUGINS=cpu=mycpu", proc.stdout)

    def test_unmet_requirements_are_normal(self) -> None:
        with PluginFolder("elsewhere", None, requires={"os": "no-such-os"}) as folder:
            proc = doctor(KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 0)
            self.assertIn("kernforge doctor: all well", proc.stdout)
            self.assertRegex(proc.stdout, r"(?m)^\s+elsewhere\s+unavailable\s")
            self.assertEqual(len(other_hints(proc.stdout)), 1, proc.stdout)

    def test_driver_gate_step_and_reason(self) -> None:
        gate = {"any_of": [{"library": "libkf_no_such_driver.so.1"}],
                "install": "the gated test driver"}
        with PluginFolder("gated", b"", requires={"driver": gate}) as folder:
            proc = doctor("--verbose", KERNFORGE_PLUGIN_PATH=str(folder.path))
            self.check_exit(proc, 0)  # a missing driver is normal: unavailable, not rejected
            self.assertRegex(proc.stdout, r"(?m)^\s+gated\s+unavailable\s")
            self.assertRegex(proc.stdout, r"(?m)^\s+driver\s+gated\s+skipped\s")
            self.assertIn("libkf_no_such_driver.so.1", proc.stdout)
            self.assertIn("Install the gated test driver", proc.stdout)
            self.assertEqual(len(other_hints(proc.stdout)), 0, proc.stdout)
            rep = report(doctor("--json", KERNFORGE_PLUGIN_PATH=str(folder.path)))
            self.assertEqual(states(rep).get("gated"), "unavailable")
            steps = [s for s in rep.get("steps", [])
                     if s.get("plugin") == "gated" and s.get("what") == "driver"]
            self.assertEqual(len(steps), 1, rep.get("steps"))
            self.assertEqual(steps[0].get("result"), "skipped")
            self.assertIn("libkf_no_such_driver.so.1", steps[0].get("reason", ""))
            self.assertIn("Install the gated test driver", steps[0].get("reason", ""))
            # The zero-byte library was never opened (opening it would have rejected it).
            self.assertFalse(any(s.get("plugin") == "gated" and s.get("what") == "dlopen"
                                 for s in rep.get("steps", [])))


if __name__ == "__main__":
    unittest.main()
