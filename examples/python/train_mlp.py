"""Trains a small MLP with kernforge's autograd, nn and optim until its loss falls under a
threshold: the classic two spirals, 2 inputs, two hidden layers of 64, 2 classes, AdamW. The
trained weights are then saved to a safetensors file and loaded into a fresh model, which must
give the same loss.

    python3 examples/python/train_mlp.py [--steps N] [--threshold T]

Exits 1 if the loss is not under the threshold after --steps steps."""

import argparse
import math
import os
import sys
import tempfile

import kernforge as kf
from kernforge import nn
from kernforge.nn import functional as F


def spirals(n_per_class):
    """Two interleaved spirals of n points each: features [2n, 2], labels [2n]."""
    kf.manual_seed(0)
    t = kf.linspace(0.25, 3 * math.pi, n_per_class)
    noise = kf.randn((2, n_per_class, 2)) * 0.05
    arms = []
    for k, sign in enumerate((1.0, -1.0)):
        x = kf.stack([t * kf.cos(t) * sign, t * kf.sin(t) * sign], axis=1) / (3 * math.pi)
        arms.append(x + noise[k])
    labels = kf.concat([kf.zeros((n_per_class,), dtype=kf.int64),
                        kf.ones((n_per_class,), dtype=kf.int64)])
    return kf.concat(arms), labels


def mlp():
    return nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                         nn.Linear(64, 2))


def reloaded_loss(model, x, y, step):
    """The loss of a fresh model that loads model's state dict from a safetensors file."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mlp.safetensors")
        kf.save_file(model.state_dict(), path, metadata={"step": str(step)})
        fresh = mlp()
        fresh.load_state_dict(kf.load_file(path))
    return F.cross_entropy(fresh(x), y).item()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--threshold", type=float, default=0.05)
    a = p.parse_args()
    x, y = spirals(256)
    model = mlp()
    opt = kf.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-4)
    for step in range(1, a.steps + 1):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        value = loss.item()
        if step % 100 == 0 or value < a.threshold:
            print(f"step {step:5d}  loss {value:.4f}")
        if value < a.threshold:
            accuracy = (model(x).argmax(1) == y).to(dtype=kf.float32).mean().item()
            print(f"reached loss {value:.4f} < {a.threshold} at step {step}; "
                  f"accuracy {accuracy:.3f}")
            again = reloaded_loss(model, x, y, step)
            print(f"saved to a safetensors file and loaded into a fresh model: loss {again:.4f}")
            return 0 if again == F.cross_entropy(model(x), y).item() else 1
    print(f"the loss {value:.4f} is still above {a.threshold} after {a.steps} steps",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
