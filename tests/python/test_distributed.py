"""kernforge.distributed on gloo, with real processes meeting through file:// (ranks.py,
distributed_worker.py): every call, synchronous and async, for several dtypes and shapes against
numpy references on 2 and 4 ranks; the errors (bad arguments, a rank out of range, a tensor that
is not contiguous, a destroyed group) and the timeouts (a rank that never calls, a rank that
never arrives) as the documented exceptions; init_process_group() with torchrun's variables
(env://); and new_group on 4 ranks (group_cases.py)."""

import socket

import pytest

from ranks import gloo_available, run_ranks

ok, why = gloo_available()
pytestmark = pytest.mark.skipif(not ok, reason=f"the gloo collective plugin is not loaded: {why}")


@pytest.mark.parametrize("world", [2, 4])
def test_every_call_matches_numpy(tmp_path, world):
    run_ranks("collectives", world, tmp_path)


def test_errors_raise_the_documented_exceptions(tmp_path):
    run_ranks("errors", 2, tmp_path)


def test_a_rank_that_never_calls_is_a_timeout_error(tmp_path):
    run_ranks("stalled_call", 2, tmp_path, timeout_ms=1500, limit=30)


def test_a_rank_that_never_arrives_is_a_timeout_error(tmp_path):
    run_ranks("absent_rank", 2, tmp_path, timeout_ms=1500, start=1, limit=30)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_init_process_group_reads_torchruns_variables(tmp_path):
    port = free_port()
    run_ranks("env_rendezvous", 2, tmp_path, env_of=lambda r: {
        "RANK": str(r), "LOCAL_RANK": str(r), "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": str(port)})


def test_new_group_on_4_ranks_matches_numpy_and_refuses_non_members(tmp_path):
    run_ranks("groups", 4, tmp_path)
