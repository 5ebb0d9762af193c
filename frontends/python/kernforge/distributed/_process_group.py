"""The default process group: ``init_process_group`` joins a communicator (kf_comm_create),
``destroy_process_group`` leaves it; ``get_rank``, ``get_world_size`` and ``get_backend`` read
it. One default group per process, as torch.distributed's; ``new_group`` splits it into
groups of some of its ranks."""

import atexit
import datetime

from .. import _C
from ._engines import engine_choice


class ProcessGroup:
    """A communicator: the default group's of every rank, or new_group's of some (`ranks`,
    their ranks in the default group, sorted: group rank i is ranks[i]); its rank and size are
    read once."""

    def __init__(self, comm, backend, ranks=None):
        self._comm = comm
        self.backend = backend
        self._rank = comm.rank
        self._size = comm.world_size
        self._ranks = ranks  # None: the default group, whose ranks are the global ones

    def rank(self):
        return self._rank

    def size(self):
        return self._size

    def _group_rank(self, global_rank, what):
        """The group rank of a global rank (what torch's calls take as src and dst)."""
        if self._ranks is None:
            return global_rank
        if global_rank not in self._ranks:
            raise ValueError(f"{what}: rank {global_rank} is not in the group (its ranks: "
                             f"{self._ranks}): pass a global rank of one of its members")
        return self._ranks.index(global_rank)

    def __repr__(self):
        return f"ProcessGroup(backend={self.backend!r}, rank={self._rank}, size={self._size})"


class _NonGroupMember:
    """What new_group gives a rank outside `ranks`: every call with it raises."""

    def __repr__(self):
        return "GroupMember.NON_GROUP_MEMBER"


class GroupMember:
    """torch.distributed's: NON_GROUP_MEMBER is the group new_group gives a rank that is not
    in it (get_rank and get_world_size give -1 for it, every collective raises)."""
    NON_GROUP_MEMBER = _NonGroupMember()


_default = None
_subgroups = []  # new_group's, destroyed with the default group


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
    """Leaves `group`; None: every group (new_group's, then the default one). Works still
    pending finish first."""
    global _default
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    if group is None:
        while _subgroups:
            _subgroups.pop()._comm.destroy()
        if _default is not None:
            _default._comm.destroy()
            _default = None
        return
    group._comm.destroy()
    if group in _subgroups:
        _subgroups.remove(group)
    if group is _default:
        _default = None


def default_group(group=None):
    """`group`, or the default one; RuntimeError when there is none, or for a group this rank
    is not in."""
    if group is GroupMember.NON_GROUP_MEMBER:
        raise RuntimeError("this rank is not a member of the group (new_group gave it "
                           "GroupMember.NON_GROUP_MEMBER): only the ranks passed to new_group "
                           "may call collectives on it")
    if group is not None:
        return group
    if _default is None:
        raise RuntimeError("the default process group is not initialized: call "
                           "kernforge.distributed.init_process_group() first")
    return _default


def get_rank(group=None):
    """This process's rank in the group (0 .. world size - 1); -1 for a group it is not in."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return default_group(group)._rank


def get_world_size(group=None):
    """The number of ranks in the group; -1 for a group this rank is not in."""
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return default_group(group)._size


def new_group(ranks=None, timeout=None, backend=None):
    """A group of some ranks of the default group (torch.distributed's new_group): every rank
    calls it, in the same order as its other calls, with the same `ranks` (global ranks; None:
    all). A rank in `ranks` gets the new ProcessGroup (its rank there is its place in
    sorted(ranks)); one outside gets GroupMember.NON_GROUP_MEMBER. The group is a split of the
    default group's communicator (kf_comm_split), with its engines and timeout: `timeout` and
    `backend` may only repeat them."""
    pg = default_group()
    members = _members(ranks, pg._size)
    if backend is not None and backend != pg.backend:
        raise ValueError(f"new_group: backend {backend!r} differs from the default group's "
                         f"{pg.backend!r}: a group is a split of the default group's "
                         f"communicator and has its engines; pass backend=None")
    if timeout is not None:
        _timeout_ms(timeout)  # its type and sign
        raise ValueError("new_group: a group has the default group's timeout (a split keeps "
                         "it): pass timeout=None, or give the timeout to init_process_group")
    mine = pg._rank in members
    comm = pg._comm.split(0 if mine else _C.NO_COLOR, pg._rank)
    if comm is None:
        return GroupMember.NON_GROUP_MEMBER
    group = ProcessGroup(comm, pg.backend, members)
    _subgroups.append(group)
    return group


def _members(ranks, world):
    if ranks is None:
        return list(range(world))
    out = sorted(set(int(r) for r in ranks))
    if not out:
        raise ValueError("new_group: ranks is empty: name at least one rank")
    if out[0] < 0 or out[-1] >= world:
        raise ValueError(f"new_group: ranks {list(ranks)} are not all in 0 .. {world - 1}, the "
                         f"default group's ranks")
    return out


def get_group_rank(group, global_rank):
    """The rank in `group` of the default group's rank `global_rank`."""
    return default_group(group)._group_rank(global_rank, "get_group_rank")


def get_global_rank(group, group_rank):
    """The default group's rank of rank `group_rank` of `group`."""
    pg = default_group(group)
    if not 0 <= group_rank < pg._size:
        raise ValueError(f"get_global_rank: group rank {group_rank} is not in 0 .. "
                         f"{pg._size - 1}")
    return group_rank if pg._ranks is None else pg._ranks[group_rank]


def get_backend(group=None):
    """The backend the group was made with ("gloo", or the engine choice given)."""
    return default_group(group).backend


# A group still joined at exit is left before the runtime's plugins go away.
atexit.register(destroy_process_group)
