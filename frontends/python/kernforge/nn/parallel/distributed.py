"""``DistributedDataParallel``: one model replica per process, kept equal by averaging the
gradients over the ranks (docs/distributed.md, "Data-parallel training").

At construction the group's rank 0's parameters are broadcast to every rank, the parameters are grouped in
buckets of up to ``bucket_cap_mb`` (in reverse order, the order backward finishes them), and a
post-accumulate-grad hook is registered on each. Each forward (in training, with grad mode on,
outside ``no_sync()``) arms the next ``backward()``: as the engine accumulates a parameter's
``.grad`` its hook notes it, and once every gradient of a bucket has arrived the bucket's
gradients are flattened into one tensor, divided by the world size and its all-reduce (SUM) is
started with ``async_op=True``, while backward goes on computing the other gradients. Buckets
start strictly in order (bucket k only after buckets 0..k-1), so every rank makes the same
calls in the same order. When backward returns (the after-backward queue of
kernforge.autograd), the buckets not started yet, those holding a parameter that got no
gradient in this backward, are started in the same order with zeros for the missing gradients
(torch's find_unused_parameters, always on); then each work is waited for and each parameter's
``.grad`` becomes its slice of the averaged bucket.
"""

import contextlib
import weakref

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
    of `process_group` (None: the default group) before backward() returns, each bucket's
    all-reduce started during backward as soon as its gradients are all in."""

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
        self._reset_arrivals()
        self._hook_handles = self._register_hooks()

    def _broadcast_parameters(self, params):
        """Every rank starts from the group's rank 0's parameters (src is a global rank)."""
        src = self._dist.get_global_rank(self.process_group, 0)
        works = [self._dist.broadcast(p, src, group=self.process_group, async_op=True)
                 for p in params]
        for w in works:
            w.wait()

    def _register_hooks(self):
        """A hook per parameter, naming its bucket and place there. The hooks hold the wrapper
        weakly: the core keeps them as long as the parameters."""
        this = weakref.ref(self)

        def hook_for(b, i):
            def hook(_param):
                ddp = this()
                if ddp is not None:
                    ddp._gradient_arrived(b, i)
            return hook

        return [p.register_post_accumulate_grad_hook(hook_for(b, i))
                for b, bucket in enumerate(self._bucket_params) for i, p in enumerate(bucket)]

    def _reset_arrivals(self):
        self._arrived = [[False] * len(b) for b in self._bucket_params]
        self._missing = [len(b) for b in self._bucket_params]
        self._next_bucket = 0  # the next bucket to start: they start in order on every rank
        self._started = []     # (bucket, flat, work), in the order started

    def forward(self, *args, **kwargs):
        if self.training and self._require_sync and is_grad_enabled() and not self._queued:
            self._queued = True
            autograd._queue_after_backward(self._reduce_gradients)
        return self.module(*args, **kwargs)

    def _gradient_arrived(self, b, i):
        """A parameter's hook, during backward: once its bucket is complete, starts every
        complete bucket from the next one in order."""
        if not self._queued or self._arrived[b][i]:
            return
        self._arrived[b][i] = True
        self._missing[b] -= 1
        while (self._next_bucket < len(self._bucket_params) and
               self._missing[self._next_bucket] == 0):
            self._start_next_bucket()

    def _start_next_bucket(self):
        with no_grad():
            self._started.append(self._start_bucket(self._bucket_params[self._next_bucket]))
        self._next_bucket += 1

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
        """After backward: starts the buckets still waiting for a gradient (zeros for it), in
        order, then waits for every bucket and writes the averaged gradients back."""
        try:
            while self._next_bucket < len(self._bucket_params):
                self._start_next_bucket()
            with no_grad():
                for bucket, flat, work in self._started:
                    work.wait()
                    self._scatter_bucket(bucket, flat)
        finally:
            self._queued = False
            self._reset_arrivals()

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
