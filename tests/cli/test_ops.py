#!/usr/bin/env python3
"""`kernforge ops` end to end with plugins that bring ops of their own: the plain C plugin cdev
(defines cdev::scale and cdev::axpy) and testasync (a kernel for cdev::scale, a kernel that
overrides the composite linear, a fallback of its own), found through KERNFORGE_PLUGIN_PATH.
The command comes from KERNFORGE_CLI and the plugin folder from KF_DISPATCH_PLUGINS (CTest sets
both).
"""
from __future__ import annotations

import json
import os
import subprocess
import unittest


def ops(*args: str) -> subprocess.CompletedProcess:
    cli, plugins = os.environ.get("KERNFORGE_CLI"), os.environ.get("KF_DISPATCH_PLUGINS")
    if not cli or not plugins:
        raise unittest.SkipTest("KERNFORGE_CLI and KF_DISPATCH_PLUGINS are set by ctest")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KERNFORGE_")}
    env["KERNFORGE_PLUGIN_PATH"] = plugins
    env["KERNFORGE_LOG_LEVEL"] = "error"
    return subprocess.run([cli, "ops", *args], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def kernels(entry: dict) -> dict[str, dict]:
    return {k["backend"]: k for k in entry["kernels"]}


class Ops(unittest.TestCase):
    def test_matrix_lists_ops_defined_by_plugins(self):
        proc = ops("--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        doc = json.loads(proc.stdout)
        by_name = {op["name"]: op for op in doc["ops"]}
        for name in ("cdev::scale", "cdev::axpy", "add", "linear"):
            self.assertIn(name, by_name)
        scale = kernels(by_name["cdev::scale"])
        self.assertEqual(scale["cdev"]["kind"], "backend")
        self.assertIn("cdev_plugin.c", scale["cdev"]["provenance"])
        self.assertEqual(scale["testasync"]["kind"], "backend")
        self.assertEqual(scale["cpu"]["kind"], "none")
        linear = kernels(by_name["linear"])
        self.assertEqual(linear["testasync"]["kind"], "backend")
        self.assertEqual(linear["testasync"]["dtypes"], ["f32"])
        self.assertEqual(linear["cpu"]["kind"], "composite")
        neg = kernels(by_name["neg"])
        self.assertEqual(neg["testasync"]["kind"], "backend fallback")
        self.assertEqual(neg["testasync"]["dtypes"], ["i16"])
        # What a device backend's kernel leaves to the CPU fallback is listed beside what it
        # runs natively: the CPU kernel's dtypes less its own (complex add on testasync, say).
        add = kernels(by_name["add"])
        self.assertIn("c64", add["cpu"]["dtypes"])
        self.assertEqual(add["cpu"]["fallback_dtypes"], [])
        native = [k for name, k in add.items() if name != "cpu" and k["kind"] == "backend"]
        self.assertTrue(native, add)
        for k in native:
            self.assertEqual(set(k["fallback_dtypes"]),
                             set(add["cpu"]["dtypes"]) - set(k["dtypes"]), k)
        text = ops()
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("+fallback:", text.stdout)
        self.assertIn("cdev::scale", text.stdout)
        self.assertIn("own fallback", text.stdout)

    def test_an_unavailable_backend_shows_what_it_would_run(self):
        proc = ops("--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        doc = json.loads(proc.stdout)
        add = kernels({op["name"]: op for op in doc["ops"]}["add"])
        listed = [name for name, k in add.items() if k["unavailable_dtypes"]]
        if not listed:
            self.skipTest("no backend here is unavailable with a list (rocm without an AMD GPU)")
        for name in listed:
            self.assertEqual(add[name]["kind"], "none", add[name])
            self.assertEqual(add[name]["dtypes"], [], add[name])
            self.assertIn("f32", add[name]["unavailable_dtypes"])
        text = ops()
        self.assertIn("(f32,", text.stdout)
        one = ops("add")
        self.assertIn("unavailable, would run", one.stdout)

    def test_an_empty_op_name_is_an_unknown_op_not_the_matrix(self):
        proc = ops("")
        self.assertEqual(proc.returncode, 2, proc.stdout)
        self.assertIn("unknown op ''", proc.stderr)
        self.assertEqual(proc.stdout, "")

    def test_one_defined_op_with_its_schema_and_doc(self):
        proc = ops("cdev::scale")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("cdev::scale(Tensor self, float factor) -> Tensor", proc.stdout)
        self.assertIn("self times factor", proc.stdout)
        self.assertIn("testdev_kernels.cpp", proc.stdout)


if __name__ == "__main__":
    unittest.main()
