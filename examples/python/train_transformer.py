"""Trains the transformer of examples/transformer as a tiny character-level language model on
data/tensors.txt with kernforge's autograd, nn and optim, until its cross-entropy falls under a
threshold; plots the loss curve to a PNG and samples some text at the end.

    python3 examples/python/train_transformer.py [--steps N] [--threshold T] [--plot FILE]
                                                 [--threads N]

The model is examples/transformer/transformer.cpp's, as kernforge.nn modules: a character
embedding, a block with a GELU MLP and a block with a SwiGLU MLP (each pre-norm: rms_norm,
causal multi-head attention through scaled_dot_product_attention with a residual, rms_norm, the
MLP with a residual), a final rms_norm and the embedding tied as the output projection. AdamW on
random windows of the text, all seeded: the run is the same every time. The loss is in nats per
character, and the threshold (1.4) is for its mean over the last 20 steps: far below the text's
unigram entropy (2.93, what the letter frequencies alone give; uniform guessing gives 3.74),
and below its bigram and trigram entropies (2.26 and 1.44: the cross-entropy of the text under
its own counts of what follows each character, and each pair of characters; no model that
looks only one or two characters back does better on it). Exits 1 if the threshold
is not reached within --steps steps.

It runs on one thread unless --threads says otherwise (0: the runtime's default): its tensors
are about the size (16 x 32 x 64 = 32768 elements) above which a CPU kernel splits its work
between threads, and on a small machine busy with other work the wait at the end of each split
costs more than the split saves (10 ms a step on one thread, 65 to 300 ms on two, on a 2-vCPU
machine shared with other jobs)."""

import argparse
import math
import os
import random
import sys
import tempfile

import kernforge as kf
from kernforge import nn
from kernforge.nn import functional as F

TEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tensors.txt")
MODEL, HEADS, HIDDEN, SEQ, BATCH = 64, 4, 128, 32, 16
WINDOW = 20  # steps averaged for the threshold


class Attention(nn.Module):
    """Causal multi-head self-attention: [B, T, C] -> [B, T, C]."""

    def __init__(self):
        super().__init__()
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(MODEL, MODEL, bias=False)
                                              for _ in range(4))

    def forward(self, x):
        b, t = x.shape[0], x.shape[1]

        def heads(y):  # [B, T, C] -> [B, heads, T, C / heads]
            return y.reshape((b, t, HEADS, MODEL // HEADS)).permute((0, 2, 1, 3))
        a = F.scaled_dot_product_attention(heads(self.wq(x)), heads(self.wk(x)),
                                           heads(self.wv(x)), is_causal=True)
        return self.wo(a.permute((0, 2, 1, 3)).reshape((b, t, MODEL)))


class Block(nn.Module):
    """x + attention(rms_norm(x)), then + mlp(rms_norm(x)); the MLP is GELU or SwiGLU."""

    def __init__(self, swiglu):
        super().__init__()
        self.norm1, self.attn, self.norm2 = nn.RMSNorm(MODEL, 1e-6), Attention(), nn.RMSNorm(
            MODEL, 1e-6)
        self.w_in = nn.Linear(MODEL, HIDDEN, bias=False)
        self.w_gate = nn.Linear(MODEL, HIDDEN, bias=False) if swiglu else None
        self.w_out = nn.Linear(HIDDEN, MODEL, bias=False)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        h = self.norm2(x)
        up = self.w_in(h)
        act = F.silu(self.w_gate(h)) * up if self.w_gate is not None else F.gelu(up)
        return x + self.w_out(act)


class CharTransformer(nn.Module):
    """tokens [B, T] -> logits [B, T, vocab]."""

    def __init__(self, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, MODEL)
        with kf.no_grad():
            self.embed.weight.mul_(0.1)  # tied: logits of a unit-rms vector stay near 1
        self.block1, self.block2 = Block(swiglu=False), Block(swiglu=True)
        self.norm = nn.RMSNorm(MODEL, 1e-6)

    def forward(self, tokens):
        x = self.block2(self.block1(self.embed(tokens)))
        return self.norm(x) @ self.embed.weight.T


def windows(ids, rng):
    """A batch of random windows of the text: inputs [B, T] and next characters [B, T]."""
    starts = [rng.randrange(len(ids) - SEQ - 1) for _ in range(BATCH)]
    x = [ids[s:s + SEQ] for s in starts]
    y = [ids[s + 1:s + SEQ + 1] for s in starts]
    return kf.asarray(x, dtype=kf.int64), kf.asarray(y, dtype=kf.int64)


def sample(model, chars, prompt, n):
    """n characters after prompt, each the most likely next one (greedy, deterministic)."""
    index = {c: i for i, c in enumerate(chars)}
    ids = [index[c] for c in prompt]
    with kf.no_grad():
        for _ in range(n):
            logits = model(kf.asarray([ids[-SEQ:]], dtype=kf.int64))
            ids.append(int(logits[0, -1].argmax().item()))
    return "".join(chars[i] for i in ids)


def pyplot():
    """matplotlib's pyplot on the Agg backend (files only, no display)."""
    try:
        import matplotlib
    except ImportError:
        sys.exit("train_transformer: the loss curve needs matplotlib: pip install matplotlib "
                 "(tools/install-deps.sh installs it)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot(losses, threshold, path):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    steps = range(1, len(losses) + 1)
    ax.plot(steps, losses, linewidth=0.8, alpha=0.5, label="loss of the step's batch")
    ax.plot(steps, [smoothed(losses[:i]) for i in steps], label=f"mean of the last {WINDOW}")
    ax.axhline(threshold, color="grey", linestyle="--", label=f"threshold {threshold}")
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy (nats / character)")
    ax.set_title("kernforge: character-level transformer")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def smoothed(losses):
    """The mean of the last WINDOW losses: what the threshold is compared with."""
    recent = losses[-WINDOW:]
    return sum(recent) / len(recent)


def train(model, ids, a):
    """The losses of every step until their running mean is under the threshold (or --steps
    run out)."""
    opt = kf.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    rng, losses = random.Random(0), []
    for step in range(1, a.steps + 1):
        x, y = windows(ids, rng)
        opt.zero_grad()
        loss = F.cross_entropy(model(x).reshape((-1, model.embed.num_embeddings)),
                               y.reshape((-1,)))
        loss.backward()
        opt.step()
        losses.append(loss.item())
        done = step >= WINDOW and smoothed(losses) < a.threshold
        if step % 25 == 0 or done:
            print(f"step {step:4d}  loss {losses[-1]:.4f}  mean of the last {WINDOW} "
                  f"{smoothed(losses):.4f}", flush=True)
        if done:
            break
    return losses


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=1500)
    p.add_argument("--threshold", type=float, default=1.4)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--plot", default=os.path.join(tempfile.gettempdir(),
                                                  "kernforge_train_transformer.png"))
    a = p.parse_args()
    pyplot()  # before training: a missing matplotlib is said at once
    with open(TEXT, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    ids = [index[c] for c in text]
    if a.threads:
        kf.set_num_threads(a.threads)
    kf.manual_seed(0)
    model = CharTransformer(len(chars))
    print(f"{len(text)} characters, vocabulary {len(chars)}, "
          f"{sum(p.numel() for p in model.parameters())} parameters; uniform loss "
          f"{math.log(len(chars)):.3f}", flush=True)
    losses = train(model, ids, a)
    plot(losses, a.threshold, a.plot)
    print(f"loss curve: {a.plot}")
    print("sample: " + repr(sample(model, chars, "A tensor ", 60)))
    final = smoothed(losses)
    if final >= a.threshold:
        print(f"the mean loss {final:.4f} is still above {a.threshold} after {a.steps} steps",
              file=sys.stderr)
        return 1
    print(f"reached a mean loss of {final:.4f} < {a.threshold} at step {len(losses)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
