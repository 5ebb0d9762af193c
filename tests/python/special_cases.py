"""The special cases of the array API standard's elementwise functions, read from the standard's
signature stubs (revision 2023.12, elementwise_functions.py): each bullet of a function's
"**Special cases**" section, such as "If ``x1_i`` is ``+0`` and ``x2_i`` is ``-0``, the result
is an implementation-dependent approximation to ``+π``.", becomes a Case that draws input values
satisfying the bullet's condition and checks a result against what the bullet says.

parse(folder) returns a Parsed: the cases by function, and the bullets (and the sentences that
state special cases without bullets) it could not read, each with why. The grammar is the stubs'
own wording, written out by hand below.

Conditions. A condition on one value is a Pred: a test and a few values to try ("greater than
``1``": 1.25, 1.5, 2, 3.5, 1e10, 1e30, 1e300, +infinity). A case's inputs are the combinations
of its variables' values that satisfy the whole condition once rounded to the dtype: 1e300 is
no finite float32, so float32 draws leave it out. The variables are the operands (x, x1, x2,
min, max) for real-valued cases and the components a = real(x1_i), b = imag(x1_i),
c = real(x2_i), d = imag(x2_i) for complex ones. A required operand a bullet does not mention
takes every value of ANY; an optional one (clip's min and max) is left out of the call.
Bullets before a section's first "For ..." line (ceil's "If ``x_i`` is already
integer-valued") are real-valued ones.

How bullets are read together. Each bullet holds for every input its condition admits, also
where an earlier bullet's condition admits it too (multiply's "a signed infinity with the
mathematical sign determined by the rule already stated above" relies on that); the stubs'
few contradictions are the test's to list. "In the remaining cases" admits what no earlier
bullet of its section admits. A precondition on a "For ..." line (copysign's "and if ``x1_i``
is not ``NaN``,") applies to the bullets that do not mention that operand.

Results. Signed zeros are checked by sign (math.copysign), NaN by isnan, multiples of π (and
"an implementation-dependent approximation to" anything) with a relative tolerance of 16 ulp of
the dtype. A sign the bullet calls unspecified (the "±" of "NaN ± infinity j", or "(sign of the
real component is unspecified)") is not checked, nor is the sign of an unsigned zero or
infinity ("0 + 0j", "infinity + NaN j"); "1 + 0j" asks for +0, "π/2 - 0j" for -0. A result a
note lets libraries return instead (floor_divide's "libraries may return ``NaN`` to match
Python behavior") is accepted too.

Sentences that delegate ("special cases must be handled as if the operation is implemented as
``cosh(x*1j)``", "... as ``-1j * sinh(x*1j)``", "... as ``x * x``", "... using the standard
change of base formula") yield the delegate's cases read through the expression, keyed
"via EXPR: BULLET"; those no input can reach (x * x is never +infinity times +0) are listed in
Parsed.skipped.
"""

import ast
import itertools
import math
import pathlib
import re
import struct
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

NAN = math.nan
NEG_NAN = math.copysign(math.nan, -1.0)
INF = math.inf

# Values an unconstrained variable takes; SMALL_ANY when a case has more than two such.
ANY = (NAN, NEG_NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 2.5, -3.25, 1e10,
       -1e30, 1e300, -1e300)
SMALL_ANY = (NAN, INF, -INF, 0.0, -0.0, 1.0, -2.5)
MAX_INPUTS = 200  # per case and dtype

REAL_DTYPES = ("float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")


class Unparsed(Exception):
    """A bullet (or sentence) the grammar below does not cover; the message says why."""


# --- values ----------------------------------------------------------------------------------

def isnan(v):
    return v != v


def signbit(v):
    return math.copysign(1.0, v) < 0


def is_integer(v):
    return math.isfinite(v) and v == math.floor(v)


def is_odd(v):
    return is_integer(v) and math.fmod(v, 2.0) != 0


def _bits(v):
    """A hashable key that tells -0 from +0 and NaN's sign apart (None for a left-out operand)."""
    if v is None:
        return None
    if isinstance(v, complex):
        return _bits(v.real), _bits(v.imag)
    return struct.pack("<d", v)


def _unique(values):
    seen, out = set(), []
    for v in values:
        k = _bits(v) if not isinstance(v, tuple) else tuple(map(_bits, v))
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out


def round_to(v, bits):
    """v as the nearest value of the float type of `bits` (32 or 64), as a Python float."""
    if v is None or bits == 64:
        return v
    with np.errstate(over="ignore"):
        return float(np.float32(v))


def tolerance(bits):
    return 16 * (2.0 ** -23 if bits == 32 else 2.0 ** -52)


@dataclass(frozen=True)
class Pred:
    """A condition on one value: a test, and values to try (those failing the test are dropped)."""
    test: Callable
    examples: tuple

    def __and__(self, other):
        return Pred(lambda v: self.test(v) and other.test(v), self.examples + other.examples)

    def __or__(self, other):
        return Pred(lambda v: self.test(v) or other.test(v), self.examples + other.examples)

    def __invert__(self):
        return Pred(lambda v: not self.test(v), ANY)

    def values(self):
        return _unique(v for v in self.examples if self.test(v)) or \
            _unique(v for v in ANY if self.test(v))


_POS = (0.5, 1.0, 3.25, 1e10, 1e30, 1e300)
_NEG = tuple(-v for v in _POS)
_INTS = (0.0, -0.0, 1.0, -1.0, 2.0, -3.0, 4.0, 5.0, -7.0, 1e10, -1e30, 2.0 ** 53 + 2)
_ODD = (1.0, -1.0, 3.0, -3.0, 5.0, -7.0, 16777215.0, -(2.0 ** 53 - 1))
_HALVES = (0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 4.5, -1048576.5, 2.0 ** 52 - 0.5)

ANY_VALUE = Pred(lambda v: True, ANY)
FINITE = Pred(math.isfinite, (0.0, -0.0) + _POS + _NEG)
PHRASES = {
    "any value": ANY_VALUE,
    "a finite number": FINITE,
    "a nonzero finite number": Pred(lambda v: math.isfinite(v) and v != 0, _POS + _NEG),
    "a positive finite number": Pred(lambda v: math.isfinite(v) and v > 0, _POS),
    "a negative finite number": Pred(lambda v: math.isfinite(v) and v < 0, _NEG),
    "a nonzero number": Pred(lambda v: v != 0 and not isnan(v), _POS + _NEG + (INF, -INF)),
    "an integer value": Pred(is_integer, _INTS),
    "already integer-valued": Pred(is_integer, _INTS),
    "an odd integer value": Pred(is_odd, _ODD),
}
HALF_INTEGER = Pred(lambda v: math.isfinite(v) and v - math.floor(v) == 0.5, _HALVES)


def _number(token):
    """A real value written in the stubs: 1, -1, +0, -0, +infinity, infinity, NaN."""
    sign = -1.0 if token.startswith("-") else 1.0
    body = token.lstrip("+-")
    if body == "infinity":
        return math.copysign(INF, sign)
    if body == "NaN":
        return NAN
    try:
        return math.copysign(float(body), sign)
    except ValueError:
        raise Unparsed(f"not a number: {token!r}") from None


def _literal(token):
    """The Pred of ``TOKEN``: NaN, +0, -0 (sign checked), 0 (either zero), +infinity, 1, ..."""
    if token == "NaN":
        return Pred(isnan, (NAN, NEG_NAN))
    v = _number(token)
    if v == 0 and token[0] not in "+-":
        return Pred(lambda x: x == 0, (0.0, -0.0))
    return Pred(lambda x: x == v and signbit(x) == signbit(v), (v,))


def _bound(op, n):
    if op == "greater":
        return Pred(lambda v: v > n, (n + 0.25, n + 0.5, n + 1, n + 2.5, 1e10, 1e30, 1e300, INF))
    return Pred(lambda v: v < n, (n - 0.25, n - 0.5, n - 1, n - 2.5, -1e10, -1e30, -1e300, -INF))


def parse_pred(text):
    """The Pred of what follows "is" in a condition ("either ``+0`` or ``-0``", "greater than
    ``1``", "a positive (i.e., greater than ``0``) finite number", "not ``NaN``", ...)."""
    text = re.sub(r" \(i\.e\., [^)]*\)", "", text)
    text = re.sub(r"(,| \() ?including ``NaN``\)?$", "", text).strip()
    if text.startswith("either "):
        text = text[len("either "):]
    parts = text.split(" or ")
    if len(parts) > 1:
        pred = parse_pred(parts[0])
        for p in parts[1:]:
            pred = pred | parse_pred(p)
        return pred
    if text.startswith("not "):
        return ~parse_pred(text[4:])
    if text in PHRASES:
        return PHRASES[text]
    m = re.fullmatch(r"``([^`]+)``", text)
    if m:
        return _literal(m.group(1))
    m = re.fullmatch(r"(greater|less) than ``([^`]+)``", text)
    if m:
        return _bound(m.group(1), _number(m.group(2)))
    m = re.fullmatch(r"equal to ``([^`]+)``", text)
    if m:
        n = _number(m.group(1))
        return Pred(lambda v: v == n, (n,))
    raise Unparsed(f"unknown condition {text!r}")


# --- conditions ------------------------------------------------------------------------------

_SUBJ = r"``(?:abs\()?(?:x_i|x1_i|x2_i|min_i|max_i|a|b|c|d)\)?``"


def _subject(text, variables):
    """The variable of ``x1_i``, ``a``, ``abs(x1_i)``: (name, abs taken)."""
    m = re.fullmatch(r"``(abs\()?(\w+?)(?:_i)?\)?``", text)
    if not m or m.group(2) not in variables:
        raise Unparsed(f"unknown operand {text} (the operands are {', '.join(variables)})")
    return m.group(2), bool(m.group(1))


class Condition:
    """What a bullet's condition asks of the variables: Preds by variable, relations between
    them (tests of the whole assignment), or a disjunction of such (`anyof`)."""

    def __init__(self, variables, optional=(), preds=None, relations=(), anyof=None):
        self.variables, self.optional = tuple(variables), tuple(optional)
        self.preds = dict(preds or {})
        self.relations = list(relations)
        self.anyof = anyof

    def mentions(self, var):
        if any(var in names for names, _ in self.relations):
            return True
        if self.anyof is not None:
            return any(c.mentions(var) for c in self.anyof)
        return var in self.preds

    def holds(self, env):
        if not all(test(env) for _, test in self.relations):
            return False
        if self.anyof is not None:
            return any(c.holds(env) for c in self.anyof)
        return all(p.test(env[v]) for v, p in self.preds.items())

    def constrain(self, var, pred):
        if self.anyof is not None:
            for c in self.anyof:
                c.constrain(var, pred)
        else:
            self.preds[var] = self.preds[var] & pred if var in self.preds else pred

    def assignments(self):
        """Assignments {variable: value} that satisfy the condition (at most MAX_INPUTS)."""
        if self.anyof is not None:
            found = [e for c in self.anyof for e in c.assignments() if self.holds(e)]
        else:
            free = [v for v in self.variables if v not in self.preds and v not in self.optional]
            pool = ANY if len(free) <= 2 else SMALL_ANY
            choices = [self.preds[v].values() if v in self.preds
                       else [None] if v in self.optional else list(pool)
                       for v in self.variables]
            found = [dict(zip(self.variables, combo)) for combo in itertools.product(*choices)]
            found = [e for e in found if self.holds(e)]
        found = _unique_envs(found, self.variables)
        step = max(1, -(-len(found) // MAX_INPUTS))  # every step-th, to keep MAX_INPUTS at most
        return found[::step]


def _unique_envs(envs, variables):
    seen, out = set(), []
    for e in envs:
        k = tuple(_bits(e[v]) for v in variables)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out


def _remaining(variables, optional, earlier):
    """"In the remaining cases": none of the section's earlier conditions holds."""
    earlier = list(earlier)
    return Condition(variables, optional, relations=[
        (variables, lambda e: not any(c.holds(e) for c in earlier))])


def _clause(text, variables):
    """One clause "``SUBJ`` is PRED" (also without "is", as in sqrt's "If ``a`` ``-infinity``"),
    "the sign bit of ``SUBJ`` is ``1``", "``x1_i`` equals ``x2_i``", "``x2_i`` is ``-x1_i``":
    ('pred', var, Pred) or ('relation', names, test)."""
    m = re.fullmatch(r"the sign bit of (``\w+``) is ``([01])``", text)
    if m:
        var, _ = _subject(m.group(1), variables)
        bit = m.group(2) == "1"
        return "pred", var, Pred(lambda v: signbit(v) == bit,
                                 (NEG_NAN, -0.0, -1.0, -INF) if bit else (NAN, 0.0, 1.0, INF))
    m = re.fullmatch(rf"({_SUBJ}) (equals|does not equal|is) ``(-?)(\w+)``", text)
    if m and m.group(4) in ("x1_i", "x2_i"):
        left, _ = _subject(m.group(1), variables)
        right, _ = _subject(f"``{m.group(4)}``", variables)
        sign = -1.0 if m.group(3) else 1.0
        same = m.group(2) != "does not equal"
        return "relation", (left, right), \
            lambda e: (e[left] == sign * e[right]) == same
    m = re.fullmatch(rf"({_SUBJ}) (?:is )?(.+)", text)
    if not m:
        raise Unparsed(f"unknown clause {text!r}")
    var, absolute = _subject(m.group(1), variables)
    pred = parse_pred(m.group(2))
    if absolute:
        pred = Pred(lambda v, p=pred: p.test(abs(v)), pred.examples +
                    tuple(-e for e in pred.examples))
    return "pred", var, pred


def _conjunction(clauses, variables, optional):
    cond = Condition(variables, optional)
    for text in clauses:
        kind, what, test = _clause(text, variables)
        if kind == "pred":
            cond.constrain(what, test)
        else:
            cond.relations.append((what, test))
    return cond


_SIGNS = {"the same mathematical sign": True, "different mathematical signs": False}


def parse_condition(text, variables, optional=()):
    """The Condition of the text between "If " and ", the result"."""
    subjects = rf"((?:{_SUBJ}(?:, or |, and |, | or | and ))+{_SUBJ})"
    m = re.fullmatch(rf"(?:either )?{subjects} (is|are all) (.+)", text)
    if m:  # "either ``x1_i`` or ``x2_i`` is ``NaN``", "``a``, ``b``, ``c``, and ``d`` are all"
        names = [_subject(s, variables)[0] for s in re.findall(_SUBJ, m.group(1))]
        pred = parse_pred(m.group(3))
        if m.group(2) == "are all" or " and " in m.group(1):
            return Condition(variables, optional, {n: pred for n in names})
        return Condition(variables, optional,
                         anyof=[Condition(variables, optional, {n: pred}) for n in names])
    m = re.fullmatch(rf"({_SUBJ}) and ({_SUBJ}) have ({'|'.join(_SIGNS)})"
                     r"(?: and are both (.+)s)?", text)
    if m:  # "... have the same mathematical sign and are both nonzero finite numbers"
        left, right = (_subject(m.group(i), variables)[0] for i in (1, 2))
        same = _SIGNS[m.group(3)]
        preds = {}
        if m.group(4):
            pred = parse_pred(f"a {m.group(4)}")
            preds = {left: pred, right: pred}

        def signs(e):
            u, v = e[left], e[right]
            return not (isnan(u) or isnan(v)) and (signbit(u) == signbit(v)) == same
        return Condition(variables, optional, preds, [((left, right), signs)])
    if text == "two integers are equally close to ``x_i``":
        return Condition(variables, optional, {"x": HALF_INTEGER})
    disjuncts = re.split(rf" or (?={_SUBJ})", text)
    conds = [_conjunction(re.split(rf"(?:,? and |, )(?=(?:the sign bit of )?{_SUBJ})", d),
                          variables, optional) for d in disjuncts]
    return conds[0] if len(conds) == 1 else Condition(variables, optional, anyof=conds)


# --- results ---------------------------------------------------------------------------------

def _same_value(r, expected):
    """r is expected: NaN for NaN, zeros by sign, otherwise equal."""
    if isnan(expected):
        return isnan(r)
    return r == expected and signbit(r) == signbit(expected)


@dataclass(frozen=True)
class Value:
    """One real value a bullet gives: NaN, a signed or unsigned zero or infinity, a number, or a
    multiple of π (approximate); sign '+', '-' or '' / '±' (not checked for zeros, infinities,
    π multiples and NaN)."""
    text: str
    magnitude: float
    sign: str
    approximate: bool

    def check(self, r, tol):
        if not isinstance(r, float):
            return f"expected a real floating-point value, got {r!r}"
        return None if self._holds(r, tol) else f"expected {self.text}"

    def _holds(self, r, tol):
        m = self.magnitude
        if isnan(m) or isnan(r):
            return isnan(m) and isnan(r)
        if (self.sign == "+" and signbit(r)) or (self.sign == "-" and not signbit(r)):
            return False
        if self.approximate:
            return math.isclose(abs(r), m, rel_tol=tol)
        return abs(r) == m


def parse_value(token, approximate=False, sign=None):
    """The Value of ``TOKEN``: "+π/2", "-3π/4", "π", "+0", "0", "infinity", "-1", "NaN"."""
    s = token[0] if token[0] in "+-±" else ""
    body = token[len(s):]
    if sign is not None:
        s, token = sign, sign + body
    m = re.fullmatch(r"(\d*)π(?:/(\d+))?", body)
    if m:
        magnitude = int(m.group(1) or 1) * math.pi / int(m.group(2) or 1)
        return Value(token, magnitude, s or "+", True)
    if body == "NaN":
        return Value(token, NAN, "", False)
    magnitude = abs(_number(body))
    if magnitude not in (0, INF) and s == "":
        s = "+"
    return Value(token, magnitude, s, approximate)


def _check_bool(expected):
    def check(r, env, tol):
        if not isinstance(r, bool):
            return f"expected a bool, got {r!r}"
        return None if r == expected else f"expected {expected}"
    return check


def _check_real(value):
    return lambda r, env, tol: value.check(r, tol)


def _check_complex(re_value, im_value):
    def check(r, env, tol):
        if not isinstance(r, complex):
            return f"expected a complex value, got {r!r}"
        for part, value, got in (("real", re_value, r.real), ("imaginary", im_value, r.imag)):
            if value is not None and value.check(got, tol):
                return f"{part} component: {value.check(got, tol)}"
        return None
    return check


def _check_exact(expected_of, what):
    def check(r, env, tol):
        expected = expected_of(env)
        if isinstance(expected, complex):
            ok = isinstance(r, complex) and _same_value(r.real, expected.real) and \
                _same_value(r.imag, expected.imag)
        else:
            ok = isinstance(r, float) and _same_value(r, expected)
        return None if ok else f"expected {what} = {expected!r}"
    return check


def _cis(scale, minus_one):
    """"+infinity * cis(b)", "+0 * cis(b) - 1.0": the components have the signs of cos(b) and
    sin(b) (b finite, so neither is an exact zero unless b is)."""
    def expected(env):
        b = env["b"]
        re_ = math.copysign(scale, math.cos(b)) - (1.0 if minus_one else 0.0)
        return complex(re_, math.copysign(scale, math.sin(b)))
    return expected


def _complex_result(text, flags):
    """"π/2 - 0j", "NaN ± infinity j", "+0 + πj/2", "+infinity * cis(b)", "0 + 0j"."""
    m = re.fullmatch(r"(\S+) \* cis\(b\)( - 1\.0)?", text)
    if m:
        scale = abs(_number(m.group(1)))
        return _check_exact(_cis(scale, bool(m.group(2))), text)
    m = re.fullmatch(r"(\S+) ([+\-±]) (.+)", text)
    if not m or "j" not in m.group(3):
        raise Unparsed(f"unknown complex result {text!r}")
    re_sign = "±" if "real" in flags else None
    im_sign = "±" if "imaginary" in flags else m.group(2)
    im = m.group(3).replace(" ", "").replace("j", "")
    return _check_complex(parse_value(m.group(1), sign=re_sign),
                          parse_value(im, sign=im_sign))


def _operand(name):
    return {"x_i": "x", "x1_i": "x1", "x2_i": "x2"}.get(name, name)


def _real_only(check):
    """check, for a result that must be a real floating-point value."""
    def checked(r, env, tol):
        if not isinstance(r, float):
            return f"expected a real floating-point value, got {r!r}"
        return check(r, env, tol)
    return checked


def _positive_sign(negative, nan_ok):
    @_real_only
    def check(r, env, tol):
        if isnan(r):
            return None if nan_ok else "expected a signed value, got NaN"
        return None if signbit(r) == negative else \
            f"expected a {'negative' if negative else 'positive'} sign"
    return check


@_real_only
def _signed_infinity(r, env, tol):
    expected = math.copysign(INF, math.copysign(1, env["x1"]) * math.copysign(1, env["x2"]))
    return None if r == expected else f"expected {expected}"


@_real_only
def _even_integer(r, env, tol):
    x = env["x"]
    lo = math.floor(x)
    expected = lo if math.fmod(lo, 2) == 0 else lo + 1
    return None if r == expected else f"expected {expected}"


@_real_only
def _python_mod(r, env, tol):
    expected = env["x1"] % env["x2"]
    ok = math.isclose(r, expected, rel_tol=tol) and (r != 0 or signbit(r) == signbit(expected))
    return None if ok else f"expected {env['x1']!r} % {env['x2']!r} = {expected!r}"


_LOGIC = {"AND": all, "OR": any}
_COMPARE = {"==": lambda u, v: u == v, "!=": lambda u, v: u != v}


def _logic(text):
    """"a == c AND b == d" (equal's and not_equal's complex remaining cases)."""
    m = re.fullmatch(r"(\w) (==|!=) (\w) (AND|OR) (\w) (==|!=) (\w)", text)
    if not m:
        raise Unparsed(f"unknown expression {text!r}")
    u1, op1, v1, how, u2, op2, v2 = m.groups()
    return lambda r, env, tol: _check_bool(_LOGIC[how](
        [_COMPARE[op1](env[u1], env[v1]), _COMPARE[op2](env[u2], env[v2])]))(r, env, tol)


def parse_result(text):
    """A check(result, env, tol) -> None or what is wrong, from the words after "the result"."""
    alternatives = []
    m = re.search(r"\s*\(\*\*note\*\*: libraries may return ``([^`]+)`` to match Python "
                  r"behavior\.\)$", text)
    if m:  # floor_divide: the note allows Python's result too
        alternatives.append(m.group(1))
    text = re.sub(r"\s*\(\*\*note\*\*:.*\)$", "", text).rstrip(".")
    flags = ""
    m = re.search(r" \((signs?) of (.*) (?:is|are) unspecified\)$", text)
    if m:
        flags = m.group(2)
        text = text[:m.start()]
    text = re.sub(r", even if ``\w+`` is ``NaN``$", "", text)
    check = _parse_result_core(text, flags)
    if not alternatives:
        return check
    others = [_parse_result_core(f"is ``{a}``", "") for a in alternatives]

    def either(r, env, tol):
        wrong = check(r, env, tol)
        if wrong and all(o(r, env, tol) for o in others):
            return f"{wrong} (or {', '.join(alternatives)})"
        return None
    return either


def _parse_result_core(text, flags):
    m = re.fullmatch(r"has a (positive|negative) mathematical sign(, unless the result is "
                     r"``NaN``\..*)?", text)
    if m:
        return _positive_sign(m.group(1) == "negative", bool(m.group(2)))
    if not text.startswith("is "):
        raise Unparsed(f"unknown result {text!r}")
    text = text[3:]
    m = re.fullmatch(r"an implementation-dependent approximation to ``([^`]+)``", text)
    if m:
        return _check_real(parse_value(m.group(1), approximate=True))
    m = re.fullmatch(r"``NaN`` with a sign bit of ``([01])``", text)
    if m:
        bit = m.group(1) == "1"
        return _real_only(lambda r, env, tol: None if isnan(r) and signbit(r) == bit
                          else f"expected NaN with sign bit {int(bit)}")
    m = re.fullmatch(r"(?:equal|equivalent) to ``abs\((\w+)\)``", text)
    if m:
        name = _operand(m.group(1))
        return _check_exact(lambda env: abs(env[name]), f"abs({m.group(1)})")
    if text == ("a signed infinity with the mathematical sign determined by the rule already "
                "stated above"):
        return _signed_infinity
    if text == "the even integer closest to ``x_i``":
        return _even_integer
    m = re.fullmatch(r"the logical (?:AND|OR) of .* \(i\.e\., ``([^`]+)``\)", text)
    if m:
        return _logic(m.group(1))
    m = re.fullmatch(r"(?:the same as )?``([^`]+)``", text)
    if not m:
        raise Unparsed(f"unknown result {text!r}")
    token = m.group(1)
    if token in ("True", "False"):
        return _check_bool(token == "True")
    m = re.fullmatch(r"(-?)\|(x_i|x1_i|x2_i)\|", token)
    if m:
        name, negative = _operand(m.group(2)), bool(m.group(1))
        return _check_exact(lambda env: -abs(env[name]) if negative else abs(env[name]), token)
    if token in ("x_i", "x1_i", "x2_i"):
        name = _operand(token)
        return _check_exact(lambda env: env[name], token)
    if "j" in token or "cis(" in token:
        return _complex_result(token, flags)
    return _check_real(parse_value(token))


def _component_result(part, text):
    """"the real component of the result is ``-0``" (add's complex cases)."""
    m = re.fullmatch(r"``([^`]+)``", text.rstrip("."))
    if not m:
        raise Unparsed(f"unknown result {text!r}")
    value = parse_value(m.group(1))
    return _check_complex(value, None) if part == "real" else _check_complex(None, value)


# --- cases ---------------------------------------------------------------------------------

@dataclass
class Case:
    """One special case: `draw(bits)` gives inputs (a tuple of operand values per element, None
    for a left-out operand), `check(result, inputs, bits)` says what is wrong with a result (None
    when it holds), `accepts(inputs)` whether inputs meet the condition. `key` is the bullet,
    prefixed with "via EXPR: " for a delegated case."""
    function: str
    bullet: str
    kind: str                     # "real" or "complex"
    operands: tuple               # ("x",), ("x1", "x2"), ("x", "min", "max")
    draw: Callable
    check: Callable
    accepts: Optional[Callable] = None
    via: str = ""
    positional: int = 1           # operands passed by position; the others by keyword

    def arguments(self, columns):
        """(args, kwargs) of a call, from one column (or None, left out) per operand."""
        args = list(columns[:self.positional])
        kwargs = {o: c for o, c in zip(self.operands[self.positional:],
                                       columns[self.positional:]) if c is not None}
        return args, kwargs

    @property
    def key(self):
        return f"via {self.via}: {self.bullet}" if self.via else self.bullet

    @property
    def dtypes(self):
        return REAL_DTYPES if self.kind == "real" else COMPLEX_DTYPES


def _variables(kind, operands, optional):
    if kind == "real":
        return operands, optional
    return ("a", "b", "c", "d")[:2 * len(operands)], ()


_PARTS = (("a", "b"), ("c", "d"))


def _env(kind, operands, inputs):
    """The variables (and operands) of the operand values `inputs`."""
    env = dict(zip(operands, inputs))
    if kind == "complex":
        for (re_, im), z in zip(_PARTS, inputs):
            env[re_], env[im] = z.real, z.imag
    return env


def _inputs(kind, operands, env):
    if kind == "real":
        return tuple(env.get(o) for o in operands)
    return tuple(complex(env[re_], env[im]) for (re_, im), _ in zip(_PARTS, operands))


def _make_case(function, bullet, kind, operands, condition, check):
    cache = {}

    def draw(bits):
        if bits not in cache:
            drawn = []
            for env in condition.assignments():
                env = {v: round_to(x, bits) for v, x in env.items()}
                if condition.holds(env):
                    drawn.append(_inputs(kind, operands, env))
            cache[bits] = _unique(drawn)
        return cache[bits]

    def verify(result, inputs, bits):
        return check(result, _env(kind, operands, inputs), tolerance(bits))

    def accepts(inputs):
        return condition.holds(_env(kind, operands, inputs))
    return Case(function, bullet, kind, operands, draw, verify, accepts)


_NO_VALUE = {
    "must be computed and rounded": "the rounded arithmetic result, not a special value",
    "implementation dependent": "leaves the result implementation-dependent",
    "rules of complex number division": "refers to divide's rules, not to values",
}


def parse_bullet(function, bullet, kind, operands, optional, earlier, context):
    """(Case, Condition) of one bullet ("If ..., the result is ..."); raises Unparsed."""
    variables, opt = _variables(kind, operands, optional)
    text = re.sub(r"^Similarly, if ", "If ", bullet)
    m = re.fullmatch(r"In the remaining cases, the result (is (?:``\w+``|the logical .*)|must "
                     r"match that of the Python ``%`` operator)\.", text)
    if m:
        if any(c is None for c in earlier):
            raise Unparsed("an earlier bullet of its section is unparsed")
        condition = _remaining(variables, opt, earlier)
        check = _python_mod if "Python" in m.group(1) else parse_result(m.group(1))
        return _make_case(function, bullet, kind, operands, condition, check), condition
    if text.startswith("In the remaining cases"):
        for words, reason in _NO_VALUE.items():
            if words in text:
                raise Unparsed(reason)
        raise Unparsed("a remaining case the grammar does not cover")
    m = re.fullmatch(r"If (.+?), the (result|real component of the result|imaginary component "
                     r"of the result) (is|has) (.+)", text)
    if not m:
        raise Unparsed("not of the form 'If <condition>, the result is <value>'")
    condition = parse_condition(m.group(1), variables, opt)
    for var, pred in context:
        if not condition.mentions(var):
            condition.constrain(var, pred)
    if m.group(2) == "result":
        check = parse_result(f"{m.group(3)} {m.group(4)}")
    else:
        check = _component_result(m.group(2).split()[0], m.group(4))
    return _make_case(function, bullet, kind, operands, condition, check), condition


# --- delegation ------------------------------------------------------------------------------

def _rotate(z):
    """z * 1j, component-wise (no NaN from infinity * 0)."""
    return complex(-z.imag, z.real)


def _unrotate(z):
    """z / 1j = z * -1j, component-wise."""
    return complex(z.imag, -z.real)


def _delegated(function, source, via, draw, to_source, result_to_source=lambda r: r):
    """`source`'s case read through this function: f(x) = post(g(pre(x))). `draw` gives this
    function's inputs, to_source maps them to g's (pre), result_to_source maps f's result to
    g's (post's inverse), which the source's check judges."""
    def check(result, inputs, bits):
        return source.check(result_to_source(result), to_source(inputs), bits)
    return Case(function, source.bullet, source.kind, ("x",), draw, check, via=via)


def _times_1j_cases(function, expr, source, rotate_result):
    """f(x) = g(x*1j) or f(x) = -1j * g(x*1j): x = y / 1j for g's inputs y; g's result is
    f's times 1j (as -1j * r = R gives r = R * 1j)."""
    def draw(bits):
        return [(_unrotate(i[0]),) for i in source.draw(bits)]
    post = (lambda r: _rotate(r) if isinstance(r, complex) else r) if rotate_result else \
        (lambda r: r)
    return _delegated(function, source, expr, draw, lambda i: (_rotate(i[0]),), post)


def _square_case(function, expr, source):
    """f(x) = x * x: the values v with (v, v) meeting multiply's condition."""
    def draw(bits):
        pool = [v for inputs in source.draw(bits) for v in inputs]
        if source.kind == "real":
            pool += [round_to(v, bits) for v in ANY]
        return [(v,) for v in _unique(pool) if source.accepts((v, v))]
    return _delegated(function, source, expr, draw, lambda i: (i[0], i[0]))


def _change_of_base_case(function, expr, source, base):
    """f(x) = log(x) / log(base): g's result is f's times log(base)."""
    factor = math.log(base)

    def scaled(r):
        return complex(r.real * factor, r.imag * factor) if isinstance(r, complex) else r
    return _delegated(function, source, expr, source.draw, lambda i: i, scaled)


def _resolve(function, expr, kinds, operands, cases):
    """The cases of a delegating sentence, from the source function's own cases."""
    def sources(name):
        return [c for c in cases.get(name, []) if c.kind in kinds and not c.via]
    m = re.fullmatch(r"(-1j \* )?(\w+)\(x\*1j\)", expr)
    if m and operands == ("x",):
        return [_times_1j_cases(function, expr, c, bool(m.group(1))) for c in sources(m.group(2))]
    if expr == "x * x" and operands == ("x",):
        return [_square_case(function, expr, c) for c in sources("multiply")]
    m = re.fullmatch(r"log\(x\) / log\((\d+)\)", expr)
    if m and operands == ("x",):
        return [_change_of_base_case(function, expr, c, int(m.group(1))) for c in sources("log")]
    raise Unparsed(f"delegates to {expr!r}, which the parser does not model")


# --- the stubs -------------------------------------------------------------------------------

@dataclass
class Parsed:
    """cases: {function: [Case]}, for every function with a Special cases section;
    unparsed: [(function, text, reason)]; skipped: [(function, key)], delegated cases no input
    can reach (x * x is never +infinity times +0)."""
    cases: dict
    unparsed: list
    skipped: list


def _section(doc):
    """The lines of a docstring after its "**Special cases**" heading, or None."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if line.strip().lower() == "**special cases**":
            return lines[i + 1:]
    return None


def _signature(node):
    a = node.args
    operands = tuple(p.arg for p in a.posonlyargs + a.args)
    optional = operands[len(operands) - len(a.defaults):] if a.defaults else ()
    return operands, optional


_DELEGATION = re.compile(r"special cases (?:must|should) be handled as if the operation is "
                         r"implemented (?:as ``([^`]+)``|using the standard change of base "
                         r"formula)")


def parse(folder):
    """Parse <folder>/elementwise_functions.py."""
    path = pathlib.Path(folder) / "elementwise_functions.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cases, unparsed, delegations = {}, [], []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        lines = _section(ast.get_docstring(node) or "")
        if lines is None:
            continue
        cases[node.name] = _parse_function(node, lines, unparsed, delegations)
    skipped = []
    for function, expr, kinds, operands, sentence in delegations:
        try:
            derived = _resolve(function, expr, kinds, operands, cases)
        except Unparsed as e:
            unparsed.append((function, sentence, str(e)))
            continue
        for case in derived:
            if case.draw(64):
                cases[function].append(case)
            else:
                skipped.append((function, case.key))
    return Parsed(cases, unparsed, skipped)


def _parse_function(node, lines, unparsed, delegations):
    operands, optional = _signature(node)
    kind, context, earlier, out = "real", [], {"real": [], "complex": []}, []
    for i, line in enumerate(lines):
        if line.startswith("For "):
            kind = "complex" if line.startswith("For complex") else "real"
            try:
                context = _context(line, operands)
            except Unparsed as e:
                unparsed.append((node.name, line.strip(), str(e)))
                context = []
            m = _DELEGATION.search(line)
            if m:
                expr = m.group(1) or _change_of_base(lines[i + 1:])
                kinds = ("complex",) if kind == "complex" else ("real", "complex")
                delegations.append((node.name, expr, kinds, operands, line.strip()))
        elif re.match(r"-\s+", line):
            bullet = re.sub(r"^-\s+", "", line).strip()
            try:
                case, condition = parse_bullet(node.name, bullet, kind, operands, optional,
                                               earlier[kind], context)
            except Unparsed as e:
                unparsed.append((node.name, bullet, str(e)))
                earlier[kind].append(None)
                continue
            earlier[kind].append(condition)
            case.positional = len(operands) - len(optional)
            out.append(case)
    return out


def _context(line, operands):
    """A precondition of the lines after a "For ..." line ("and if ``x1_i`` is not ``NaN``,"):
    [(variable, Pred)], for the bullets that do not mention the variable."""
    m = re.search(r"if ``(\w+)_i`` is (.+),$", line)
    if not m or m.group(1) not in operands:
        return []
    return [(m.group(1), parse_pred(m.group(2)))]


def _change_of_base(lines):
    for line in lines:
        m = re.search(r"\\log_\{(\d+)\} x = \\frac\{\\log_\{e\} x\}\{\\log_\{e\} (\d+)\}", line)
        if m:
            return f"log(x) / log({m.group(2)})"
    return "change of base (formula not found)"
