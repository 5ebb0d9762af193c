#!/usr/bin/env python3
"""tools/checks/budgets.py really fails: files and functions one line over their budgets, in
each language it reads, are reported (with the path, the line and the length), and the same at
exactly the budget are not. Run by CTest as structure.budgets_catch_violations; the files are
written to a temporary folder each run."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGETS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "checks", "budgets.py")


def c_function(name, lines, head="int {name}(int x) {{"):
    """A C-family function of exactly `lines` lines (its header and closing brace included)."""
    body = [f"  x += {i};" for i in range(lines - 3)]
    return [head.format(name=name)] + body + ["  return x;", "}"]


def py_function(name, lines):
    return [f"def {name}(x):"] + [f"    x += {i}" for i in range(lines - 2)] + ["    return x"]


class Budgets(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, lines):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_budgets(self, *args):
        p = subprocess.run([sys.executable, BUDGETS, *args], capture_output=True, text=True)
        return p.returncode, p.stdout.splitlines(), p.stderr

    def test_one_line_over_is_reported_in_every_language(self):
        files = [
            self.write("long.cpp", ["// a fixture"] + c_function("at_budget", 60) +
                       c_function("too_long", 61)),
            self.write("long.py", py_function("at_budget", 60) + [""] +
                       py_function("too_long", 61)),
            self.write("long.cu", c_function("too_long", 61, "__global__ void {name}(int x) {{")),
            self.write("long.cl", c_function("too_long", 61,
                                             "__kernel void {name}(__global int* p, int x) {{")),
            self.write("test_long.cpp", c_function("", 61, "TEST(Suite, TooLong) {{")),
        ]
        rc, out, err = self.run_budgets(*files)
        self.assertEqual(rc, 1, err)
        expected = [
            f"{files[0]}:62: function 'too_long' is 61 lines (budget 60)",
            f"{files[1]}:62: function 'too_long' is 61 lines (budget 60)",
            f"{files[2]}:1: function 'too_long' is 61 lines (budget 60)",
            f"{files[3]}:1: function 'too_long' is 61 lines (budget 60)",
            f"{files[4]}:1: function 'TEST(Suite, TooLong)' is 61 lines (budget 60)",
        ]
        self.assertEqual(sorted(out[:-1]), sorted(expected))
        self.assertIn("5 over budget", out[-1])

    def test_file_budget(self):
        at = self.write("at_budget.hpp", [f"// line {i}" for i in range(1000)])
        over = self.write("over_budget.h", [f"// line {i}" for i in range(1001)])
        rc, out, err = self.run_budgets(at, over)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out[:-1], [f"{over}:1: file is 1001 lines (budget 1000)"])

    def test_within_budget_passes(self):
        path = self.write("ok.cpp", c_function("at_budget", 60))
        rc, out, err = self.run_budgets(path)
        self.assertEqual(rc, 0, err)
        self.assertIn("0 over budget", out[-1])

    def test_project_walk_skips_build_outputs_and_other_files(self):
        # A root that is not a git checkout: walked, build*/ and hidden folders left out.
        self.write("src/ok.cpp", c_function("fine", 10))
        self.write("src/notes.txt", [f"{i}" for i in range(2000)])
        self.write("build/default/generated/big.cpp", c_function("generated", 200))
        self.write(".cache/big.py", py_function("cached", 200))
        self.write("tests/fuzz/corpus/views/input.cpp", c_function("seed", 200))
        self.write("tests/long.cpp", c_function("in_a_test", 61))
        rc, out, err = self.run_budgets("--root", self.dir)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out[:-1],
                         ["tests/long.cpp:1: function 'in_a_test' is 61 lines (budget 60)"])
        self.assertIn("2 files checked", out[-1])


if __name__ == "__main__":
    unittest.main()
