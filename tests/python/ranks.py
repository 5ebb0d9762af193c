"""Starts the ranks of a kernforge.distributed test as real processes (distributed_worker.py),
meeting through file:// in a fresh folder on loopback, and waits for them; a rank still running
after `limit` seconds is a hang: killed, and the test fails saying so."""

import os
import subprocess
import sys
import time

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "distributed_worker.py")


def gloo_available():
    """Whether the gloo collective plugin loads here (its reason when not)."""
    import kernforge as kf
    for c in kf.doctor().data["runtime"].get("collectives", []):
        if c["name"] == "gloo":
            return c["state"] == "loaded", c.get("reason", "")
    return False, "no gloo collective plugin was found (KF_BACKEND_GLOO, libgloo-dev)"


def run_ranks(scenario, world, folder, timeout_ms=10000, start=None, limit=60, env_of=None):
    """Runs ranks 0 .. start-1 (start defaults to world) of `scenario`, each with the variables
    env_of(rank) adds; returns their outputs after asserting that each exited 0."""
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo", KERNFORGE_NUM_THREADS="1")
    procs = [subprocess.Popen([sys.executable, WORKER, scenario, str(r), str(world),
                               str(folder), str(timeout_ms)],
                              env=dict(env, **(env_of(r) if env_of else {})),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for r in range(world if start is None else start)]
    deadline = time.monotonic() + limit
    outs, failed = [], []
    for rank, p in enumerate(procs):
        try:
            out, _ = p.communicate(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            out = p.communicate()[0] + f"\nrank {rank}: still running after {limit} s: a hang"
        outs.append(out)
        if p.returncode != 0 or not out.rstrip().endswith("ok"):
            failed.append(f"--- rank {rank} (exit {p.returncode}):\n{out}")
    assert not failed, "\n".join(failed)
    return outs
