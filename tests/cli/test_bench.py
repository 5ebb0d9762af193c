#!/usr/bin/env python3
"""`kernforge bench` end to end: its --json document, a backend name that is not loaded, and a
workload that cannot run reported as skipped with why (the dispatch tests' cdev plugin, which
has kernels for its own ops only, with the CPU fallback off). Never
asserts a timing: only that every row either ran (time and rate > 0) or says why it did not.
"""
from __future__ import annotations

import json
import os
import subprocess
import unittest


def bench(*args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    cli = os.environ.get("KERNFORGE_CLI")
    if not cli:
        raise unittest.SkipTest("KERNFORGE_CLI is set by ctest")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KERNFORGE_")}
    env["KERNFORGE_LOG_LEVEL"] = "error"
    env.update(extra_env or {})
    return subprocess.run([cli, "bench", *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)


class Bench(unittest.TestCase):
    def test_json_has_a_row_per_workload_and_backend(self):
        proc = bench("--quick", "--json", "--backend", "cpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        doc = json.loads(proc.stdout)
        self.assertEqual(doc["schema_version"], 1)
        rows = doc["results"]
        self.assertGreaterEqual(len(rows), 10)
        self.assertEqual({r["backend"] for r in rows}, {"cpu"})
        for r in rows:
            if "skipped" in r:
                self.assertTrue(r["skipped"], r)  # says why
                continue
            self.assertGreater(r["seconds_per_run"], 0, r)
            self.assertGreater(r["rate"], 0, r)
            self.assertGreater(r["runs"], 0, r)
        ran = {r["workload"] for r in rows if "skipped" not in r}
        for name in ("add 1 f32 (one tiny op)", "matmul 128x128 f32", "sum 1M f32",
                     "softmax 512x512 f32", "mlp 16x256x1024 f32"):
            self.assertIn(name, ran, rows)

    def test_an_unknown_backend_is_a_usage_error(self):
        proc = bench("--quick", "--backend", "no_such_backend")
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertIn("no loaded backend 'no_such_backend'", proc.stderr)
        self.assertIn("cpu", proc.stderr)  # names what is loaded

    def test_a_time_budget_that_is_not_a_positive_finite_number_is_a_usage_error(self):
        for value in ("nan", "inf", "-1", "0", "1e9", "soon"):
            with self.subTest(seconds=value):
                proc = bench("--quick", "--backend", "cpu", "--seconds", value)
                self.assertNotEqual(proc.returncode, 0, proc.stdout)
                self.assertIn("--seconds", proc.stderr)
                self.assertIn(value, proc.stderr)
                self.assertEqual(proc.stdout, "")  # nothing was run

    def test_a_workload_that_cannot_run_is_skipped_with_why(self):
        plugins = os.environ.get("KF_DISPATCH_PLUGINS")
        if not plugins:
            raise unittest.SkipTest("KF_DISPATCH_PLUGINS is set by ctest")
        # cdev has kernels for its own ops only; without the CPU fallback nothing else runs.
        proc = bench("--quick", "--json", "--backend", "cdev",
                     extra_env={"KERNFORGE_PLUGIN_PATH": plugins, "KERNFORGE_CPU_FALLBACK": "0"})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = json.loads(proc.stdout)["results"]
        matmul = [r for r in rows if r["workload"].startswith("matmul")]
        self.assertTrue(matmul and all("skipped" in r for r in matmul), rows)
        for r in matmul:  # why: the inputs cannot even be made there
            self.assertIn("backend 'cdev' has no kernel", r["skipped"], r)
            self.assertFalse(r["skipped"].startswith("full: full:"), r)

    def test_the_table_names_every_workload(self):
        proc = bench("--quick", "--backend", "cpu", "--seconds", "0.05")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("workload", proc.stdout)
        self.assertIn("matmul 256x256 f32", proc.stdout)
        self.assertIn("GFLOP/s", proc.stdout)


if __name__ == "__main__":
    unittest.main()
