#!/usr/bin/env python3
"""Starts the ranks of one collective test (tests/distributed) as real processes on loopback.

    run_ranks.py WORKER MODE --world W [--start S] [--timeout-ms T] [--limit SECONDS]

Runs `WORKER MODE <rank> <world> <folder> <timeout_ms>` for ranks 0..S-1 (S defaults to W: a
smaller S leaves ranks that never arrive) with a fresh rendezvous folder, GLOO_SOCKET_IFNAME=lo,
and waits at most --limit seconds: a rank still running then is a hang, reported and killed.
Exits 0 when every rank exited 0.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("worker")
    p.add_argument("mode")
    p.add_argument("--world", type=int, required=True)
    p.add_argument("--start", type=int, default=None)
    p.add_argument("--timeout-ms", type=int, default=5000)
    p.add_argument("--limit", type=float, default=60.0)
    return p.parse_args()


def start_ranks(args, folder):
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo")
    count = args.world if args.start is None else args.start
    return [subprocess.Popen([args.worker, args.mode, str(rank), str(args.world), folder,
                              str(args.timeout_ms)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
            for rank in range(count)]


def finish(rank, proc, deadline, limit):
    try:
        out, _ = proc.communicate(timeout=max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        print(f"rank {rank}: still running after {limit} s: a hang (killed)")
        print(out)
        return False
    print(f"rank {rank}: exit {proc.returncode}\n{out}", end="")
    return proc.returncode == 0


def main():
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="kf-rendezvous-") as folder:
        deadline = time.monotonic() + args.limit
        procs = start_ranks(args, folder)
        results = [finish(rank, proc, deadline, args.limit) for rank, proc in enumerate(procs)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
