"""Tests of the op schema validator and code generator (tools/codegen).

Written as unittest.TestCase classes so that both `python3 -m pytest` and
`python3 -m unittest discover` run them. CTest puts tools/codegen on PYTHONPATH; run by hand:

    PYTHONPATH=tools/codegen python3 -m unittest discover -s tests/codegen -v
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CODEGEN = os.path.join(ROOT, "tools", "codegen")
if CODEGEN not in sys.path:
    sys.path.insert(0, CODEGEN)

import derivatives  # noqa: E402
import gen_autograd  # noqa: E402
import gen_c  # noqa: E402
import gen_docs  # noqa: E402
import gen_kinds  # noqa: E402
import gen_python  # noqa: E402
import main as codegen_main  # noqa: E402
import schema  # noqa: E402
from schema import SchemaError  # noqa: E402

OPS_YAML = os.path.join(ROOT, "dispatcher", "ops.yaml")

# Lines 1-5 of every test schema: a comment and one valid op, so that the entry under test
# starts at line 6 (or later) and a message pointing at line 1 is caught.
PRELUDE = textwrap.dedent("""\
    # a test schema
    - op: neg(Tensor self) -> Tensor
      meta: unary
      variants: [function, method, inplace, out]
      doc: Negation.
    """)
FIRST_LINE = PRELUDE.count("\n") + 1  # the line where the entry under test starts


class SchemaTestCase(unittest.TestCase):
    def setUp(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="kf_codegen_")
        self.addCleanup(self._dir.cleanup)

    def write(self, text: str, name: str = "ops.yaml") -> str:
        path = os.path.join(self._dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def load_text(self, body: str, prelude: str = PRELUDE) -> list[schema.Op]:
        return schema.load(self.write(prelude + textwrap.dedent(body)))

    def assert_rejected(self, body: str, line: int, *words: str, prelude: str = PRELUDE) -> str:
        """The schema prelude+body is rejected with `<file>:<line>: ...` naming every word."""
        path = self.write(prelude + textwrap.dedent(body))
        with self.assertRaises(SchemaError) as cm:
            schema.load(path)
        msg = str(cm.exception)
        self.assertTrue(msg.startswith(f"{path}:{line}: "),
                        f"message should start with '{path}:{line}: ', got: {msg}")
        for w in words:
            self.assertIn(w, msg)
        return msg


class BadEntries(SchemaTestCase):
    def test_valid_prelude_loads(self):
        ops = self.load_text("")
        self.assertEqual([op.name for op in ops], ["neg"])
        self.assertEqual(ops[0].line, 2)

    def test_unknown_field(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
              kernel_name: abs_impl
              doc: Absolute value.
            """, FIRST_LINE, "unknown field 'kernel_name'", "known:")

    def test_missing_op(self):
        self.assert_rejected("""\
            - meta: unary
              doc: Absolute value.
            """, FIRST_LINE, "missing field 'op'")

    def test_missing_doc(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
            """, FIRST_LINE, "'abs'", "'doc'")

    def test_empty_doc(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
              doc: ""
            """, FIRST_LINE, "'abs'", "'doc'")

    def test_missing_meta_of_kernel_op(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              doc: Absolute value.
            """, FIRST_LINE, "kernel op 'abs'", "'meta'")

    def test_meta_on_view_op(self):
        self.assert_rejected("""\
            - op: alias(Tensor(a) self) -> Tensor(a)
              kind: view
              meta: unary
              doc: The same tensor.
            """, FIRST_LINE, "view op 'alias'", "'meta'")

    def test_composite_with_meta_loads(self):
        ops = self.load_text("""\
            - op: fused(Tensor self, Tensor other) -> Tensor
              kind: composite
              meta: broadcast_binary
              doc: Overridable by a backend kernel.
            """)
        self.assertEqual(ops[-1].kind, "composite")
        self.assertEqual(ops[-1].meta, "broadcast_binary")

    def test_rule_signature_drops_aliases_and_names(self):
        op = next(o for o in schema.load(OPS_YAML) if o.name == "copy_")
        self.assertEqual(schema.rule_signature(op), "Tensor, Tensor -> 1")

    def test_bad_kind(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              kind: kernal
              meta: unary
              doc: Absolute value.
            """, FIRST_LINE, "kind 'kernal'", "kernel, view, composite")

    def test_field_of_wrong_type(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
              variants: function
              doc: Absolute value.
            """, FIRST_LINE, "'variants'", "list")

    def test_bad_variant_and_tag(self):
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
              variants: [function, outplace]
              doc: Absolute value.
            """, FIRST_LINE, "variant 'outplace'")
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
              tags: [pointwize]
              doc: Absolute value.
            """, FIRST_LINE, "tag 'pointwize'")

    def test_unknown_type(self):
        self.assert_rejected("""\
            - op: abs(Tensr self) -> Tensor
              meta: unary
              doc: Absolute value.
            """, FIRST_LINE, "unknown type 'Tensr'", "'self'")

    def test_unsupported_return_type(self):
        self.assert_rejected("""\
            - op: numel(Tensor self) -> int
              meta: unary
              doc: Element count.
            """, FIRST_LINE, "return type 'int'")

    def test_unparsable_signature(self):
        self.assert_rejected("""\
            - op: abs Tensor self -> Tensor
              meta: unary
              doc: Absolute value.
            """, FIRST_LINE, "cannot parse signature")

    def test_bad_defaults(self):
        cases = [("int n=abc", "'abc'"), ("int n=1.5", "'1.5'"), ("bool flag=1", "'1'"),
                 ("float eps=fast", "'fast'"), ("ScalarType dtype=None", "'None'"),
                 ("Tensor other=None", "'None'"), ("int[] dims=[1,", "'[1,'"),
                 ("Scalar alpha=two", "'two'")]
        for arg, word in cases:
            with self.subTest(arg=arg):
                self.assert_rejected(f"""\
                    - op: foo(Tensor self, {arg}) -> Tensor
                      meta: unary
                      doc: Foo.
                    """, FIRST_LINE, "default " + word, "not valid")

    def test_good_defaults_load(self):
        ops = self.load_text("""\
            - op: foo(Tensor self, int n=-3, float eps=1e-5, bool flag=True, Scalar alpha=1.5, int[] dims=[], int[]? d2=None, ScalarType? dtype=None, Tensor? w=None) -> Tensor
              meta: unary
              doc: Foo.
            """)
        self.assertEqual([a.default for a in ops[1].args[1:]],
                         ["-3", "1e-5", "True", "1.5", "[]", "None", "None", "None"])

    def test_list_defaults_other_than_empty_are_refused(self):
        self.assert_rejected("""\
            - op: foo(Tensor self, int[] dims=[0, -1]) -> Tensor
              meta: unary
              doc: Foo.
            """, FIRST_LINE, "default '[0, -1]'", "other than [] are not supported")

    def test_both_parsers_judge_the_shared_cases_alike(self):
        """schema_cases.txt, which the run-time parser reads too (test_schema_cases.cpp)."""
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema_cases.txt")
        with open(path, encoding="utf-8") as f:
            lines = [(n, line.split(None, 1)) for n, line in enumerate(f, 1)
                     if line.strip() and not line.startswith("#")]
        self.assertGreater(len(lines), 40)
        for n, (verdict, sig) in lines:
            with self.subTest(line=n, signature=sig.strip()):
                self.assertIn(verdict, ("ok", "bad"))
                try:
                    schema.parse_signature(sig.strip(), f"schema_cases.txt:{n}")
                    self.assertEqual(verdict, "ok", "accepted, but listed as bad")
                except SchemaError as e:
                    self.assertEqual(verdict, "bad", f"refused: {e}")

    def test_duplicate_op(self):
        msg = self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary
              doc: Absolute value.
            - op: neg(Tensor self) -> Tensor
              meta: unary
              doc: Negation again.
            """, FIRST_LINE + 3, "op 'neg'", "already defined")
        self.assertIn("line 2", msg)

    def test_duplicate_argument(self):
        self.assert_rejected("""\
            - op: foo(Tensor self, int n, int n) -> Tensor
              meta: unary
              doc: Foo.
            """, FIRST_LINE, "argument 'n' appears twice", "'foo'")

    def test_reserved_argument_name(self):
        self.assert_rejected("""\
            - op: foo(Tensor self, Tensor out) -> Tensor
              meta: unary
              doc: Foo.
            """, FIRST_LINE, "'out'", "reserved")

    def test_argument_without_default_after_one_with(self):
        self.assert_rejected("""\
            - op: foo(Tensor self, int a=1, int b) -> Tensor
              meta: unary
              doc: Foo.
            """, FIRST_LINE, "'b'", "without a default")

    def test_kernel_op_with_tensor_list(self):
        self.assert_rejected("""\
            - op: concat(Tensor[] tensors, int dim=0) -> Tensor
              meta: cat
              doc: Concatenation.
            """, FIRST_LINE, "kernel op 'concat'", "Tensor[]", "composite")

    def test_composite_op_with_tensor_list_loads(self):
        ops = self.load_text("""\
            - op: concat(Tensor[] tensors, int dim=0) -> Tensor
              kind: composite
              doc: Concatenation.
            """)
        self.assertEqual(ops[1].kind, "composite")
        # Every generator takes it; a kernel call carries no tensor list, so the plugin header
        # has no Args struct for it.
        files = codegen_main.outputs(ops)
        self.assertNotIn("struct concat", files["include/kernforge/plugin_ops.hpp"])
        self.assertIn("struct neg", files["include/kernforge/plugin_ops.hpp"])
        self.assertIn("kf_concat(const kf_tensor_t* tensors, int32_t tensors_len",
                      files["include/kernforge/kernforge_ops.h"])

    def test_view_with_out_variant(self):
        self.assert_rejected("""\
            - op: alias(Tensor(a) self) -> Tensor(a)
              kind: view
              variants: [function, out]
              doc: The same tensor.
            """, FIRST_LINE, "view op 'alias'", "out")

    def test_view_with_inplace_variant(self):
        self.assert_rejected("""\
            - op: alias(Tensor(a) self) -> Tensor(a)
              kind: view
              variants: [function, inplace]
              doc: The same tensor.
            """, FIRST_LINE, "view op 'alias'", "inplace")

    def test_inplace_op_without_mutable_self(self):
        for sig in ("zero_(Tensor self) -> Tensor", "zero_(Tensor(a) self) -> Tensor(a)",
                    "zero_(int n) -> Tensor", "zero_() -> Tensor",
                    "zero_(Tensor[] self) -> Tensor"):
            with self.subTest(sig=sig):
                self.assert_rejected(f"""\
                    - op: {sig}
                      kind: composite
                      doc: Zero in place.
                    """, FIRST_LINE, "in-place op 'zero_'", "Tensor(a!) self")

    def test_inplace_op_with_optional_self(self):
        self.assert_rejected("""\
            - op: zero_(Tensor(a!)? self) -> Tensor(a!)
              kind: composite
              doc: Zero in place.
            """, FIRST_LINE, "in-place op 'zero_'", "Tensor(a!) self")

    def test_inplace_op_returning_more_than_self(self):
        for rets in ("Tensor", "(Tensor(a!), Tensor)"):
            with self.subTest(rets=rets):
                self.assert_rejected(f"""\
                    - op: zero_(Tensor(a!) self) -> {rets}
                      kind: composite
                      doc: Zero in place.
                    """, FIRST_LINE, "in-place op 'zero_'", "return what it writes")

    def test_written_argument_other_than_inplace_self(self):
        for sig in ("fill(Tensor(a!) x, Scalar v) -> Tensor",
                    "zero_(Tensor(a!) self, Tensor(c!) x) -> (Tensor(a!), Tensor(c!))",
                    "zero_(Tensor(a!) self, Tensor(b!)? x) -> (Tensor(a!), Tensor(b!))"):
            with self.subTest(sig=sig):
                self.assert_rejected(f"""\
                    - op: {sig}
                      kind: composite
                      doc: Writes x.
                    """, FIRST_LINE, "argument 'x'", "written")

    def test_inplace_op_writing_two_tensors(self):
        ops = self.load_text("""\
            - op: step_(Tensor(a!) self, Tensor grad, Tensor(b!) state) -> (Tensor(a!), Tensor(b!))
              kind: composite
              doc: Updates self and state.
            """)
        self.assertEqual([a.written for a in ops[1].args], [True, False, True])
        self.assert_rejected("""\
            - op: step_(Tensor(a!) self, Tensor(b!) state) -> Tensor(a!)
              kind: composite
              doc: Updates self and state.
            """, FIRST_LINE, "in-place op 'step_'", "(Tensor(a!), Tensor(b!))")

    def test_inplace_op_with_mutable_self_loads(self):
        ops = self.load_text("""\
            - op: zero_(Tensor(a!) self) -> Tensor(a!)
              kind: composite
              doc: Zero in place.
            """)
        self.assertTrue(ops[1].inplace_only)

    def test_inplace_variant_clashing_with_op(self):
        self.assert_rejected("""\
            - op: neg_(Tensor(a!) self) -> Tensor(a!)
              kind: composite
              doc: Negation in place.
            """, 2, "inplace variant of 'neg'", "'neg_'")

    def test_yaml_syntax_error(self):
        # Line FIRST_LINE + 1 has a mapping value where none is allowed.
        self.assert_rejected("""\
            - op: abs(Tensor self) -> Tensor
              meta: unary: fast
              doc: Absolute value.
            """, FIRST_LINE + 1, "YAML")

    def test_schema_not_a_list(self):
        self.assert_rejected("op: neg(Tensor self) -> Tensor\n", 1, "list", prelude="")

    def test_entry_not_a_mapping(self):
        msg = self.assert_rejected("- just a string\n", FIRST_LINE, "entry 2", "mapping")
        self.assertIn("mapping", msg)


class RealSchema(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.ops = schema.load(OPS_YAML)

    def test_loads_with_unique_dense_ops(self):
        self.assertGreaterEqual(len(self.ops), 30)
        names = [op.name for op in self.ops]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual([op.index for op in self.ops], list(range(len(self.ops))))
        for op in self.ops:
            self.assertTrue(op.doc, op.name)
            if op.kind == "kernel":
                self.assertTrue(op.meta, f"kernel op {op.name} needs a meta")
            if op.kind == "view":
                self.assertFalse(op.meta, f"view op {op.name} must not have a meta")
        for required in ("add", "matmul", "sum", "reshape", "copy_", "where"):
            self.assertIn(required, names)

    def test_hashes_are_distinct(self):
        hashes = [op.hash for op in self.ops]
        self.assertEqual(len(hashes), len(set(hashes)))

    def test_main_exits_1_with_file_line_reason(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "ops.yaml")
            with open(bad, "w", encoding="utf-8") as f:
                f.write(PRELUDE + "- op: abs(Tensr self) -> Tensor\n  meta: unary\n  doc: x\n")
            r = subprocess.run([sys.executable, os.path.join(CODEGEN, "main.py"), "--schema", bad,
                                "--out", os.path.join(d, "out")],
                               capture_output=True, text=True, check=False)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn(f"{bad}:{FIRST_LINE}: unknown type 'Tensr'", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "out")), "nothing is written")


class SchemaHash(SchemaTestCase):
    def test_fnv1a64_reference_vectors(self):
        # The published FNV-1a 64-bit test vectors: plugins compare this hash across builds.
        self.assertEqual(schema.fnv1a64(""), 0xCBF29CE484222325)
        self.assertEqual(schema.fnv1a64("a"), 0xAF63DC4C8601EC8C)
        self.assertEqual(schema.fnv1a64("foobar"), 0x85944171F73967E8)

    def _hashes(self, text: str) -> dict[str, int]:
        return {op.name: op.hash for op in schema.load(self.write(text, "h.yaml"))}

    def test_hash_ignores_runs_of_whitespace_and_layout(self):
        with open(OPS_YAML, encoding="utf-8") as f:
            original = f.read()
        base = self._hashes(original)
        # Double every space inside signatures, pad them with spaces, and shift every
        # entry down by blank lines and comments: no signature hash may change.
        lines = []
        for line in original.splitlines():
            m = re.match(r"^- op: (.*)$", line)
            if m:
                sig = m.group(1).replace(" ", "  ")  # (PyYAML ends a plain scalar at a tab)
                lines += ["", "# moved", f"- op:   {sig}   "]
            else:
                lines.append(line)
        self.assertEqual(self._hashes("\n".join(lines) + "\n"), base)

    def test_hash_ignores_folded_multiline_signature(self):
        one = self._hashes(PRELUDE + "- op: add(Tensor self, Tensor other, *, Scalar alpha=1)"
                           " -> Tensor\n  meta: binary\n  doc: Add.\n")
        folded = self._hashes(PRELUDE + "- op: >-\n    add(Tensor self,\n    Tensor other, *,\n"
                              "    Scalar alpha=1) -> Tensor\n  meta: binary\n  doc: Add.\n")
        self.assertEqual(one, folded)

    def test_hash_ignores_space_around_punctuation(self):
        # Removing the optional space after a comma or adding one inside the parentheses is
        # a whitespace change: a plugin built against the other spelling must still match.
        ref = self._hashes(PRELUDE + "- op: add(Tensor self, Tensor other, *, Scalar alpha=1) -> "
                           "Tensor\n  meta: binary\n  doc: Add.\n")["add"]
        for sig in ("add(Tensor self,Tensor other,*,Scalar alpha=1) -> Tensor",
                    "add( Tensor self, Tensor other, *, Scalar alpha=1 ) -> Tensor",
                    "add(Tensor self, Tensor other, *, Scalar alpha=1)->Tensor"):
            with self.subTest(sig=sig):
                got = self._hashes(PRELUDE + f"- op: {sig}\n  meta: binary\n  doc: Add.\n")
                self.assertEqual(got["add"], ref)

    def test_hash_changes_with_the_signature(self):
        a = self._hashes(PRELUDE + "- op: foo(Tensor self, int n=1) -> Tensor\n  meta: u\n"
                         "  doc: x\n")["foo"]
        for sig in ("foo(Tensor self, int n=2) -> Tensor", "foo(Tensor self, int m=1) -> Tensor",
                    "foo(Tensor self, float n=1) -> Tensor",
                    "foo(Tensor self, *, int n=1) -> Tensor"):
            with self.subTest(sig=sig):
                b = self._hashes(PRELUDE + f"- op: {sig}\n  meta: u\n  doc: x\n")["foo"]
                self.assertNotEqual(a, b)

    def test_hash_ignores_doc_and_line(self):
        a = self._hashes(PRELUDE + "- op: foo(Tensor self) -> Tensor\n  meta: u\n  doc: x\n")
        b = self._hashes("\n\n" + PRELUDE + "- op: foo(Tensor self) -> Tensor\n  meta: u\n"
                         "  doc: another text\n  tags: [pointwise]\n")
        self.assertEqual(a, b)


def _generated_dir() -> str | None:
    d = os.environ.get("KF_GENERATED_DIR")
    return d if d and os.path.isfile(os.path.join(d, "include", "kernforge", "kernforge_ops.h")) \
        else None


class GeneratedCode(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.ops = schema.load(OPS_YAML)
        cls.header = gen_c.header(cls.ops)

    def _headers(self) -> list[tuple[str, str]]:
        """(label, text) of the header generated here and, when built, the build's copy."""
        out = [("generated now", self.header)]
        gen = _generated_dir()
        if gen:
            with open(os.path.join(gen, "include", "kernforge", "kernforge_ops.h"),
                      encoding="utf-8") as f:
                out.append(("build tree", f.read()))
        return out

    def test_every_out_variant_is_declared(self):
        for label, text in self._headers():
            declared = set(re.findall(r"KF_API kf_status_t (kf_\w+)\(", text))
            for op in self.ops:
                with self.subTest(op=op.name, header=label):
                    if op.inplace_only:
                        self.assertIn(f"kf_{op.name}", declared)
                        continue
                    self.assertIn(f"kf_{op.name}", declared)
                    self.assertEqual(f"kf_{op.name}_out" in declared, "out" in op.variants)
                    self.assertEqual(f"kf_{op.name}_" in declared, "inplace" in op.variants)

    def test_out_variant_takes_an_existing_tensor_last(self):
        for op in self.ops:
            if "out" not in op.variants or op.inplace_only:
                continue
            m = re.search(rf"kf_{op.name}_out\(([^)]*)\);", self.header)
            self.assertIsNotNone(m, op.name)
            last = m.group(1).split(",")[-1].strip()
            self.assertRegex(last, r"^kf_tensor_t out\d*$", op.name)

    def test_build_tree_header_is_up_to_date(self):
        gen = _generated_dir()
        if not gen:
            self.skipTest("KF_GENERATED_DIR is not set or not built")
        self.assertEqual(self._headers()[1][1], self.header,
                         "the build's kernforge_ops.h differs from what ops.yaml generates now")

    def test_c_header_compiles_as_c99(self):
        cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("cc")
        if not cc:
            self.skipTest("no C compiler (cc) on PATH")
        for label, text in self._headers():
            with self.subTest(header=label), tempfile.TemporaryDirectory() as d:
                inc = os.path.join(d, "include")
                os.makedirs(os.path.join(inc, "kernforge"))
                with open(os.path.join(inc, "kernforge", "kernforge_ops.h"), "w",
                          encoding="utf-8") as f:
                    f.write(text)
                with open(os.path.join(inc, "kernforge", "kernforge_arg_kinds.h"), "w",
                          encoding="utf-8") as f:
                    f.write(gen_kinds.c_header())
                src = os.path.join(d, "use.c")
                with open(src, "w", encoding="utf-8") as f:
                    f.write('#include "kernforge/kernforge.h"\n'
                            "int main(void) { kf_tensor_t out = NULL; kf_arg_kind_t k = "
                            "KF_ARG_KIND_INT_LIST; (void)out;\n"
                            "  return (int)k == KF_VALUE_INT_LIST ? 0 : 1; }\n")
                r = subprocess.run([cc, "-fsyntax-only", "-std=c99", "-pedantic-errors", "-Wall",
                                    "-Wextra", "-Werror",
                                    "-I", os.path.join(ROOT, "runtime", "include"),
                                    "-I", os.path.join(ROOT, "plugin_sdk", "include"),
                                    "-I", inc, src], capture_output=True, text=True, check=False)
                self.assertEqual(r.returncode, 0, r.stderr)

    def test_docs_list_every_op(self):
        md = gen_docs.ops_md(self.ops)
        for op in self.ops:
            self.assertIn(f"### `{op.name}`", md)
        self.assertIn(f"{len(self.ops)} ops.", md)



class ArrayApiSpellings(SchemaTestCase):
    """The `array_api:` field: the standard's signature, matched with the op's arguments."""

    OP = """\
        - op: sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
          meta: reduce_sum
          array_api: {}
          doc: Sum.
        """

    def test_a_spelling_generates_the_standards_function(self):
        ops = self.load_text(self.OP.format("sum(x, /, *, axis=None, dtype=None, keepdims=False)"))
        spelling = ops[-1].array_api
        self.assertEqual(spelling.name, "sum")
        self.assertEqual(spelling.params, {"x": "self", "axis": "dim", "dtype": "dtype",
                                           "keepdims": "keepdim"})
        text = gen_python.module(ops)
        namespace: dict = {}
        exec(compile(text, "_array_api_ops.py", "exec"), namespace)  # noqa: S102 - our output
        calls = []

        class Ops:
            def sum(self, *args, **kwargs):
                calls.append((args, kwargs))
                return "result"

        namespace["bind"](Ops())
        self.assertEqual(namespace["FUNCTIONS"]["sum"]("t", axis=1, keepdims=True), "result")
        self.assertEqual(calls, [(("t", (1,), True), {"dtype": None})])
        namespace["sum"]("t")
        self.assertEqual(calls[-1], (("t", None, False), {"dtype": None}))

    def test_a_skipped_positional_argument_passes_its_default(self):
        ops = self.load_text(self.OP.format("sum(x, /, *, dtype=None)"))
        self.assertIn("return _ops.sum(x, dtype=dtype)", gen_python.module(ops))
        ops = self.load_text(self.OP.format("sum(x, /, *, keepdims=False)"))
        self.assertIn("return _ops.sum(x, None, keepdims)", gen_python.module(ops))

    def test_bad_spellings_are_refused_naming_the_problem(self):
        line = FIRST_LINE
        self.assert_rejected(self.OP.format("sum(x, /, *, axes=None)"), line,
                             "parameter 'axes'", "'dims'", "does not have")
        self.assert_rejected(self.OP.format("sum(*, axis=None)"), line, "leaves out 'self'")
        self.assert_rejected(self.OP.format("sum(x, self)"), line, "two parameters are 'self'")
        self.assert_rejected(self.OP.format("sum(x, /, *args)"), line, "only plain parameters")
        self.assert_rejected(self.OP.format("'sum(x'"), line, "not a Python signature")

    TWO = """\
        - op: linalg_pair(Tensor self, bool full=True) -> (Tensor, Tensor)
          meta: linalg_qr
          array_api: {}
          doc: Two results.
        """

    def test_an_extensions_function_returns_the_standards_named_tuple(self):
        ops = self.load_text(self.TWO.format("linalg.pair(x, /, *, full=True) -> PairResult(a, b)"))
        spelling = ops[-1].array_api
        self.assertEqual((spelling.extension, spelling.name, spelling.qualified),
                         ("linalg", "pair", "linalg.pair"))
        self.assertEqual(spelling.result, ("PairResult", ["a", "b"]))
        namespace: dict = {}
        exec(compile(gen_python.module(ops), "_array_api_ops.py", "exec"), namespace)  # noqa: S102

        class Ops:
            def linalg_pair(self, x, full):
                return (x, full)

        namespace["bind"](Ops())
        self.assertNotIn("pair", namespace["FUNCTIONS"])
        pair = namespace["EXTENSIONS"]["linalg"]["pair"]
        self.assertEqual(pair.__name__, "pair")
        result = pair("t", full=False)
        self.assertEqual((result.a, result.b), ("t", False))
        self.assertEqual(type(result).__name__, "PairResult")

    def test_bad_extensions_and_results_are_refused(self):
        line = FIRST_LINE
        self.assert_rejected(self.TWO.format("linalg.pair(x, /)"), line, "returns 2 tensors",
                             "-> Name(field, ...)")
        self.assert_rejected(self.TWO.format("linalg.pair(x, /) -> P(a)"), line,
                             "one field per return (2)")
        self.assert_rejected(self.TWO.format("sparse.pair(x, /) -> P(a, b)"), line,
                             "'sparse' is not an extension")

    def test_the_core_schema_spells_the_standards_reductions(self):
        spelled = {op.array_api.name: op.name for op in schema.load(OPS_YAML) if op.array_api}
        self.assertEqual(spelled["max"], "amax")
        self.assertEqual(spelled["permute_dims"], "permute")
        self.assertIn("var", spelled)


class MultiOutputFormulas(SchemaTestCase):
    """derivatives.yaml's names for the outputs of an op with several: grad<k>, result<k>."""
    HEAD = textwrap.dedent("""\
        helpers:
          - pair_backward(Tensor? grad_a, Tensor? grad_b, Tensor b) -> Tensor
        derivatives:
          - {op: add, non_differentiable: true}
          - {op: neg, non_differentiable: true}
        """)

    def load_formulas(self, entry: str) -> derivatives.Table:
        ops = [op for op in schema.load(OPS_YAML) if op.name in ("linalg_eigh", "add", "neg")]
        text = self.HEAD + textwrap.indent(textwrap.dedent(entry), "  ")
        return derivatives.load(self.write(text, "d.yaml"), ops)

    def test_outputs_are_numbered_and_an_absent_gradient_is_none_or_zeros(self):
        table = self.load_formulas("""\
            - op: linalg_eigh
              non_differentiable_outputs: [0]
              self: add(pair_backward(grad0, grad1, result1), grad1)
            """)
        d = table.derivatives[0]
        self.assertEqual((d.saves_results, d.nondiff_outputs), ([1], [0]))
        code = gen_autograd.source(table)
        self.assertIn("helpers::pair_backward(in[0].get(), in[1].get(), n.result(1))", code)
        self.assertIn("n.grad_or_zeros(in, 1)", code)
        # saves output 1; output 0 not differentiable; complex dtypes too
        self.assertIn("0x2u, 0x1u, nullptr}", code)

    def test_real_only_gives_its_reason_to_the_table(self):
        table = self.load_formulas("""\
            - op: linalg_eigh
              real_only: "real \\"symmetric\\" only"
              self: neg(grad0)
            """)
        self.assertEqual(table.derivatives[0].real_only, 'real "symmetric" only')
        self.assertIn('0x0u, "real \\"symmetric\\" only"}', gen_autograd.source(table))
        with self.assertRaises(SchemaError) as cm:
            self.load_formulas("- {op: linalg_eigh, real_only: '', self: neg(grad0)}\n")
        self.assertIn("takes a reason", str(cm.exception))

    def test_bad_output_names_and_numbers_are_refused(self):
        for entry, words in [
                ("{op: linalg_eigh, self: 'neg(grad)'}", ["'grad'", "grad0, grad1"]),
                ("{op: linalg_eigh, self: 'neg(grad2)'}", ["'grad2'"]),
                ("{op: linalg_eigh, non_differentiable_outputs: [2], self: 'neg(grad0)'}",
                 ["non_differentiable_outputs", "below 2"]),
                ("{op: linalg_eigh, non_differentiable_outputs: [0, 1], self: 'neg(grad0)'}",
                 ["non_differentiable: true"])]:
            with self.subTest(entry=entry), self.assertRaises(SchemaError) as cm:
                self.load_formulas("- " + entry + "\n")
            for w in words:
                self.assertIn(w, str(cm.exception))


if __name__ == "__main__":
    unittest.main()
