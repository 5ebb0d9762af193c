"""The complex cases test_complex_grad_torch.py differentiates twice: with kernforge, and with
torch 1.13 in a separate process (Debian's /usr/bin/python3, which imports this file alone).
Each case is f(lib, *inputs) written in what both libraries share (`fft`, `linalg`, `exp`,
`abs`, `real`, `conj`, `@`, `*`, `/`); the seed of the backward is w + i v for a complex
output (the gradient of sum(w * real(out)) + sum(v * imag(out))), w for a real one.
Eigenvectors enter through functions free of their phases."""

import numpy as np

Z = np.array([[0.3 + 1.1j, -0.7 + 0.6j, 1.2 - 0.8j], [0.9 + 0.5j, -1.5 + 1.4j, 0.4 - 0.2j]])
M = np.array([[2.0 + 0.1j, 0.3 - 0.2j, -0.5 + 0.3j], [0.4 + 0.2j, 1.5 + 0.1j, 0.2 - 0.1j],
              [-0.3, 0.6 + 0.3j, 1.8 + 0.2j]])
R = np.array([[0.2, 1.7, 0.4], [1.3, -0.1, 0.5], [0.3, 0.6, -1.4]])
SIG = np.array([0.3, -0.7, 1.2, 0.5, 0.8, -0.4])


def eig_invariant(lib, x):
    values, vectors = lib.linalg.eig(x)
    phase_free = vectors[0] * lib.conj(vectors[1])
    return lib.abs(vectors) * lib.abs(vectors) * lib.real(values) + phase_free


CASES = {
    "mul": ([Z, Z[::-1].copy()], lambda lib, x, y: x * y),
    "div exp": ([Z, Z[::-1] + 0.5], lambda lib, x, y: lib.exp(x) / y),
    "mm": ([Z, Z.T.copy()], lambda lib, x, y: x @ y),
    "abs": ([Z], lambda lib, x: lib.abs(x)),
    "real conj": ([Z], lambda lib, x: lib.real(lib.conj(x) * x * x)),
    "inv": ([M], lambda lib, x: lib.linalg.inv(x)),
    "eigvals": ([M], lambda lib, x: lib.linalg.eigvals(x)),
    "eigvals real": ([R], lambda lib, x: lib.linalg.eigvals(x)),
    "eig": ([M], eig_invariant),
    "eig real": ([R], eig_invariant),
    "fft ortho": ([Z], lambda lib, x: lib.fft.fft(x, n=4, norm="ortho")),
    "ifft": ([Z], lambda lib, x: lib.fft.ifft(x, n=2)),
    "rfft": ([SIG], lambda lib, x: lib.fft.rfft(x, norm="forward")),
    "irfft": ([Z[0]], lambda lib, x: lib.fft.irfft(x, n=5)),
    "irfft even": ([Z[1]], lambda lib, x: lib.fft.irfft(x, n=4, norm="ortho")),
}


def seed(out):
    n = out.size
    w = (0.5 + 0.25 * (np.arange(n) % 5)).reshape(out.shape)
    v = (-0.3 + 0.2 * (np.arange(n) % 4)).reshape(out.shape)
    return w + 1j * v if np.iscomplexobj(out) else w


def as_lists(g):
    g = np.asarray(g)
    return [g.real.tolist(), g.imag.tolist()]


def torch_gradients():
    """Run under /usr/bin/python3: every case's gradients by torch, as [real, imag] lists."""
    import torch
    out = {}
    for name, (inputs, f) in CASES.items():
        xs = [torch.tensor(np.array(a), requires_grad=True) for a in inputs]
        y = f(torch, *xs)
        grads = torch.autograd.grad(y, xs, torch.tensor(seed(y.detach().numpy())))
        out[name] = [as_lists(g.numpy()) for g in grads]
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(torch_gradients()))
