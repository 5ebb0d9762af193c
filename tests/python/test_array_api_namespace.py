"""The array API namespace (revision 2023.12): __array_api_version__, __array_namespace_info__,
and every function the standard's signature stubs name, read from the stubs themselves."""

import ast
import inspect
import os
import pathlib
import sys

import pytest

import kernforge as kf

# The standard's functions kernforge does not have yet (the array API issue builds them). The
# list may only shrink: a name here that the namespace has fails the test, as does a name of the
# stubs the namespace lacks that is not here.
NOT_YET = frozenset()

# Stub modules that are not functions of the namespace: typing helpers, the array object and
# the dtype object (their methods), and the linalg and fft extensions (kf.linalg, kf.fft).
NOT_NAMESPACE = {"_types.py", "array_object.py", "data_types.py", "linalg.py", "fft.py",
                 "__init__.py"}
# Functions whose parameters still differ from the standard's (none now). May only shrink, like
# NOT_YET.
SIGNATURE_NOT_YET = frozenset()
STANDARD_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                   "uint64", "float32", "float64", "complex64", "complex128"}


_KINDS = {inspect.Parameter.POSITIONAL_ONLY: "positional-only",
          inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional or keyword",
          inspect.Parameter.VAR_POSITIONAL: "*args", inspect.Parameter.KEYWORD_ONLY: "keyword-only"}
_NO_DEFAULT = object()


def _literal(node):
    if node is None:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ast.unparse(node)


def stub_parameters(folder):
    """{function: [(name, kind, default)]} of every function the stubs define."""
    out = {}
    for path in sorted(folder.glob("*.py")):
        if path.name in NOT_NAMESPACE or path.name == "info.py":
            continue
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            a = node.args
            positional = a.posonlyargs + a.args
            defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
            params = [(p.arg, "positional-only" if i < len(a.posonlyargs)
                       else "positional or keyword", _literal(d))
                      for i, (p, d) in enumerate(zip(positional, defaults))]
            if a.vararg:
                params.append((a.vararg.arg, "*args", _NO_DEFAULT))
            params += [(p.arg, "keyword-only", _literal(d))
                       for p, d in zip(a.kwonlyargs, a.kw_defaults)]
            out[node.name] = params
    return out


def stub_names(folder):
    """Every name of the stubs' __all__ lists, and the functions of from_2024_12.py (the four
    2024.12 functions kernforge builds to), by module."""
    names = {}
    for path in sorted(folder.glob("*.py")):
        if path.name in NOT_NAMESPACE:
            continue
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    getattr(t, "id", "") == "__all__" for t in node.targets):
                for name in ast.literal_eval(node.value):
                    names[name] = path.name
            elif path.name == "from_2024_12.py" and isinstance(node, ast.FunctionDef):
                names[node.name] = path.name
    return names


@pytest.fixture(scope="module")
def stubs():
    folder = pathlib.Path(os.environ.get("KF_ARRAY_API_STUBS", ""))
    if not (folder / "elementwise_functions.py").is_file():
        pytest.skip(f"the array API stubs are not at {str(folder)!r} (KF_ARRAY_API_STUBS, the "
                    "CMake cache variable of the same name)")
    return stub_names(folder)


def test_the_namespace_has_every_function_of_the_stubs_but_the_listed_ones(stubs):
    assert len(stubs) > 130
    # info.py's other names are the methods of what __array_namespace_info__() returns (below).
    functions = {n: m for n, m in stubs.items()
                 if m != "info.py" or n == "__array_namespace_info__"}
    missing = {n: m for n, m in functions.items() if not hasattr(kf, n)}
    unlisted = {n: m for n, m in missing.items() if n not in NOT_YET}
    assert not unlisted, f"the namespace lacks these functions of the standard: {unlisted}"
    built = sorted(n for n in NOT_YET if hasattr(kf, n))
    assert not built, f"built now, so take them off NOT_YET: {built}"
    assert NOT_YET <= set(stubs), sorted(NOT_YET - set(stubs))


# Keyword-only parameters kernforge adds after the standard's (the standard lets a library
# add keyword-only arguments): requires_grad on the creation functions (docs/autograd.md), and
# the frequency functions' dtype, which the standard's 2024.12 revision adds.
EXTRA_KEYWORDS = {"requires_grad": False}
EXTRA_KEYWORDS_OF = {"fftfreq": {"dtype": None}, "rfftfreq": {"dtype": None}}


def kernforge_parameters(f):
    params = [(p.name, _KINDS[p.kind], _NO_DEFAULT if p.default is inspect.Parameter.empty
               else p.default) for p in inspect.signature(f).parameters.values()]
    extra = {**EXTRA_KEYWORDS, **EXTRA_KEYWORDS_OF.get(f.__name__, {})}
    while params and params[-1][1] == "keyword-only" and \
            extra.get(params[-1][0], _NO_DEFAULT) == params[-1][2]:
        params.pop()
    return params


def test_the_namespaces_functions_take_the_standards_parameters(stubs):
    """Names, kinds (positional-only, keyword-only) and defaults, as the stubs have them."""
    standard = stub_parameters(pathlib.Path(os.environ["KF_ARRAY_API_STUBS"]))
    present = {n: p for n, p in standard.items() if hasattr(kf, n)}
    wrong = {n: (kernforge_parameters(getattr(kf, n)), p) for n, p in present.items()
             if n not in SIGNATURE_NOT_YET and kernforge_parameters(getattr(kf, n)) != p}
    assert not wrong, "\n".join(f"{n}: kernforge {m}, the standard {s}"
                                for n, (m, s) in wrong.items())
    fixed = sorted(n for n in SIGNATURE_NOT_YET
                   if n in present and kernforge_parameters(getattr(kf, n)) == present[n])
    assert not fixed, f"take them off SIGNATURE_NOT_YET: {fixed}"
    assert len(present) > 60


def test_the_info_functions_of_the_stubs_are_the_info_objects(stubs):
    info = kf.__array_namespace_info__()
    for name, module in stubs.items():
        if module == "info.py" and name != "__array_namespace_info__":
            assert callable(getattr(info, name)), name


def test_array_api_version():
    assert kf.__array_api_version__ == "2023.12"
    assert kf.ones((2,)).__array_namespace__() is kf


def test_capabilities_say_what_is_there():
    caps = kf.__array_namespace_info__().capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True}
    x = kf.asarray([1.0, -2.0, 3.0])
    assert x[x > 0].shape == (2,)
    assert kf.unique_values(kf.asarray([2, 1, 2])).shape == (2,)


def test_devices_are_the_loaded_backends_devices():
    info = kf.__array_namespace_info__()
    assert info.devices() == kf.devices()
    assert info.default_device() in info.devices()
    assert kf.zeros((2,), device=info.default_device()).device == info.default_device()


def test_dtypes_by_kind():
    info = kf.__array_namespace_info__()
    every = info.dtypes()
    assert set(every) <= STANDARD_DTYPES
    assert set(every) == STANDARD_DTYPES
    assert "float16" not in every and "bfloat16" not in every  # kernforge's own, not the standard's
    for name, d in every.items():
        assert d.name == name and getattr(kf, name) == d
    assert set(info.dtypes(kind="bool")) == {"bool"}
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert set(info.dtypes(kind="signed integer")) == {"int8", "int16", "int32", "int64"}
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind="complex floating")) == {"complex64", "complex128"}
    integral = info.dtypes(kind="integral")
    assert set(integral) == set(info.dtypes(kind=("signed integer", "unsigned integer")))
    numeric = set(info.dtypes(kind="numeric"))
    assert numeric == set(every) - {"bool"}
    assert set(info.dtypes(device=info.default_device())) == set(every)


def test_default_dtypes():
    info = kf.__array_namespace_info__()
    defaults = info.default_dtypes()
    assert defaults["real floating"] == kf.float32
    assert defaults["integral"] == kf.int64 and defaults["indexing"] == kf.int64
    assert kf.ones((1,)).dtype == defaults["real floating"]
    assert kf.arange(3).dtype == defaults["integral"]


def test_bad_kind_and_device_say_what_is_allowed():
    info = kf.__array_namespace_info__()
    with pytest.raises(ValueError, match="unknown dtype kind 'floating'.*real floating"):
        info.dtypes(kind="floating")
    with pytest.raises(ValueError, match="unknown dtype kind"):
        info.dtypes(kind=("bool", 3))
    with pytest.raises(ValueError, match="unknown device 'nowhere'"):
        info.default_dtypes(device="nowhere")
    with pytest.raises(ValueError, match="not a device of a loaded backend"):
        info.dtypes(device="cpu:7")
    assert info.dtypes(device="cpu") == info.dtypes()


def test_the_type_stub_has_the_namespace_names():
    stub = pathlib.Path(kf.__file__).with_name("__init__.pyi").read_text()
    assert "__array_api_version__: str" in stub
    assert "def __array_namespace_info__() -> Any: ..." in stub


def test_finfo_and_iinfo_from_the_dtypes_formats():
    f32 = kf.finfo(kf.float32)
    assert (f32.bits, f32.eps, f32.max, f32.smallest_normal) == (32, 2.0 ** -23,
                                                                3.4028234663852886e38, 2.0 ** -126)
    assert f32.min == -f32.max and f32.dtype == kf.float32
    f64 = kf.finfo(kf.ones(1, dtype=kf.float64))  # an array too
    assert (f64.bits, f64.eps, f64.max) == (64, sys.float_info.epsilon, sys.float_info.max)
    assert f64.smallest_normal == sys.float_info.min
    assert (kf.finfo(kf.float16).max, kf.finfo(kf.float16).eps) == (65504.0, 2.0 ** -10)
    assert kf.finfo(kf.bfloat16).max == 3.3895313892515355e38
    i8, u8, i64 = kf.iinfo(kf.int8), kf.iinfo(kf.uint8), kf.iinfo(kf.int64)
    assert (i8.bits, i8.min, i8.max) == (8, -128, 127) and (u8.min, u8.max) == (0, 255)
    assert (i64.min, i64.max) == (-2 ** 63, 2 ** 63 - 1) and i64.dtype == kf.int64
    with pytest.raises(TypeError, match="finfo.*floating-point dtype, not int32"):
        kf.finfo(kf.int32)
    with pytest.raises(TypeError, match="iinfo.*integer dtype, not float32"):
        kf.iinfo(kf.float32)


def test_can_cast_follows_the_promotion_rules():
    assert kf.can_cast(kf.int8, kf.int16) and kf.can_cast(kf.bool, kf.float32)
    assert kf.can_cast(kf.int32, kf.float32)  # PyTorch's rule for mixed kinds
    assert not kf.can_cast(kf.int16, kf.int8) and not kf.can_cast(kf.float64, kf.float32)
    assert not kf.can_cast(kf.float32, kf.int64) and not kf.can_cast(kf.uint8, kf.int8)
    assert kf.can_cast(kf.ones(2, dtype=kf.int32), kf.int64)
    assert kf.isdtype(kf.uint8, ("bool", "unsigned integer"))
    assert not kf.isdtype(kf.float32, "complex floating")


def _functions_of(path):
    return {node.name for node in ast.parse(path.read_text()).body
            if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("extension, count", [("linalg", 23), ("fft", 14)])
def test_each_extension_has_every_function_of_its_stub_with_its_parameters(stubs, extension,
                                                                           count):
    """kf.linalg and kf.fft against the extensions' stubs (linalg.py, fft.py): every function,
    with the standard's parameter names, kinds and defaults."""
    folder = pathlib.Path(os.environ["KF_ARRAY_API_STUBS"])
    module = getattr(kf, extension)
    names = _functions_of(folder / f"{extension}.py")
    assert len(names) == count
    missing = sorted(n for n in names if not hasattr(module, n))
    assert not missing, f"kf.{extension} lacks these functions of the extension: {missing}"
    tree = {node.name: node for node in ast.parse((folder / f"{extension}.py").read_text()).body
            if isinstance(node, ast.FunctionDef)}
    wrong = {}
    for name, node in tree.items():
        a = node.args
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        want = [(p.arg, "positional-only" if i < len(a.posonlyargs) else "positional or keyword",
                 _literal(d)) for i, (p, d) in enumerate(zip(positional, defaults))]
        want += [(p.arg, "keyword-only", _literal(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        got = kernforge_parameters(getattr(module, name))
        if got != want:
            wrong[name] = (got, want)
    assert not wrong, "\n".join(f"{n}: kernforge {g}, the standard {w}"
                                for n, (g, w) in wrong.items())


def test_kf_linalg_shares_the_main_namespaces_matrix_functions():
    assert kf.linalg.matmul is kf.matmul and kf.linalg.tensordot is kf.tensordot
