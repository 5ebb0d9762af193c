"""The Tensor type: creation from Python data, accessors, conversions, repr, indexing, errors."""

import array
import math

import numpy as np
import pytest

import kernforge as kf


def test_tensor_from_nested_lists_takes_pytorchs_default_dtypes():
    assert kf.tensor([[1, 2], [3, 4]]).dtype is kf.int64
    assert kf.tensor([1.5, 2]).dtype is kf.float32
    assert kf.tensor([True, False]).dtype is kf.bool
    t = kf.tensor([[1, 2, 3], [4, 5, 6]], dtype=kf.float64)
    assert t.shape == (2, 3) and t.ndim == 2 and t.numel() == 6 and t.dtype is kf.float64
    assert t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_scalars_and_empty():
    s = kf.tensor(2.5)
    assert s.shape == () and s.item() == 2.5 and float(s) == 2.5 and s.tolist() == 2.5
    e = kf.tensor([])
    assert e.shape == (0,) and e.tolist() == []
    assert kf.zeros((2, 0)).tolist() == [[], []]


def test_ragged_lists_are_refused():
    with pytest.raises(ValueError, match="ragged"):
        kf.tensor([[1, 2], [3]])
    with pytest.raises(TypeError):
        kf.tensor(["a"])


def test_buffers_numpy_and_array():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    t = kf.asarray(a)
    assert t.dtype is kf.int32 and t.shape == (2, 3) and t.tolist() == a.tolist()
    nc = np.arange(12.0).reshape(3, 4)[:, ::2]  # not contiguous
    assert kf.asarray(nc).tolist() == nc.tolist()
    assert kf.asarray(array.array("f", [1, 2])).dtype is kf.float32
    back = kf.asarray(a, dtype=kf.float64).numpy()
    assert back.dtype == np.float64 and (back == a).all()
    assert np.asarray(kf.ones(2, dtype=kf.float16)).dtype == np.float16


def test_bfloat16_numpy_is_a_clear_error_and_tolist_works():
    t = kf.ones(2, dtype=kf.bfloat16)
    assert t.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="bfloat16"):
        t.numpy()


def test_factories_take_dtype_and_device_everywhere():
    for f in (kf.zeros, kf.ones, kf.empty, kf.rand, kf.randn):
        t = f((2, 3), dtype=kf.float64, device="cpu")
        assert t.shape == (2, 3) and t.dtype is kf.float64 and t.device == "cpu"
    assert kf.ops.zeros(2, 3).shape == (2, 3)  # PyTorch's varargs: kf.ops keeps them
    assert kf.zeros((2, 3)).shape == (2, 3) and kf.zeros(4).shape == (4,)  # the standard's
    assert kf.full((2,), 7).tolist() == [7, 7]
    assert kf.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert kf.arange(1, 7, 2, dtype=kf.float32).tolist() == [1.0, 3.0, 5.0]
    assert kf.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert kf.linspace(0, 1, 3).tolist() == [0.0, 0.5, 1.0]


def test_manual_seed_repeats_random_numbers():
    kf.manual_seed(3)
    a = kf.rand(8).tolist()
    kf.manual_seed(3)
    assert kf.rand(8).tolist() == a


def test_dtype_and_device_objects():
    assert kf.float32 is kf.dtype_from_name("f32")
    assert repr(kf.float32) == "kernforge.float32" and kf.int8.itemsize == 1
    assert kf.device("cpu") == kf.device("cpu", 0) == "cpu"
    assert str(kf.ones(1).device) == "cpu" and kf.ones(1).device.type == "cpu"
    assert kf.device("cpu") in kf.devices()
    with pytest.raises(TypeError):
        kf.zeros(2, dtype=object())
    with pytest.raises(ValueError):
        kf.zeros(2, device="nonsense-device:x")


def test_repr_and_str():
    assert repr(kf.tensor([1, 2])) == "tensor([1, 2], dtype=int64)"
    assert "..." in repr(kf.zeros(2000))
    assert repr(kf.tensor([[1.5]])) == "tensor([[1.5]], dtype=float32)"


def test_to_and_astype():
    t = kf.tensor([1.7, -2.2])
    assert t.to(kf.int64).tolist() == [1, -2]
    assert t.to("cpu") is t
    assert t.to("cpu", copy=True) is not t
    assert t.astype(kf.float64).dtype is kf.float64
    assert kf.astype(t, kf.int32).dtype is kf.int32


def test_basic_indexing_gives_views():
    x = kf.arange(24).reshape(2, 3, 4)
    assert x[1].tolist() == np.arange(24).reshape(2, 3, 4)[1].tolist()
    assert x[1, 2, 3].item() == 23 and x[-1, -1, -1].item() == 23
    assert x[:, 1:3, ::2].tolist() == np.arange(24).reshape(2, 3, 4)[:, 1:3, ::2].tolist()
    assert x[..., 0].shape == (2, 3) and x[None].shape == (1, 2, 3, 4)
    assert x[0, None, :, 1].shape == (1, 3)
    v = x[0]
    v[0, 0] = 100  # a view: writes reach x
    assert x[0, 0, 0].item() == 100
    x[1] = kf.zeros((3, 4), dtype=kf.int64)
    assert x[1].tolist() == [[0] * 4] * 3
    x[:, 0, 0] = 5
    assert x[:, 0, 0].tolist() == [5, 5]


def test_index_errors():
    x = kf.zeros((2, 3))
    with pytest.raises(IndexError):
        x[2]
    with pytest.raises(IndexError):
        x[0, 0, 0]
    with pytest.raises(ValueError, match="step cannot be zero"):
        x[::0]
    assert x[::-1].shape == (2, 3)
    assert [r.tolist() for r in x] == [[0.0] * 3] * 2


def test_integer_array_index():
    x = kf.arange(10) * 10
    assert x[kf.tensor([3, 1])].tolist() == [30, 10]
    assert x[[0, 9]].tolist() == [0, 90]


def test_bool_item_len_and_errors():
    assert bool(kf.tensor([1])) and not bool(kf.tensor(0.0))
    assert len(kf.zeros((4, 2))) == 4
    with pytest.raises(ValueError, match="ambiguous"):
        bool(kf.ones(2))
    with pytest.raises(ValueError):
        kf.ones(2).item()


def test_failures_raise_with_the_cores_message():
    with pytest.raises(ValueError, match="cannot be broadcast"):
        kf.ones(3) + kf.ones(4)
    with pytest.raises(ValueError, match="cannot be multiplied"):
        kf.ones((2, 3)) @ kf.ones((2, 3))
    with pytest.raises(TypeError, match="argument 'dim'"):
        kf.ones(3).softmax("x")
    with pytest.raises(OverflowError):
        kf.ones(1) + 2 ** 70


def test_array_namespace():
    x = kf.ones(3)
    assert x.__array_namespace__() is kf
    assert math.isclose(kf.pi, math.pi) and kf.newaxis is None
    assert kf.isdtype(kf.float32, "real floating") and not kf.isdtype(kf.int8, "unsigned integer")
    assert kf.result_type(kf.int32, kf.ones(1)) is kf.float32


def test_size_is_the_element_count():
    assert kf.ones((2, 3, 4)).size == 24 and kf.tensor(5).size == 1
    assert kf.zeros((0, 3)).size == 0
    assert kf.ones((2, 3)).shape[1] == 3  # PyTorch's size(1)


def test_index_and_complex_of_0_dim_tensors():
    a = [10, 20, 30]
    assert a[kf.tensor(2)] == 30 and range(5)[kf.tensor(-1, dtype=kf.int8)] == 4
    import operator
    assert operator.index(kf.tensor(7)) == 7
    with pytest.raises(TypeError, match="only a 0-dim tensor of an integer dtype.*float32"):
        operator.index(kf.tensor(1.0))
    with pytest.raises(TypeError, match="1-dim int64"):
        operator.index(kf.tensor([1]))
    with pytest.raises(TypeError, match="bool"):
        operator.index(kf.tensor(True))
    assert complex(kf.tensor(1.5)) == 1.5 + 0j and complex(kf.tensor(3)) == 3 + 0j
    with pytest.raises(ValueError, match="ambiguous"):
        complex(kf.ones(2))


def test_in_place_pow_matmul_and_or_write_into_the_tensor():
    x = kf.tensor([1.0, 2.0, 3.0])
    alias = x
    x **= 2
    assert alias is x and x.tolist() == [1.0, 4.0, 9.0]
    m = kf.ones((2, 2))
    view = m[0]
    m @= kf.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert m.tolist() == [[4.0, 6.0], [4.0, 6.0]] and view.tolist() == [4.0, 6.0]
    b = kf.tensor([True, False, True])
    b &= kf.tensor([True, True, False])
    assert b.tolist() == [True, False, False]
    b |= kf.tensor([False, True, False])
    assert b.tolist() == [True, True, False]
    i = kf.tensor([1, 2, 3])
    i **= 2
    assert i.dtype == kf.int64 and i.tolist() == [1, 4, 9]


def test_the_matmul_operator_promotes_as_the_standard_and_the_method_does_not():
    """`@` follows the array API's type promotion; x.matmul(y) keeps PyTorch's one dtype."""
    a = kf.asarray([[1, 2]], dtype=kf.uint8)
    b = kf.asarray([[1.0], [2.0]], dtype=kf.float32)
    for got in (a @ b, b.__rmatmul__(a)):
        assert got.dtype == kf.float32 and got.tolist() == [[5.0]]
    c = kf.asarray([[1.0, 2.0]], dtype=kf.float64)
    c @= kf.asarray([[1.0, 0.0], [0.0, 1.0]], dtype=kf.float32)
    assert c.dtype == kf.float64 and c.tolist() == [[1.0, 2.0]]
    with pytest.raises(ValueError, match="same dtype"):
        a.matmul(b)


def test_in_place_operators_keep_shape_and_refuse_a_higher_category():
    i = kf.tensor([1, 2, 3])
    with pytest.raises(TypeError, match="float32 result into a int64 tensor"):
        i **= kf.tensor([0.5, 0.5, 0.5])
    assert i.tolist() == [1, 2, 3]  # untouched
    m = kf.ones((3, 3))
    with pytest.raises(ValueError, match="another shape"):
        m @= kf.ones((3, 1))
    i &= kf.tensor([1, 1, 2])  # bitwise, in place
    assert i.tolist() == [1, 0, 2]
    with pytest.raises(ValueError, match="bitwise_and_?: needs integer or bool"):
        i &= kf.tensor([1.5, 1.0, 1.0])
    assert i.tolist() == [1, 0, 2]
