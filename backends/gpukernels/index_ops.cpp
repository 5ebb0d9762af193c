// index_ops.cpp — index_select and gather on CUDA, as the CPU backend's index_kernels.cpp:
// every index is checked against the size of self along dim before self is read at it, and an
// index outside 0..size-1 is KF_INVALID_ARGUMENT naming the value, its position and the valid
// range, with the CPU's message (the first bad index in row-major order of index). Self, index
// and out may be any strided views (0-dim ones count as one element of one dim). The meta
// rules checked dtypes and shapes; the kernel is picked for self's dtype, and the index keeps
// its own (int64, or int32 for index_select).
//
// Note [Index checks synchronize]
// The CPU reads the indices before it writes anything, and reports a bad one as an error of the
// call. On the GPU the indices live in device memory, so a check kernel records the first bad
// position (atomicMin on a flag in stream-ordered scratch memory), the flag is copied back and
// the stream is synchronized before the copy kernel is queued: every index_select and gather
// with a non-empty index costs one host synchronization. PyTorch instead asserts on the device
// (a bad index becomes a sticky device-side assert that kills the context); keeping the CPU's
// recoverable KF_INVALID_ARGUMENT and its message is worth the wait here. The flag is read
// into ordinary (pageable) host memory: for eight bytes a pinned buffer saves nothing
// measurable, and needs no lifetime management. On failure nothing has been written.
#include <climits>
#include <string>

#include "cuda_check.hpp"
#include "cuda_dtypes.hpp"
#include "index_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/index_errors.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kIndexMask = kCudaDtypes;  // the CPU's kAllMask

/// The element offset of row-major position `i` of `v`.
int64_t offset_of(const kf_tensor_view_t& v, int64_t i) {
  int64_t off = 0;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    off += (i % v.shape[d]) * v.strides[d];
    i /= v.shape[d];
  }
  return off;
}

/// Reads element `i` (row-major) of an int32/int64 device tensor, waiting for it.
int64_t read_index_value(const kf_tensor_view_t& index, int64_t i, cudaStream_t stream) {
  const char* p = static_cast<const char*>(index.data);
  int64_t value = 0;
  if (index.dtype == KF_INT32) {
    int32_t v32 = 0;
    check(cudaMemcpyAsync(&v32, p + offset_of(index, i) * 4, 4, cudaMemcpyDeviceToHost, stream),
          "reading a bad index back");
    check(cudaStreamSynchronize(stream), "reading a bad index back");
    value = v32;
  } else {
    check(cudaMemcpyAsync(&value, p + offset_of(index, i) * 8, 8, cudaMemcpyDeviceToHost, stream),
          "reading a bad index back");
    check(cudaStreamSynchronize(stream), "reading a bad index back");
  }
  return value;
}

/// Throws the CPU's error for the first index outside 0..size-1 (Note [Index checks
/// synchronize]).
void check_indices(const KernelScope& scope, const kf_tensor_view_t& index, int32_t dim,
                   int64_t size, const char* op) {
  if (index.numel == 0) return;
  if (index.ndim > KF_MAX_NDIM)
    throw kf::plugin::KernelError(KF_INTERNAL, "index has too many dims");
  const cudaStream_t stream = scope.stream();
  StreamScratch flag(sizeof(unsigned long long), stream);
  check(cudaMemsetAsync(flag.get(), 0xFF, sizeof(unsigned long long), stream), op);
  IndexCheck c;
  c.data = index.data;
  c.dtype = index.dtype;
  c.ndim = index.ndim;
  c.numel = index.numel;
  c.size = size;
  for (int32_t d = 0; d < index.ndim; ++d) {
    c.shape[d] = index.shape[d];
    c.strides[d] = index.strides[d];
  }
  c.first_bad = flag.as<unsigned long long>();
  launch_index_check(c, stream);
  scope.check(op);
  unsigned long long first = 0;
  check(cudaMemcpyAsync(&first, flag.get(), sizeof first, cudaMemcpyDeviceToHost, stream), op);
  check(cudaStreamSynchronize(stream), op);
  if (first == ULLONG_MAX) return;
  const int64_t position = static_cast<int64_t>(first);
  throw kf::plugin::index_out_of_range(read_index_value(index, position, stream), position, dim,
                                       size);
}

void require_index_dtype(const kf_tensor_view_t& index, bool int32_ok, const char* op) {
  if (index.dtype != KF_INT64 && !(int32_ok && index.dtype == KF_INT32)) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string(op) + ": index has dtype " +
                                                   kf_dtype_string(index.dtype));
  }
}

IndexSelectLaunch select_launch(const ops::index_select::Args& a, int32_t dim, int64_t size) {
  IndexSelectLaunch l;
  l.out = a.out.data;
  l.self = a.self.data;
  l.index = a.index.data;
  l.index_dtype = a.index.dtype;
  l.width = static_cast<int32_t>(kf_dtype_itemsize(a.out.dtype));
  l.bool_elements = a.out.dtype == KF_BOOL ? 1 : 0;
  l.ndim = a.self.ndim;
  l.dim = dim;
  l.numel = a.out.numel;
  l.index_stride = a.index.ndim == 1 ? a.index.strides[0] : 0;
  l.size = size;
  l.count = a.index.numel;
  for (int32_t d = 0; d < a.self.ndim; ++d) {
    l.shape[d] = a.out.shape[d];
    l.out_strides[d] = a.out.strides[d];
    l.self_strides[d] = a.self.strides[d];
    if (d < dim) l.outer *= a.self.shape[d];
    if (d > dim) l.inner *= a.self.shape[d];
  }
  l.dense = a.self.ndim > 0 && is_contiguous(a.out) && is_contiguous(a.self) ? 1 : 0;
  return l;
}

void index_select_kernel(const ops::index_select::Args& a) {
  require_index_dtype(a.index, true, "index_select");
  const int32_t nd = a.self.ndim;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + (nd > 0 ? nd : 1) : a.dim);
  if (nd > KF_MAX_NDIM || dim < 0 || (nd > 0 && dim >= nd) || a.out.ndim != nd) {
    throw kf::plugin::KernelError(KF_INTERNAL, "index_select: dim or ranks do not match");
  }
  const int64_t size = nd > 0 ? a.self.shape[dim] : 1;
  KernelScope scope(a.call, a.out);
  check_indices(scope, a.index, dim, size, "index_select");
  if (a.out.numel == 0) return;
  launch_index_select(select_launch(a, dim, size), scope.stream());
  scope.check("index_select");
}

/// The CPU's GatherGeom: index's shape (a 0-dim index as one dim of size 1), its strides and
/// out's and self's (0 for 0-dim tensors).
GatherLaunch gather_launch(const ops::gather::Args& a) {
  GatherLaunch l;
  l.ndim = a.index.ndim > 0 ? a.index.ndim : 1;
  const int32_t snd = a.self.ndim;
  l.dim = static_cast<int32_t>(a.dim < 0 ? a.dim + l.ndim : a.dim);
  if (l.ndim > KF_MAX_NDIM || l.dim < 0 || l.dim >= l.ndim || (snd > 0 && snd != l.ndim) ||
      (a.out.ndim > 0 && a.out.ndim != l.ndim)) {
    throw kf::plugin::KernelError(KF_INTERNAL, "gather: dim or ranks do not match");
  }
  for (int32_t d = 0; d < l.ndim; ++d) {
    l.shape[d] = a.index.ndim > 0 ? a.index.shape[d] : 1;
    l.index_strides[d] = a.index.ndim > 0 ? a.index.strides[d] : 0;
    l.out_strides[d] = a.out.ndim > 0 ? a.out.strides[d] : 0;
    l.self_strides[d] = snd > 0 ? a.self.strides[d] : 0;
  }
  l.size = snd > 0 ? a.self.shape[l.dim] : 1;
  l.out = a.out.data;
  l.self = a.self.data;
  l.index = static_cast<const int64_t*>(a.index.data);
  l.width = static_cast<int32_t>(kf_dtype_itemsize(a.out.dtype));
  l.bool_elements = a.out.dtype == KF_BOOL ? 1 : 0;
  l.numel = a.out.numel;
  return l;
}

void gather_kernel(const ops::gather::Args& a) {
  require_index_dtype(a.index, false, "gather");
  if (a.out.numel == 0) return;
  const GatherLaunch l = gather_launch(a);
  KernelScope scope(a.call, a.out);
  check_indices(scope, a.index, l.dim, l.size, "gather");
  launch_gather(l, scope.stream());
  scope.check("gather");
}

}  // namespace

kf_status_t register_index_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, index_select, index_select_kernel, kIndexMask);
  KF_REGISTER_KERNEL(reg, gather, gather_kernel, kIndexMask);
  return KF_OK;
}

}  // namespace kf::cuda
