"""Training through an op a plugin defines: toy::scale (examples/toy_device) has a backward
formula (plugin ABI 2.1), so kf.ops.toy.scale records like any op and an optimizer trains
through it; a loss reduced to almost nothing is what "a plugin-defined op with a backward
trains" means. In a fresh interpreter, with the toy plugin built for the tests loaded."""

import os
import subprocess
import sys
import textwrap


def _run(code, env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=e,
                          capture_output=True, text=True, timeout=120)


def test_sgd_trains_through_a_plugin_op_with_a_backward(toy_dir):
    r = _run("""
        import kernforge as kf
        import kernforge.optim

        target = kf.asarray([3.0, -1.5, 0.75, 6.0]).to("toy")
        w = kf.zeros((4,)).to("toy").requires_grad_()
        opt = kernforge.optim.SGD([w], lr=0.02)
        losses = []
        for _ in range(40):
            opt.zero_grad()
            d = kf.ops.toy.scale(w, 3.0) - target
            loss = (d * d).sum()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print(kf.ops.toy.scale(w, 3.0).grad_fn, losses[0], losses[-1])
        print([round(v, 3) for v in w.to("cpu").tolist()])
    """, {"KERNFORGE_PLUGIN_PATH": toy_dir})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    fn, first, last = lines[0].split()
    assert fn == "toy::scale"
    assert float(first) > 10 and float(last) < float(first) * 1e-3, lines[0]
    assert lines[1] == "[1.0, -0.5, 0.25, 2.0]"
