"""DistributedDataParallel (kernforge.nn.parallel) on gloo, 2 and 4 real processes (ranks.py,
ddp_cases.py): after several steps on their shards of a fixed global batch, every rank holds
rank 0's parameters, and they match the same MLP trained in one process on the whole batch
within float32 tolerance; with SGD and momentum, with AdamW and one bucket per parameter, and
with gradient accumulation under no_sync(); with parameters that get no gradient on some ranks
or on all (their buckets reduced after backward, zeros for the missing gradients)."""

import pytest

from ranks import gloo_available, run_ranks

ok, why = gloo_available()
pytestmark = pytest.mark.skipif(not ok, reason=f"the gloo collective plugin is not loaded: {why}")


@pytest.mark.parametrize("world", [2, 4])
def test_ddp_matches_single_process_training(tmp_path, world):
    run_ranks("ddp_sgd", world, tmp_path)


def test_ddp_with_small_buckets_and_adamw(tmp_path):
    run_ranks("ddp_adamw_small_buckets", 2, tmp_path)


def test_ddp_no_sync_accumulates_locally(tmp_path):
    run_ranks("ddp_no_sync", 2, tmp_path)


@pytest.mark.parametrize("world", [2, 4])
def test_ddp_with_unused_parameters_does_not_hang(tmp_path, world):
    run_ranks("ddp_unused_parameters", world, tmp_path)
