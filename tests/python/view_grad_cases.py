"""The cases of in-place ops on views that test_autograd_views.py differentiates twice: with
kernforge (against central differences too), and with torch 1.13 in a separate process
(Debian's /usr/bin/python3, which imports this file alone). Each case is f(lib, *inputs),
written in what both libraries share, that writes a view of a tensor in the graph and returns
a tensor computed after the write; the seed of the backward is seed(out) below."""

import numpy as np

X = np.array([[0.3, -1.1, 0.7], [1.4, 0.2, -0.6], [-0.9, 0.5, 1.2], [0.8, -0.4, 0.1]])
W = np.array([0.6, -1.3, 0.9])


def slice_mul(lib, x):
    y = x * 1
    y[1:3].mul_(2)
    return y


def view_add(lib, x, w):
    y = x.clone()
    v = y.view((12,))
    v[0:3].add_(w)
    return y * y


def column_copy(lib, x, w):
    y = x * x
    y[:, 0][1:4].copy_(w)
    return y


def view_of_view(lib, x, w):
    y = x * 1
    v = y[1:3]
    u = v[:, 1]
    u.mul_(w[0:2])
    return lib.exp(y)


def transposed(lib, x, w):
    y = x * 1
    t = y.transpose(0, 1)
    t[1].add_(lib.sin(x[0:4, 0]) * w[0])
    return y * x


def base_written_after_view(lib, x):
    y = x * 1
    v = y[0:2]
    y.mul_(x)
    return v * 3


def view_read_after_its_write(lib, x, w):
    y = x * 2
    v = y[2]
    v.mul_(w)
    return v * v


def two_writes(lib, x, w):
    y = x * 1
    y[0].mul_(w)
    y[0:2, 1:3].div_(lib.exp(x[2:4, 0:2]))
    return y * y


CASES = {
    "slice mul_": ([X], slice_mul),
    "view add_": ([X, W], view_add),
    "column copy_": ([X, W], column_copy),
    "view of a view": ([X, W], view_of_view),
    "transposed": ([X, W], transposed),
    "base written after a view": ([X], base_written_after_view),
    "view read after its write": ([X, W], view_read_after_its_write),
    "two writes": ([X, W], two_writes),
}


def seed(out):
    n = out.size
    return (0.5 + 0.25 * (np.arange(n) % 5)).reshape(out.shape)


def torch_gradients():
    """Run under /usr/bin/python3: every case's gradients by torch, as lists."""
    import torch
    out = {}
    for name, (inputs, f) in CASES.items():
        xs = [torch.tensor(np.array(a), requires_grad=True) for a in inputs]
        y = f(torch, *xs)
        grads = torch.autograd.grad(y, xs, torch.tensor(seed(y.detach().numpy())))
        out[name] = [g.numpy().tolist() for g in grads]
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(torch_gradients()))
