"""``DistributedDataParallel``: one model replica per process, kept equal by averaging the
gradients over the ranks (docs/distributed.md, "Data-parallel training").

At construction rank 0's parameters are broadcast to every rank. Each forward (in training, with
grad mode on, outside ``no_sync()``) queues the gradient all-reduce to run once the next
``backward()`` has put the gradients into ``.grad``: the parameters are grouped in buckets of up
to ``bucket_cap_mb`` (in reverse order, the order backward finishes them), each bucket's
gradients are flattened into one tensor and divided by the world size, every bucket's all-reduce
(SUM) is started with ``async_op=True``, and each parameter's ``.grad`` becomes its slice of the averaged bucket once
its work ended. The engine has no per-parameter gradient hook yet, so the all-reduces start
after backward rather than during it: the overlap of communication with backward is still to
come (an engine hook, then each bucket starts as soon as its last gradient is accumulated).
"""

import contextlib

from ... import autograd
from ..._grad_mode import is_grad_enabled, no_grad
from ..module import Module


def _buckets(params, cap_bytes):
    """Lists of parameters (one dtype and device each, in reverse order) of at most cap_bytes
    each, a larger parameter alone."""
    out, current, size = [], [], 0
    for p in reversed(params):
        nbytes = p.numel() * p.dtype.itemsize
        if current and (size + nbytes > cap_bytes or p.dtype != current[0].dtype or
                        p.device != current[0].device):
            out.append(current)
            current, size = [], 0
        current.append(p)
        size += nbytes
    if current:
        out.append(current)
    return out


class DistributedDataParallel(Module):
    """Wraps `module`: forward passes through; backward's gradients are averaged over the ranks
    of `process_group` (None: the default group) before backward() returns."""

    def __init__(self, module, process_group=None, bucket_cap_mb=25, broadcast_buffers=True):
        super().__init__()
        from ... import distributed as dist
        if bucket_cap_mb <= 0:
            raise ValueError(f"bucket_cap_mb must be positive, not {bucket_cap_mb}")
        self.module = module
        self.process_group = dist._process_group.default_group(process_group)
        self.broadcast_buffers = broadcast_buffers  # kernforge.nn's modules hold no buffers yet
        self._dist = dist
        self._require_sync = True
        self._queued = False
        params = [p for p in module.parameters() if p.requires_grad]
        self._bucket_params = _buckets(params, int(bucket_cap_mb * 1024 * 1024))
        self._broadcast_parameters(params)

    def _broadcast_parameters(self, params):
        """Every rank starts from rank 0's parameters."""
        works = [self._dist.broadcast(p, 0, group=self.process_group, async_op=True)
                 for p in params]
        for w in works:
            w.wait()

    def forward(self, *args, **kwargs):
        if self.training and self._require_sync and is_grad_enabled() and not self._queued:
            self._queued = True
            autograd._queue_after_backward(self._reduce_gradients)
        return self.module(*args, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Inside, backward only accumulates gradients locally; the first backward after a
        forward outside it averages everything accumulated since."""
        previous, self._require_sync = self._require_sync, False
        try:
            yield
        finally:
            self._require_sync = previous

    def _reduce_gradients(self):
        self._queued = False
        with no_grad():
            started = [self._start_bucket(b) for b in self._bucket_params]
            for bucket, flat, work in started:
                work.wait()
                self._scatter_bucket(bucket, flat)

    def _start_bucket(self, bucket):
        """Flattens the bucket's gradients (zeros for a parameter without one on this rank) and
        starts their all-reduce."""
        import kernforge as kf
        grads = [kf.zeros_like(p) if p.grad is None else p.grad for p in bucket]
        flat = kf.cat([g.reshape((-1,)) for g in grads])
        # Divided before the sum, as torch's DDP does: one vectorized pass of the cpu backend,
        # cheaper than the engine's AVG (gloo's plugin divides element by element after).
        if self.process_group.size() > 1:
            flat.div_(self.process_group.size())
        work = self._dist.all_reduce(flat, self._dist.ReduceOp.SUM, group=self.process_group,
                                     async_op=True)
        return bucket, flat, work

    @staticmethod
    def _scatter_bucket(bucket, flat):
        """Each parameter's .grad becomes its slice of the averaged bucket (a view of it)."""
        offset = 0
        for p in bucket:
            n = p.numel()
            p.grad = flat[offset:offset + n].reshape(p.shape)
            offset += n
