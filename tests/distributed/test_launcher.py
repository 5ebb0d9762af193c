#!/usr/bin/env python3
"""`kernforge run` (tools/cli/run_command.cpp, rank_processes.cpp), on tiny shell ranks:

    test_launcher.py KERNFORGE

- every rank gets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, and
  all exiting 0 is exit 0;
- a rank that exits non-zero, or is killed by a signal, is named with its pid and why, the others
  are stopped (SIGTERM, then SIGKILL after the grace period for one that ignores SIGTERM), and
  the launcher exits non-zero;
- SIGTERM and SIGINT sent to the launcher reach every rank.
No timings are checked: each case only has to end (a hang fails by the subprocess limit).
"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

KERNFORGE = None
LIMIT = 60


def run(args, **kw):
    return subprocess.run([KERNFORGE, "run", *args], capture_output=True, text=True,
                          timeout=LIMIT, **kw)


class Launcher(unittest.TestCase):
    def test_variables_and_success(self):
        with tempfile.TemporaryDirectory() as d:
            script = ('echo "$RANK $LOCAL_RANK $WORLD_SIZE $LOCAL_WORLD_SIZE $MASTER_ADDR '
                      f'$MASTER_PORT" > {d}/rank_$RANK')
            r = run(["-n", "3", "--master-port", "29533", "--", "sh", "-c", script])
            self.assertEqual(r.returncode, 0, r.stderr)
            for rank in range(3):
                with open(f"{d}/rank_{rank}") as f:
                    self.assertEqual(f.read().split(), [str(rank), str(rank), "3", "3",
                                                        "127.0.0.1", "29533"])

    def test_free_port_without_double_dash(self):
        r = run(["-n", "2", "sh", "-c", 'test "$MASTER_PORT" -gt 0 && test "$WORLD_SIZE" = 2'])
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_failing_rank_is_named_and_the_others_stopped(self):
        script = 'if [ "$RANK" = 2 ]; then exit 3; fi; exec sleep 300'
        r = run(["-n", "3", "--", "sh", "-c", script])
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertRegex(r.stderr, r"rank 2 \(pid \d+\) exited with status 3; stopping")
        self.assertRegex(r.stderr, r"rank 0 \(pid \d+\) was killed by signal 15 \(SIGTERM\)")
        self.assertRegex(r.stderr, r"rank 1 \(pid \d+\) was killed by signal 15 \(SIGTERM\)")

    def test_rank_killed_by_a_signal_and_sigkill_after_the_grace(self):
        script = ('if [ "$RANK" = 1 ]; then sleep 0.2; kill -SEGV $$; fi; '
                  'trap "" TERM; sleep 300')
        r = run(["-n", "2", "--grace", "0.5", "--", "sh", "-c", script])
        self.assertEqual(r.returncode, 128 + 11, r.stderr)
        self.assertRegex(r.stderr, r"rank 1 \(pid \d+\) was killed by signal 11 \(SIGSEGV\)")
        self.assertRegex(r.stderr, r"rank 0 \(pid \d+\) was killed by signal 9 \(SIGKILL\)")

    def test_program_that_cannot_start(self):
        r = run(["-n", "2", "--", "/nonexistent/program"])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("cannot start '/nonexistent/program'", r.stderr)
        self.assertRegex(r.stderr, r"rank \d \(pid \d+\) exited with status 127")

    def forwarded(self, sig):
        with tempfile.TemporaryDirectory() as d:
            name = signal.Signals(sig).name
            script = (f'trap "echo got > {d}/$RANK; exit 0" {name[3:]}; touch {d}/up_$RANK; '
                      'while :; do sleep 0.05; done')
            p = subprocess.Popen([KERNFORGE, "run", "-n", "2", "--", "sh", "-c", script],
                                 stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + LIMIT
            while not all(os.path.exists(f"{d}/up_{r}") for r in range(2)):
                self.assertLess(time.monotonic(), deadline, "the ranks never started")
                time.sleep(0.05)
            p.send_signal(sig)
            _, err = p.communicate(timeout=LIMIT)
            self.assertEqual(p.returncode, 128 + sig, err)
            self.assertIn(f"got {name}; passing it to the ranks", err)
            for rank in range(2):
                self.assertTrue(os.path.exists(f"{d}/{rank}"), f"rank {rank} got no {name}")

    def test_sigterm_is_forwarded(self):
        self.forwarded(signal.SIGTERM)

    def test_sigint_is_forwarded(self):
        self.forwarded(signal.SIGINT)


if __name__ == "__main__":
    KERNFORGE = sys.argv.pop(1)
    unittest.main()
