#!/usr/bin/env python3
"""spirv_ir.py's IR rewrite (backends/clkernels/spirv_ir.py): freeze removed, blocks in
dominance order, values and blocks numbered again, everything else unchanged."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.environ["KF_CLKERNELS_DIR"])
import spirv_ir  # noqa: E402

# The shape of the tiled matmul's IR that llvm-spirv 15 mistranslated: the loop exit (block 9)
# comes before the loop body (block 12) that defines the value (%13) it uses.
LOOP = """define spir_kernel void @k(float addrspace(1)* %0, i64 %1) {
  %3 = icmp sgt i64 %1, 0
  br i1 %3, label %12, label %17

9:                                                ; preds = %12
  %10 = bitcast float %13 to i32
  br label %17

12:                                               ; preds = %2, %12
  %13 = phi float [ 0.000000e+00, %2 ], [ %14, %12 ]
  %14 = fadd float %13, 1.000000e+00
  %15 = freeze i64 %1
  %16 = icmp eq i64 %15, 0
  br i1 %16, label %9, label %12

17:                                               ; preds = %2, %9
  %18 = phi i32 [ 0, %2 ], [ %10, %9 ]
  %19 = freeze i32 undef
  ret void
}
"""


def labels(text):
    return re.findall(r"^(\d+):", text, re.M)


class Regularize(unittest.TestCase):
    def setUp(self):
        self.out = spirv_ir.regularize("; ModuleID = 'x'\n" + LOOP)

    def test_no_freeze_is_left(self):
        self.assertNotIn("freeze", self.out)
        self.assertIn("select i1 true, i64 %1, i64 %1", self.out)
        self.assertIn("select i1 true, i32 zeroinitializer, i32 zeroinitializer", self.out)

    def test_blocks_follow_their_dominators(self):
        # entry (%2), then the loop body, then the loop exit, then the end
        self.assertEqual(labels(self.out), ["4", "9", "11"])
        body = self.out.index("phi float")
        self.assertLess(body, self.out.index("bitcast float"))

    def test_uses_follow_the_new_numbers(self):
        self.assertIn("br i1 %3, label %4, label %11", self.out)
        self.assertIn("%5 = phi float [ 0.000000e+00, %2 ], [ %6, %4 ]", self.out)
        self.assertIn("br i1 %8, label %9, label %4", self.out)
        self.assertIn("%10 = bitcast float %5 to i32", self.out)
        self.assertIn("%12 = phi i32 [ 0, %2 ], [ %10, %9 ]", self.out)

    def test_text_outside_functions_is_unchanged(self):
        self.assertTrue(self.out.startswith("; ModuleID = 'x'\n"))

    def test_clang_reads_the_result(self):
        clang = os.environ.get("KF_CLANG")
        if not clang:
            self.skipTest("KF_CLANG is not set")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.ll")
            with open(path, "w") as f:
                f.write('target triple = "spir64"\n' + self.out)
            subprocess.run([clang, "-target", "spir64", "-x", "ir", "-c", "-emit-llvm", path,
                            "-o", os.path.join(tmp, "x.bc")], check=True)


class Embed(unittest.TestCase):
    def test_a_module_without_fp64_must_not_declare_float64(self):
        header = [0x07230203, 0x00010000, 0, 100, 0]
        caps = [0x00020011, 4, 0x00020011, 10]  # Addresses, Float64
        data = b"".join(w.to_bytes(4, "little") for w in header + caps)
        with tempfile.TemporaryDirectory() as tmp:
            spv, cpp = os.path.join(tmp, "m.spv"), os.path.join(tmp, "m.cpp")
            with open(spv, "wb") as f:
                f.write(data)
            with self.assertRaises(SystemExit):
                spirv_ir.embed(spv, cpp, "m", "0")
            spirv_ir.embed(spv, cpp, "m", "1")
            with open(cpp) as f:
                text = f.read()
            self.assertIn("alignas(4) const unsigned char m[] =", text)
            self.assertIn(f"const size_t m_size = {len(data)};", text)
            self.assertIn('"\\x03\\x02\\x23\\x07', text)


if __name__ == "__main__":
    unittest.main()
