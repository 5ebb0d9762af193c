"""Autograd's memory: a graph is freed by the backward that walks it (its saved tensors and
intermediate results go back to the allocator), and a training loop's resident memory stays
flat over 10,000 steps; a graph 200,000 ops deep is freed and walked without deep recursion.
The checks read the allocator's live bytes (kf.memory_stats) and the process's resident set
(/proc/self/statm)."""

import os
import sys

import pytest

import kernforge as kf
from kernforge import nn
from kernforge.nn import functional as F



def live_bytes():
    return kf.memory_stats("cpu")["allocated_bytes"]


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_backward_frees_the_graph():
    x = kf.randn((256, 256), dtype=kf.float64).requires_grad_()
    before = live_bytes()
    h = x
    for _ in range(6):  # six saved intermediates of 512 KiB each, at least
        h = kf.tanh(h @ x) * 0.5
    loss = h.sum()
    held = live_bytes() - before
    assert held >= 6 * 256 * 256 * 8, f"the graph should hold its intermediates, holds {held}"
    loss.backward()
    del h, loss
    left = live_bytes() - before
    # What stays is x.grad (one 512 KiB tensor), not the graph.
    assert left <= 256 * 256 * 8, f"{left} bytes outlive the backward that freed the graph"
    x.grad = None
    assert live_bytes() - before <= 0


def test_a_retained_graph_is_freed_with_its_last_output():
    x = kf.randn((128, 128), dtype=kf.float64).requires_grad_()
    before = live_bytes()
    loss = (kf.exp(x @ x) * 1e-3).sum()
    loss.backward(retain_graph=True)
    loss.backward()  # the saved tensors were kept for this one
    x.grad = None
    del loss
    assert live_bytes() - before <= 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_resident_memory_stays_flat_over_10000_training_steps():
    kf.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = kf.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = kf.randn((8, 16)), kf.asarray([0, 1, 2, 3, 0, 1, 2, 3])

    def train(steps):
        for _ in range(steps):
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()

    train(1000)  # caches, the optimizer's state and the allocator's pools settle
    live, rss = live_bytes(), rss_bytes()
    train(9000)
    assert live_bytes() == live, "tensors outlive the steps that made them"
    growth = rss_bytes() - rss
    # 9,000 steps of ~40 ops each: a leak of even 8 bytes an op would be 2.9 MB.
    assert growth < 2 * 1024 * 1024, f"resident memory grew by {growth} bytes over 9,000 steps"


def test_a_deep_graph_frees_and_backpropagates_without_deep_recursion():
    # 200,000 ops in one chain: freed node by node from one queue (Note [Freeing a deep graph]),
    # not destructor inside destructor, which would overflow the stack.
    x = kf.ones((1,), dtype=kf.float64, requires_grad=True)
    y = x
    for _ in range(200_000):
        y = y * 1.0
    del y  # the whole graph, never walked
    y = x
    for _ in range(200_000):
        y = y * 1.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0]
