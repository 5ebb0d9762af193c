"""Which engine a ``backend`` name means: torch.distributed's backend names map to the C ABI's
engine choices (docs/distributed.md, "Picking an engine")."""

# torch.distributed's names and the engine choice each means.
_ENGINES = {"gloo": "cpu:gloo", "mpi": "cpu:mpi", "nccl": "cuda:nccl"}


class Backend:
    """The backend names, as torch.distributed.Backend's attributes."""
    GLOO = "gloo"
    MPI = "mpi"
    NCCL = "nccl"


def engine_choice(backend):
    """The engine choice of `backend`: None is "cpu:gloo"; "gloo", "mpi", "nccl" are "cpu:gloo",
    "cpu:mpi", "cuda:nccl"; a c10d-style list ("cpu:gloo,cuda:nccl") goes as it is, and so does
    any other name (a third party's plugin name serves its plugin's device type)."""
    if backend is None:
        return _ENGINES["gloo"]
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a str such as 'gloo' or 'cpu:gloo,cuda:nccl', not "
                        f"{type(backend).__name__}")
    name = backend.strip().lower()
    if not name:
        raise ValueError("backend is empty: pass 'gloo', 'mpi', 'nccl' or an engine choice "
                         "such as 'cpu:gloo,cuda:nccl'")
    return _ENGINES.get(name, name)
