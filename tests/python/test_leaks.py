"""What the extension keeps alive at interpreter exit, as nanobind's leak report says it
(KERNFORGE_LEAK_WARNINGS=1 turns the report on; module.cpp, Note [nanobind's leak report]).
Each case runs in a fresh interpreter."""

import os
import subprocess
import sys
import textwrap


def run(code, warnings="1"):
    env = dict(os.environ)
    env.pop("KERNFORGE_LEAK_WARNINGS", None)
    if warnings is not None:
        env["KERNFORGE_LEAK_WARNINGS"] = warnings
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stderr


_SESSION = """
    import kernforge as kf
    x = kf.ones((3, 4)); y = (x + 1) @ x.T
    d = {t.dtype: t.tolist() for t in (x, y, kf.zeros(2, dtype=kf.int32))}
    for bad in (lambda: kf.add(x, "no"), lambda: x.sum(dim=9), lambda: kf.tensor([1, [2]])):
        try:
            bad()
        except Exception as e:
            kept = e  # a traceback through the generated functions, kept to the end
    kf.doctor(); kf.backends(); str(kf.float64); kf.dtype_from_name('int8')
    it = [r.sum() for r in y]
"""


def test_a_session_leaves_nothing_of_the_extension_alive():
    assert "nanobind: leaked" not in run(_SESSION)


def test_a_function_kept_by_a_daemon_thread_keeps_only_its_own_op():
    err = run("""
        import threading, time
        import kernforge as kf
        def hold():
            f = kf.ops.add
            time.sleep(600)
        threading.Thread(target=hold, daemon=True).start()
        time.sleep(0.2)
    """)
    # The thread's frame is never freed: its one op stays (before, every op of the registry
    # stayed, through one dict of globals all op functions shared).
    assert "nanobind: leaked 1 instances!" in err, err
    assert err.count('of type "kernforge._C.Op"') == 1, err


def test_the_report_is_off_unless_asked_for():
    code = """
        import threading, time
        import kernforge as kf
        threading.Thread(target=lambda: (kf.ones(2), time.sleep(600)), daemon=True).start()
        time.sleep(0.2)
    """
    assert "nanobind: leaked" not in run(code, warnings=None)
    assert "nanobind: leaked" in run(code, warnings="1")
