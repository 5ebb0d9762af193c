#!/usr/bin/env python3
"""Starts the ranks of one collective test (tests/distributed) as real processes on loopback.

    run_ranks.py WORKER MODE --world W [--start S] [--timeout-ms T] [--limit SECONDS]
                 [--mpirun MPIRUN]

Runs `WORKER MODE <rank> <world> <folder> <timeout_ms>` for ranks 0..S-1 (S defaults to W: a
smaller S leaves ranks that never arrive) with a fresh rendezvous folder, GLOO_SOCKET_IFNAME=lo,
and waits at most --limit seconds: a rank still running then is a hang, reported and killed.
Exits 0 when every rank exited 0.

With --mpirun, Open MPI's mpirun starts the W ranks instead (`MPIRUN --noprefix -np W
--oversubscribe WORKER MODE -1 W mpi:// <timeout_ms>`: each rank's number comes from mpirun), with the
variables that let mpirun run as root set for it alone (and KF_MPI_BLOCKING_BYTES passed on
when set); exits with mpirun's status.
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
    p.add_argument("--mpirun", default=None)
    return p.parse_args()


def start_ranks(args, folder):
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo")
    count = args.world if args.start is None else args.start
    return [subprocess.Popen([args.worker, args.mode, str(rank), str(args.world), folder,
                              str(args.timeout_ms)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
            for rank in range(count)]


def start_mpirun(args):
    # Open MPI refuses root without these; they are set for this mpirun only. Oversubscribing
    # lets 4 ranks share fewer cores; the shared-memory transport (vader) moves the data.
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader")
    passed = [arg for name in ("KF_MPI_BLOCKING_BYTES",) if name in env for arg in ("-x", name)]
    # --noprefix: mpirun named by its absolute path would put its own prefix's lib folder
    # (/usr/lib) on the ranks' LD_LIBRARY_PATH, ahead of the worker's RUNPATH, and an installed
    # libkernforge there would stand in for the build's.
    command = [args.mpirun, "--noprefix", "-np", str(args.world), "--oversubscribe", *passed,
               args.worker, args.mode, "-1", str(args.world), "mpi://", str(args.timeout_ms)]
    return [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)]


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
        procs = start_mpirun(args) if args.mpirun else start_ranks(args, folder)
        results = [finish(rank, proc, deadline, args.limit) for rank, proc in enumerate(procs)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
