"""Safetensors files from Python: kernforge.save_file / load_file round trips (every dtype the
format has, metadata, non-contiguous input), a Module's state_dict and an AdamW optimizer's
state through a file, interop with the reference ``safetensors`` package both ways, and the
errors of a malformed file."""

import json
import struct

import numpy as np
import pytest

import kernforge as kf
from kernforge import nn, optim

# numpy's name of each dtype the format has, beside kernforge's (bfloat16: no numpy dtype).
DTYPES = ["bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
          "float16", "float32", "float64", "complex64"]


def sample(name, shape=(3, 4)):
    rng = np.random.default_rng(7)
    if name == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if name.startswith(("int", "uint")):
        return rng.integers(0, 100, size=shape).astype(name)
    if name == "complex64":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(name)
    return rng.standard_normal(shape).astype(name)


def test_every_dtype_and_metadata_round_trip(tmp_path):
    arrays = {f"t_{d}": sample(d) for d in DTYPES}
    tensors = {k: kf.asarray(v) for k, v in arrays.items()}
    tensors["t_bfloat16"] = kf.asarray(sample("float32")).to(dtype=kf.bfloat16)
    path = tmp_path / "all.safetensors"
    kf.save_file(tensors, path, metadata={"format": "kf", "note": "café"})
    loaded, metadata = kf.load_file_with_metadata(path)
    assert list(loaded) == list(tensors)  # the header keeps the order given
    assert metadata == {"format": "kf", "note": "café"}
    for name, t in tensors.items():
        assert loaded[name].dtype == t.dtype
        assert tuple(loaded[name].shape) == tuple(t.shape)
        np.testing.assert_array_equal(loaded[name].to(dtype=kf.float32).numpy()
                                      if name == "t_bfloat16" else loaded[name].numpy(),
                                      t.to(dtype=kf.float32).numpy()
                                      if name == "t_bfloat16" else t.numpy())


def test_non_contiguous_input_is_saved_row_major(tmp_path):
    a = kf.reshape(kf.arange(24, dtype=kf.float32), (4, 6))
    view = a.T[::2]
    kf.save_file({"v": view}, tmp_path / "v.safetensors")
    back = kf.load_file(tmp_path / "v.safetensors")["v"]
    np.testing.assert_array_equal(back.numpy(), view.numpy())


def test_a_module_state_dict_round_trips_through_a_file(tmp_path):
    kf.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Linear(8, 2))
    kf.save_file(model.state_dict(), tmp_path / "model.safetensors")
    other = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Linear(8, 2))
    result = other.load_state_dict(kf.load_file(tmp_path / "model.safetensors"))
    assert result.missing_keys == [] and result.unexpected_keys == []
    x = kf.randn((5, 4))
    np.testing.assert_array_equal(model(x).numpy(), other(x).numpy())


def test_load_state_dict_reports_keys_and_shapes_like_pytorch():
    model = nn.Sequential(nn.Linear(2, 3))
    state = model.state_dict()
    with pytest.raises(RuntimeError, match=r"Missing key\(s\) in state_dict: '0.bias'"):
        model.load_state_dict({"0.weight": state["0.weight"]})
    with pytest.raises(RuntimeError, match=r"Unexpected key\(s\) in state_dict: 'extra'"):
        model.load_state_dict(dict(state, extra=kf.zeros((1,))))
    with pytest.raises(RuntimeError, match=r"size mismatch for 0.bias: .*\(4,\).*\(3,\)"):
        model.load_state_dict(dict(state, **{"0.bias": kf.zeros((4,))}))
    missing, unexpected = model.load_state_dict({"x": kf.zeros((1,))}, strict=False)
    assert missing == ["0.weight", "0.bias"] and unexpected == ["x"]
    with pytest.raises(RuntimeError, match="size mismatch"):  # always, as PyTorch's
        model.load_state_dict({"0.bias": kf.zeros((4,))}, strict=False)


def train_steps(model, opt, steps, seed=3):
    kf.manual_seed(seed)
    for _ in range(steps):
        x = kf.randn((6, 4))
        loss = (model(x) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


@pytest.mark.parametrize("make", [lambda p: optim.AdamW(p, lr=1e-2),
                                  lambda p: optim.SGD(p, lr=1e-2, momentum=0.9)],
                         ids=["AdamW", "SGD"])
def test_an_optimizer_state_round_trips_and_training_resumes_identically(tmp_path, make):
    kf.manual_seed(1)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
    opt = make(model.parameters())
    train_steps(model, opt, 3)
    tensors, metadata = optim.state_to_tensors(opt.state_dict())
    kf.save_file(tensors, tmp_path / "opt.safetensors", metadata=metadata)
    kf.save_file(model.state_dict(), tmp_path / "model.safetensors")

    clone = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
    clone.load_state_dict(kf.load_file(tmp_path / "model.safetensors"))
    clone_opt = make(clone.parameters())
    clone_opt.load_state_dict(optim.state_from_tensors(
        *kf.load_file_with_metadata(tmp_path / "opt.safetensors")))
    train_steps(model, opt, 2, seed=9)
    train_steps(clone, clone_opt, 2, seed=9)
    for (name, a), (_, b) in zip(model.named_parameters(), clone.named_parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)


def test_an_optimizer_refuses_a_state_of_other_parameters():
    kf.manual_seed(1)
    a = nn.Linear(4, 3)
    opt = optim.AdamW(a.parameters())
    train_steps(nn.Sequential(a), opt, 1)
    other = optim.AdamW(nn.Linear(4, 5).parameters())
    with pytest.raises(ValueError, match=r"state 'm' of parameter 0 has shape \(3, 4\)"):
        other.load_state_dict(opt.state_dict())
    with pytest.raises(ValueError, match="one group of 1"):
        optim.AdamW([a.weight]).load_state_dict(opt.state_dict())


def test_interop_with_the_safetensors_package_both_ways(tmp_path):
    st = pytest.importorskip("safetensors.numpy")
    arrays = {f"t_{d}": sample(d, (2, 5)) for d in DTYPES}
    arrays["scalar"] = np.array(3.5, dtype=np.float64)
    arrays["empty"] = np.zeros((0, 3), dtype=np.float32)
    st.save_file(arrays, str(tmp_path / "ref.safetensors"), metadata={"who": "reference"})
    loaded, metadata = kf.load_file_with_metadata(tmp_path / "ref.safetensors")
    assert metadata == {"who": "reference"}
    assert set(loaded) == set(arrays)
    for name, a in arrays.items():
        np.testing.assert_array_equal(loaded[name].numpy(), a, err_msg=name)

    kf.save_file({k: kf.asarray(v) for k, v in arrays.items()}, tmp_path / "kf.safetensors",
                  metadata={"who": "kernforge"})
    back = st.load_file(str(tmp_path / "kf.safetensors"))
    assert set(back) == set(arrays)
    for name, a in arrays.items():
        assert back[name].dtype == a.dtype, name
        np.testing.assert_array_equal(back[name], a, err_msg=name)
    from safetensors import safe_open
    with safe_open(str(tmp_path / "kf.safetensors"), framework="numpy") as f:
        assert f.metadata() == {"who": "kernforge"}


def write_raw(path, header, data=b""):
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    return path


def test_malformed_files_raise_value_errors_that_say_what_is_wrong(tmp_path):
    with pytest.raises(LookupError, match="no file"):
        kf.load_file(tmp_path / "missing.safetensors")
    p = write_raw(tmp_path / "bad.safetensors",
                  {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 12]}}, b"x" * 12)
    with pytest.raises(ValueError, match=r"'w': data_offsets \[0, 12\] hold 12 bytes.*16 bytes"):
        kf.load_file(p)
    (tmp_path / "short.safetensors").write_bytes(b"\x01\x02")
    with pytest.raises(ValueError, match="shorter than the 8-byte header length"):
        kf.load_file(tmp_path / "short.safetensors")
    with pytest.raises(ValueError, match="complex128.*complex64"):
        kf.save_file({"z": kf.zeros((2,), dtype=kf.complex128)}, tmp_path / "z.safetensors")
    with pytest.raises(TypeError, match="metadata must map str to str"):
        kf.save_file({"a": kf.zeros((1,))}, tmp_path / "a.safetensors", metadata={"n": 1})
    with pytest.raises(TypeError, match="'a' is a .*ndarray, not a kernforge Tensor"):
        kf.save_file({"a": np.zeros(1)}, tmp_path / "a.safetensors")
