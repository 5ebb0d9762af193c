"""The cases test_linalg_grad_torch.py differentiates twice: with kernforge, and with torch in a
separate process (Debian's /usr/bin/python3, which has torch 1.13 and imports this file alone).
Each case is f(lib, *inputs) written in what kernforge (`kf`) and torch share: the
`linalg` namespace, `@`, `*`, `.mT`, `eye`. Symmetric inputs are made symmetric inside f (both
libraries read one triangle of them, and agree only on symmetric perturbations); singular vectors
enter through functions free of their signs."""

import numpy as np

M = [[[2.0, 0.3, -0.5], [0.4, 1.5, 0.2], [-0.3, 0.6, 1.8]],
     [[0.2, 1.7, 0.4], [1.3, -0.1, 0.5], [0.3, 0.6, -1.4]]]
TALL = [[1.0, 0.2, -0.4], [0.3, -1.2, 0.5], [0.7, 0.4, 1.6], [-0.5, 0.9, 0.1]]
WIDE = [[1.0, 0.3, 0.7, 0.4], [0.4, -1.2, 0.4, -0.6], [-0.4, 0.5, 1.3, 0.25]]
RHS = [[0.5, -1.0], [1.5, 0.25], [-0.75, 0.5]]


def spd(lib, x):
    return x @ x.mT + lib.eye(x.shape[-1], dtype=lib.float64)


def sort(lib, x, axis, descending=False):
    if lib.__name__ == "torch":
        return lib.sort(x, dim=axis, descending=descending).values
    return lib.sort(x, axis=axis, descending=descending)


def eigh(lib, x):
    w, v = lib.linalg.eigh(spd(lib, x))
    return v * v * w[..., None, :]


def svd(lib, x):
    u, s, vh = lib.linalg.svd(x, full_matrices=False)
    return (u * u) @ (vh * vh) + (u * (s * s * s)[..., None, :]) @ vh


def qr(lib, x):
    q, r = lib.linalg.qr(x)
    return (q * q) @ (r * r)


CASES = {
    "sort": ([TALL], lambda lib, x: sort(lib, x, 1)),
    "sort descending": ([TALL], lambda lib, x: sort(lib, x, 0, True)),
    "cholesky": ([M], lambda lib, x: lib.linalg.cholesky(spd(lib, x))),
    "inv": ([M], lambda lib, x: lib.linalg.inv(x)),
    "solve": ([M, RHS], lambda lib, a, b: lib.linalg.solve(a, b)),
    "det": ([M], lambda lib, x: lib.linalg.det(x)),
    "slogdet": ([M], lambda lib, x: lib.linalg.slogdet(x).logabsdet),
    "eigh": ([M], eigh),
    "eigvalsh": ([M], lambda lib, x: lib.linalg.eigvalsh(spd(lib, x))),
    "svd tall": ([TALL], svd),
    "svd wide": ([WIDE], svd),
    "svdvals": ([WIDE], lambda lib, x: lib.linalg.svdvals(x)),
    "qr tall": ([TALL], qr),
    "qr wide": ([WIDE], qr),
    "lstsq tall": ([TALL, np.array(TALL)[:, :2] * 0.7 + 0.1],
                   lambda lib, a, b: lib.linalg.lstsq(a, b).solution),
    "lstsq wide": ([WIDE, RHS], lambda lib, a, b: lib.linalg.lstsq(a, b).solution),
}


def weights(shape):
    n = int(np.prod(shape))
    return (0.5 + 0.25 * (np.arange(n) % 5)).reshape(shape)


def torch_gradients():
    """Run under /usr/bin/python3: every case's gradients by torch, as lists."""
    import torch
    out = {}
    for name, (inputs, f) in CASES.items():
        xs = [torch.tensor(np.array(a, dtype=np.float64), requires_grad=True) for a in inputs]
        y = f(torch, *xs)
        grads = torch.autograd.grad(y, xs, torch.tensor(weights(tuple(y.shape))))
        out[name] = [g.tolist() for g in grads]
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(torch_gradients()))
