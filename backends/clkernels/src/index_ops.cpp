// index_select and gather (kernels/index.cl), as the CPU backend's index_kernels.cpp: every
// index is checked against the size of self along dim before self is read at it, and an index
// outside 0..size-1 is KF_INVALID_ARGUMENT naming the value, its position and the valid range
// (the first bad one in the index's row-major order), with the CPU's message. Self, index and
// out may be any strided views (0-dim ones count as one element of one dim). The meta rules
// checked dtypes and shapes; the program is self's dtype, and the index keeps its own (int64, or
// int32 for index_select).
//
// Note [Index checks read back]
// The indices live in device memory, and the CPU reports a bad one as an error of the call before
// anything is written. So the host reads the index back (Device::read_back: the span of memory
// the view covers, after the stream's earlier work, waiting for it) and checks it before the
// launch: every index_select and gather with a non-empty index costs one wait for the stream and
// a copy of the index. That keeps the CPU's recoverable error and message; on failure nothing
// has been written. Backends whose devices cannot read back leave these ops to the fallback.
//
// Note [Index writes stay on the fallback]
// index_copy_ (the later entry wins where the index names a position twice), index_add_ and
// scatter_add_ (repeats add up in index order) must give the serial loop's result. Without
// atomics, the one way these kernels could is a work-item per destination that walks the whole
// index: destinations times the index's length, which made `x[idx] = v` of 1M indices into 16M
// elements 10^13 steps. The linear way, a per-position list of the entries built from the index
// the host reads back anyway, needs device scratch memory that Device cannot allocate yet; until
// it can, the three ops run on the CPU fallback, whose walk is linear.
#include <cstring>
#include <string>
#include <vector>

#include "clkernels/kernels.hpp"
#include "kernforge/index_errors.hpp"
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

/// The element offset of row-major position `i` of `v`.
int64_t offset_of(const kf_tensor_view_t& v, int64_t i) {
  int64_t off = 0;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    off += (i % v.shape[d]) * v.strides[d];
    i /= v.shape[d];
  }
  return off;
}

/// Reads the int32/int64 `index` back and checks each value, in row-major order, against
/// `size` (Note [Index checks read back]).
void check_indices(const kf_kernel_call_t& call, Device& device, const kf_tensor_view_t& index,
                   int32_t dim, int64_t size) {
  const int64_t n = index.numel;
  if (n == 0) return;
  const int64_t esize = index.dtype == KF_INT32 ? 4 : 8;
  int64_t lo = 0, hi = 0;  // the view's extent in elements around its data pointer
  for (int32_t d = 0; d < index.ndim; ++d) {
    const int64_t ext = (index.shape[d] - 1) * index.strides[d];
    (ext < 0 ? lo : hi) += ext;
  }
  std::vector<unsigned char> raw(static_cast<size_t>((hi - lo + 1) * esize));
  std::string error;
  const kf_status_t s = device.read_back(raw.data(), static_cast<const char*>(index.data) +
                                                         lo * esize,
                                         raw.size(), call.stream, error);
  if (s != KF_OK) throw kf::plugin::KernelError(s, "reading the index back: " + error);
  for (int64_t i = 0; i < n; ++i) {
    const size_t at = static_cast<size_t>((offset_of(index, i) - lo) * esize);
    int64_t v = 0;
    if (esize == 4) {
      int32_t v32 = 0;
      std::memcpy(&v32, raw.data() + at, 4);
      v = v32;
    } else {
      std::memcpy(&v, raw.data() + at, 8);
    }
    if (v < 0 || v >= size) throw kf::plugin::index_out_of_range(v, i, dim, size);
  }
}

/// A view of `nd` dims for merged_layout (which reads only the shape and strides).
kf_tensor_view_t dims_view(int32_t nd, const int64_t* shape, const int64_t* strides) {
  kf_tensor_view_t v{};
  v.ndim = nd;
  v.shape = shape;
  v.strides = strides;
  return v;
}

/// A view's stride along d, 0 for a 0-dim view (one element of one dim).
int64_t stride_at(const kf_tensor_view_t& v, int32_t d) { return v.ndim > 0 ? v.strides[d] : 0; }

void index_select_kernel(const ops::index_select::Args& a) {
  const int32_t nd = a.self.ndim > 0 ? a.self.ndim : 1;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + nd : a.dim);
  const int64_t size = a.self.ndim > 0 ? a.self.shape[dim] : 1;
  Device& device = device_of(a.call, a.out);
  check_indices(a.call, device, a.index, dim, size);
  if (a.out.numel == 0) return;
  int64_t shape[kMaxDims], so[kMaxDims], ss[kMaxDims], sj[kMaxDims];
  for (int32_t d = 0; d < nd; ++d) {
    shape[d] = a.out.ndim > 0 ? a.out.shape[d] : 1;
    so[d] = stride_at(a.out, d);
    ss[d] = d == dim ? 0 : stride_at(a.self, d);
    sj[d] = d == dim ? 1 : 0;
  }
  const kf_tensor_view_t views[3] = {dims_view(nd, shape, so), dims_view(nd, shape, ss),
                                     dims_view(nd, shape, sj)};
  const kf_tensor_view_t* pv[3] = {&views[0], &views[1], &views[2]};
  const KernelLayout layout = merged_layout(pv, 3, nullptr);
  const int64_t istride = a.index.ndim == 1 ? a.index.strides[0] : 0;
  const int64_t sdim = stride_at(a.self, dim);
  const int64_t n = a.out.numel;
  Launch launch;
  launch.program = {Family::Index, a.out.dtype};
  launch.kernel = a.index.dtype == KF_INT32 ? "index_select_i32" : "index_select_i64";
  launch.arg(pointer_arg(a.out.data)).arg(pointer_arg(a.self.data)).arg(pointer_arg(a.index.data));
  launch.arg(value_arg(istride)).arg(value_arg(sdim)).arg(value_arg(n)).arg(value_arg(layout));
  set_range_1d(launch, device, n);
  run(a.call, device, launch);
}

void gather_kernel(const ops::gather::Args& a) {
  const int32_t nd = a.index.ndim > 0 ? a.index.ndim : 1;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + nd : a.dim);
  const int64_t size = a.self.ndim > 0 ? a.self.shape[dim] : 1;
  Device& device = device_of(a.call, a.out);
  check_indices(a.call, device, a.index, dim, size);
  if (a.out.numel == 0) return;
  int64_t shape[kMaxDims], so[kMaxDims], si[kMaxDims], ss[kMaxDims];
  for (int32_t d = 0; d < nd; ++d) {
    shape[d] = a.index.ndim > 0 ? a.index.shape[d] : 1;
    so[d] = stride_at(a.out, d);
    si[d] = stride_at(a.index, d);
    ss[d] = d == dim ? 0 : stride_at(a.self, d);
  }
  const kf_tensor_view_t views[3] = {dims_view(nd, shape, so), dims_view(nd, shape, si),
                                     dims_view(nd, shape, ss)};
  const kf_tensor_view_t* pv[3] = {&views[0], &views[1], &views[2]};
  const KernelLayout layout = merged_layout(pv, 3, nullptr);
  const int64_t sdim = stride_at(a.self, dim);
  const int64_t n = a.out.numel;
  Launch launch;
  launch.program = {Family::Index, a.out.dtype};
  launch.kernel = "gather";
  launch.arg(pointer_arg(a.out.data)).arg(pointer_arg(a.index.data)).arg(pointer_arg(a.self.data));
  launch.arg(value_arg(sdim)).arg(value_arg(n)).arg(value_arg(layout));
  set_range_1d(launch, device, n);
  run(a.call, device, launch);
}

}  // namespace

kf_status_t register_index_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, index_select, index_select_kernel, kAllMask);
  KF_CLK_REGISTER(reg, gather, gather_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
