"""The reference of the GPU tiny-op figure: torch.add of two 1-element float32 CUDA tensors, a
new output each time, timed like kernforge_bench_cuda's BM_KfCudaAddTiny (batches of 20 between
two synchronizations, the median of 200 batches). Usage: torch_tiny_add.py [OUT.json]."""
import json
import statistics
import sys
import time

import torch

a = torch.rand(1, device="cuda")
b = torch.rand(1, device="cuda")
for _ in range(100):
    torch.add(a, b)
torch.cuda.synchronize()
per_op = []
for _ in range(200):
    start = time.perf_counter()
    for _ in range(20):
        torch.add(a, b)
    torch.cuda.synchronize()
    per_op.append((time.perf_counter() - start) / 20)
median_us = statistics.median(per_op) * 1e6
print(f"torch {torch.__version__}: torch.add 1 f32 on cuda: {median_us:.2f} us/op "
      f"(median of 200 batches of 20)")
if len(sys.argv) > 1:  # the JSON benchmarks/cuda_budgets.py reads
    with open(sys.argv[1], "w") as f:
        json.dump({"torch_version": torch.__version__, "median_us": median_us}, f)
