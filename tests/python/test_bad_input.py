"""Bad arguments from Python get a clear error of the right type, and the caller's own exception
when its object raised one: self-containing lists, objects whose __index__ or __float__ raise,
names and paths with NUL characters, indices that are not indices, data that is no tensor, and
thread counts outside the core's bound."""

import pytest

import kernforge as kf


class Raises:
    """An object whose conversions raise the caller's own error."""

    def __index__(self):
        raise ZeroDivisionError("from __index__")

    def __float__(self):
        raise ZeroDivisionError("from __float__")


def test_a_list_that_holds_itself_is_refused():
    a = []
    a.append(a)
    with pytest.raises(ValueError, match="more than 16 deep|holds itself"):
        kf.tensor(a)
    b = [1.0]
    b.append(b)
    with pytest.raises(ValueError, match="ragged"):
        kf.asarray(b)


def test_deep_lists_within_the_dims_limit_still_convert():
    x = [[[[1]]]]
    assert kf.tensor(x).shape == (1, 1, 1, 1)


def test_a_raising_index_propagates_from_op_arguments_and_indexing():
    x = kf.ones((2, 3))
    with pytest.raises(ZeroDivisionError, match="from __index__"):
        kf.full((Raises(),), 1.0)
    with pytest.raises(ZeroDivisionError, match="from __index__"):
        x.sum(dim=Raises())
    with pytest.raises(ZeroDivisionError, match="from __index__"):
        x[Raises()]


def test_a_raising_float_propagates():
    with pytest.raises(ZeroDivisionError, match="from __float__"):
        kf.tensor([Raises()])
    x = kf.ones((2, 4))
    with pytest.raises(ZeroDivisionError, match="from __float__"):
        kf.layer_norm(x, [4], eps=Raises())
    with pytest.raises(TypeError, match="argument 'eps' must be a float"):
        kf.layer_norm(x, [4], eps="small")


def test_an_int_argument_outside_int64_is_an_overflow_that_names_it():
    with pytest.raises(OverflowError, match="'dim'.*outside int64"):
        kf.ones(2).sum(dim=2**70)


@pytest.mark.parametrize("call", [
    lambda: kf.device("cpu\0junk"),
    lambda: kf.device("cpu\0", 0),
    lambda: kf.zeros(2, dtype="float32\0junk"),
    lambda: kf.zeros(2).to("cpu\0junk"),
    lambda: kf._C.Op("add\0junk"),
    lambda: kf.load_plugin("/tmp/plugin\0.json"),
    lambda: kf._C.try_load_plugin("/tmp/plugin\0.json"),
])
def test_names_and_paths_with_a_nul_are_refused_not_cut(call):
    with pytest.raises(ValueError, match="NUL|null"):
        call()


def test_a_str_is_not_an_index():
    x = kf.ones((2, 3))
    for key in ("a", b"a", 1.5, {"a": 1}):
        with pytest.raises(IndexError, match="valid indices"):
            x[key]
    assert x[[0, 1]].shape == (2, 3)  # a list of ints still is one


@pytest.mark.parametrize("data", [None, "abc", {"a": 1}, {1, 2}, object()])
def test_data_that_is_no_tensor_says_what_is_expected(data):
    with pytest.raises(TypeError, match="cannot make a tensor of"):
        kf.tensor(data)


@pytest.mark.parametrize("n", [2**31 - 1, 2**40, 2**80, -(2**80), 0, -1])
def test_thread_counts_outside_the_bound_are_refused_by_the_core_rule(n):
    before = kf.get_num_threads()
    with pytest.raises(ValueError, match="thread"):
        kf.set_num_threads(n)
    assert kf.get_num_threads() == before


def test_a_thread_count_that_is_not_an_int_is_a_type_error():
    for n in (1.5, "2", True):
        with pytest.raises(TypeError, match="must be an int"):
            kf.set_num_threads(n)
