"""The default process group: ``init_process_group`` joins a communicator (kf_comm_create),
``destroy_process_group`` leaves it; ``get_rank``, ``get_world_size`` and ``get_backend`` read
it. One default group per process, as torch.distributed's."""

import atexit
import datetime

from .. import _C
from ._engines import engine_choice


class ProcessGroup:
    """A communicator of every rank (the default group); its rank and size are read once."""

    def __init__(self, comm, backend):
        self._comm = comm
        self.backend = backend
        self._rank = comm.rank
        self._size = comm.world_size

    def rank(self):
        return self._rank

    def size(self):
        return self._size

    def __repr__(self):
        return f"ProcessGroup(backend={self.backend!r}, rank={self._rank}, size={self._size})"


_default = None


def is_available():
    """True: kernforge always has the distributed package (its engines are plugins)."""
    return True


def is_initialized():
    """Whether init_process_group made the default group (and it was not destroyed since)."""
    return _default is not None


def _timeout_ms(timeout):
    if timeout is None:
        return 0  # the C ABI's default: 30 minutes
    if not isinstance(timeout, datetime.timedelta):
        raise TypeError(f"timeout must be a datetime.timedelta, not {type(timeout).__name__}")
    ms = int(timeout.total_seconds() * 1000)
    if ms <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    return ms


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1):
    """Joins the default group; returns once every rank arrived (TimeoutError when not all did
    inside `timeout`, a datetime.timedelta; None: 30 minutes).

    backend: "gloo" (the default), "mpi", "nccl", or an engine choice "cpu:gloo,cuda:nccl".
    init_method: "env://" (the default: torchrun's RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT)
    or "file://<absolute folder>" (a folder every rank can write; it must exist; then `rank` and
    `world_size` are needed)."""
    global _default
    if _default is not None:
        raise RuntimeError("init_process_group: the default process group is already "
                           "initialized; call destroy_process_group() first to make another")
    engine = engine_choice(backend)
    rendezvous = "env://" if init_method is None else str(init_method)
    comm = _C.Communicator(engine, rendezvous, int(rank), int(world_size), _timeout_ms(timeout))
    _default = ProcessGroup(comm, backend if backend is not None else "gloo")


def destroy_process_group(group=None):
    """Leaves the default group (or `group`, which is it). Works still pending finish first."""
    global _default
    pg = _default if group is None else group
    if pg is None:
        return
    pg._comm.destroy()
    if pg is _default:
        _default = None


def default_group(group=None):
    """`group`, or the default one; RuntimeError when there is none."""
    if group is not None:
        return group
    if _default is None:
        raise RuntimeError("the default process group is not initialized: call "
                           "kernforge.distributed.init_process_group() first")
    return _default


def get_rank(group=None):
    """This process's rank in the group (0 .. world size - 1)."""
    return default_group(group)._rank


def get_world_size(group=None):
    """The number of ranks in the group."""
    return default_group(group)._size


def get_backend(group=None):
    """The backend the group was made with ("gloo", or the engine choice given)."""
    return default_group(group).backend


# A group still joined at exit is left before the runtime's plugins go away.
atexit.register(destroy_process_group)
