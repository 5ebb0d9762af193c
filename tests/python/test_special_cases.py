"""The special cases of the array API standard's elementwise functions (revision 2023.12), read
from the standard's signature stubs by special_cases.py (its docstring says how).

- The parser covers the stubs: the bullets it cannot read are exactly UNPARSED below (so its
  coverage can only grow), every function with a Special cases section yields cases, and every
  case draws inputs for each of its dtypes.
- Every case holds for numpy 2.x (which implements the 2023.12 namespace), float32 and float64
  (complex64 and complex128 for complex cases): a check of the parser, but for
  NUMPY_DEVIATIONS, where numpy does not follow the standard.
- Every case holds for kernforge, but for KF_KNOWN_FAILURES; a function kernforge does not have
  yet is skipped, by name.

The stubs are read from KF_ARRAY_API_STUBS (the CMake cache variable of the same name), by
default the folder shared/array-api-2023.12 beside the repository; without them every test
skips and says why.
"""

import ast
import os
import pathlib

import numpy as np
import pytest

import special_cases as sc

_DEFAULT_STUBS = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / \
    "array-api-2023.12"
STUBS = pathlib.Path(os.environ.get("KF_ARRAY_API_STUBS") or _DEFAULT_STUBS)
HAVE_STUBS = (STUBS / "elementwise_functions.py").is_file()
PARSED = sc.parse(STUBS) if HAVE_STUBS else None
FUNCTIONS = sorted(PARSED.cases) if PARSED else ["(no stubs)"]

# The bullets (and delegating sentences) the parser does not read, with why: none of them names
# a special value to check. May only shrink: a bullet the parser learns to read fails the test
# until it is removed here.
_ROUNDED = "the rounded arithmetic result, not a special value"
UNPARSED = {
    ("add", "In the remaining cases, when neither ``infinity``, ``+0``, ``-0``, nor a ``NaN`` "
            "is involved, and the operands have the same mathematical sign or have different "
            "magnitudes, the sum must be computed and rounded to the nearest representable "
            "value according to IEEE 754-2019 and a supported round mode. If the magnitude is "
            "too large to represent, the operation overflows and the result is an `infinity` "
            "of appropriate mathematical sign."): _ROUNDED,
    ("divide", "In the remaining cases, where neither ``-infinity``, ``+0``, ``-0``, nor "
               "``NaN`` is involved, the quotient must be computed and rounded to the nearest "
               "representable value according to IEEE 754-2019 and a supported rounding mode. "
               "If the magnitude is too large to represent, the operation overflows and the "
               "result is an ``infinity`` of appropriate mathematical sign. If the magnitude is "
               "too small to represent, the operation underflows and the result is a zero of "
               "appropriate mathematical sign."): _ROUNDED,
    ("floor_divide", "In the remaining cases, where neither ``-infinity``, ``+0``, ``-0``, nor "
                     "``NaN`` is involved, the quotient must be computed and rounded to the "
                     "greatest (i.e., closest to `+infinity`) representable integer-value "
                     "number that is not greater than the division result. If the magnitude is "
                     "too large to represent, the operation overflows and the result is an "
                     "``infinity`` of appropriate mathematical sign. If the magnitude is too "
                     "small to represent, the operation underflows and the result is a zero of "
                     "appropriate mathematical sign."): _ROUNDED,
    ("multiply", "In the remaining cases, where neither ``infinity`` nor ``NaN`` is involved, "
                 "the product must be computed and rounded to the nearest representable value "
                 "according to IEEE 754-2019 and a supported rounding mode. If the magnitude is "
                 "too large to represent, the result is an `infinity` of appropriate "
                 "mathematical sign. If the magnitude is too small to represent, the result is "
                 "a zero of appropriate mathematical sign."): _ROUNDED,
    ("divide", "In the remaining cases, the result is implementation dependent."):
        "leaves the result implementation-dependent",
    ("multiply", "In the remaining cases, the result is implementation dependent."):
        "leaves the result implementation-dependent",
    ("sign", "In the remaining cases, special cases must be handled according to the rules of "
             "complex number division (see :func:`~array_api.divide`)."):
        "refers to divide's rules, not to values",
    ("hypot", "Underflow may only occur when both arguments are subnormal and the correct "
              "result is also subnormal."):
        "not of the form 'If <condition>, the result is <value>'",
    ("pow", "For complex floating-point operands, special cases should be handled as if the "
            "operation is implemented as ``exp(x2*log(x1))``."):
        "delegates to 'exp(x2*log(x1))', which the parser does not model",
}

# (function, case key): bullets the stubs get wrong, which no implementation is held to (not
# run against kernforge). numpy must fail them, as NUMPY_DEVIATIONS.
STANDARD_ERRATA = {
    ("not_equal", "In the remaining cases, the result is ``False``."):
        "the bullets before it leave out an infinity and a finite number, which are not equal",
    ("sqrt", "If ``a`` is ``NaN`` and ``b`` is any value, the result is ``NaN + NaN j``."):
        "b = ±infinity gives ±infinity + infinity j by the bullet for b = +infinity and the "
        "note sqrt(conj(x)) == conj(sqrt(x))",
}

# (function, case key): where numpy 2.x does not follow the standard. May only shrink: an entry
# numpy passes fails the test.
_NP_EXPM1 = "numpy's complex expm1 is exp(a)*cis(b) - 1 by formula, without special cases"
_NP_TANH = "numpy follows C99's ctanh: the imaginary zero has the sign of sin(2b)"
NUMPY_DEVIATIONS = {
    ("expm1", "If ``a`` is ``+infinity`` and ``b`` is ``+0``, the result is ``+infinity + 0j``."):
        _NP_EXPM1,
    ("expm1", "If ``a`` is ``+infinity`` and ``b`` is ``+infinity``, the result is ``infinity + "
              "NaN j`` (sign of real component is unspecified)."): _NP_EXPM1,
    ("expm1", "If ``a`` is ``+infinity`` and ``b`` is ``NaN``, the result is ``infinity + NaN "
              "j`` (sign of real component is unspecified)."): _NP_EXPM1,
    ("expm1", "If ``a`` is ``-infinity`` and ``b`` is ``+infinity``, the result is ``-1 + 0j`` "
              "(sign of imaginary component is unspecified)."): _NP_EXPM1,
    ("expm1", "If ``a`` is ``-infinity`` and ``b`` is ``NaN``, the result is ``-1 + 0j`` (sign "
              "of imaginary component is unspecified)."): _NP_EXPM1,
    ("expm1", "If ``a`` is ``-infinity`` and ``b`` is a finite number, the result is ``+0 * "
              "cis(b) - 1.0``."): _NP_EXPM1 + " (-0.9999999999999999 for large b)",
    ("expm1", "If ``a`` is ``NaN`` and ``b`` is ``+0``, the result is ``NaN + 0j``."):
        _NP_EXPM1,
    ("sign", "If ``a`` is ``NaN`` or ``b`` is ``NaN``, the result is ``NaN + NaN j``."):
        "numpy's complex sign is x/|x|, and |NaN ± infinity j| is infinity: sign is ±1j",
    ("tanh", "If ``a`` is ``+infinity`` and ``b`` is a positive (i.e., greater than ``0``) "
             "finite number, the result is ``1 + 0j``."): _NP_TANH,
    ("tan", "via -1j * tanh(x*1j): If ``a`` is ``+infinity`` and ``b`` is a positive (i.e., "
            "greater than ``0``) finite number, the result is ``1 + 0j``."): _NP_TANH,
}

# (function, dtype, case key): the cases kernforge fails. May only shrink: an entry that passes
# fails the test, as does a failure not listed. A dtype an op raises for fails all its cases
# (the message has the exception); the key "*" stands for every case of the function for that
# dtype, and each of them must fail (list the failing ones instead when one passes).
KF_KNOWN_FAILURES = set()


@pytest.fixture(scope="module")
def parsed():
    if PARSED is None:
        pytest.skip(f"the array API stubs are not at {str(STUBS)!r} (KF_ARRAY_API_STUBS, the "
                    "CMake cache variable of the same name)")
    return PARSED


def _functions_with_special_cases():
    tree = ast.parse((STUBS / "elementwise_functions.py").read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)
            and "**special cases**" in (ast.get_docstring(n) or "").lower()}


def test_parser_covers_the_stubs(parsed):
    unparsed = {(f, text): why for f, text, why in parsed.unparsed}
    assert unparsed == UNPARSED
    assert set(parsed.cases) == _functions_with_special_cases()
    assert [f for f, cases in parsed.cases.items() if not cases] == []
    drawless = [(c.function, dtype, c.key) for cases in parsed.cases.values() for c in cases
                for dtype in c.dtypes if not c.draw(_bits(dtype))]
    assert drawless == []


def _bits(dtype):
    return 32 if dtype in ("float32", "complex64") else 64


def _describe(inputs):
    return "(" + ", ".join("-" if v is None else repr(v) for v in inputs) + ")"


def failures(case, dtype, evaluate):
    """What is wrong with `case` for `dtype` (a list of lines, empty when it holds);
    evaluate(case, dtype, columns) gives the results as Python scalars."""
    bits = _bits(dtype)
    inputs = case.draw(bits)
    columns = [list(c) if c[0] is not None else None for c in zip(*inputs)]
    try:
        results = evaluate(case, dtype, columns)
    except Exception as e:  # an op or a dtype not supported: every input fails
        return [f"raised {type(e).__name__}: {e}"]
    wrong = []
    for i, r in zip(inputs, results):
        why = case.check(r, i, bits)
        if why:
            wrong.append(f"{case.function}{_describe(i)} = {r!r}: {why}")
    return wrong


def failing_cases(function, evaluate, skip=()):
    """{(dtype, key): message} of the cases of `function` that do not hold (but for those whose
    (function, key) is in `skip`)."""
    out = {}
    for case in PARSED.cases[function]:
        if (function, case.key) in skip:
            continue
        for dtype in case.dtypes:
            wrong = failures(case, dtype, evaluate)
            if wrong:
                more = f" (and {len(wrong) - 3} more)" if len(wrong) > 3 else ""
                out[dtype, case.key] = "; ".join(wrong[:3]) + more
    return out


def assert_only_known(failing, known, listed_in):
    """The failing cases ({key: message}) are exactly the known ones (a set of keys)."""
    unexpected = {k: v for k, v in failing.items() if k not in known}
    passing = sorted(known - set(failing))
    lines = [f"cases that fail (not in {listed_in}):"] * bool(unexpected)
    lines += [f"  {k}\n      {v}" for k, v in sorted(unexpected.items())]
    lines += [f"{listed_in} entries that pass (remove them):"] * bool(passing)
    lines += [f"  {k}" for k in passing]
    assert not lines, "\n".join(lines)


def evaluate_numpy(case, dtype, columns):
    arrays = [None if c is None else np.asarray(c, dtype=dtype) for c in columns]
    args, kwargs = case.arguments(arrays)
    with np.errstate(all="ignore"):
        return getattr(np, case.function)(*args, **kwargs).tolist()


@pytest.mark.parametrize("function", FUNCTIONS)
def test_cases_hold_for_numpy(parsed, function):
    failing = {}
    for (dtype, key), message in failing_cases(function, evaluate_numpy).items():
        failing.setdefault(key, []).append(f"{dtype}: {message}")
    known = {key for f, key in {**NUMPY_DEVIATIONS, **STANDARD_ERRATA} if f == function}
    assert_only_known({k: " | ".join(v) for k, v in failing.items()}, known,
                      "NUMPY_DEVIATIONS or STANDARD_ERRATA")


def evaluate_kernforge(kf):
    def evaluate(case, dtype, columns):
        arrays = [None if c is None else kf.asarray(c, dtype=getattr(kf, dtype))
                  for c in columns]
        args, kwargs = case.arguments(arrays)
        result = getattr(kf, case.function)(*args, **kwargs)
        return result.tolist() if hasattr(result, "tolist") else \
            np.asarray(result.numpy()).tolist()
    return evaluate


@pytest.mark.parametrize("function", FUNCTIONS)
def test_cases_hold_for_kernforge(parsed, function):
    kf = pytest.importorskip("kernforge")
    if not hasattr(kf, function):
        pytest.skip(f"kernforge has no {function} yet")
    failing = failing_cases(function, evaluate_kernforge(kf), skip=STANDARD_ERRATA)
    known = set()
    for f, dtype, key in KF_KNOWN_FAILURES:
        if f == function:
            known |= {(dtype, c.key) for c in PARSED.cases[function] if dtype in c.dtypes
                      and (f, c.key) not in STANDARD_ERRATA} if key == "*" else {(dtype, key)}
    assert_only_known(failing, known, "KF_KNOWN_FAILURES")
