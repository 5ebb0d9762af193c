// index_select, gather, index_copy_, index_add_ and scatter_add_ (kernels/index.cl), as the CPU
// backend's index_kernels.cpp and scatter_kernels.cpp: every index
// is checked against the size of self along dim before self is read at it, and an index outside
// 0..size-1 is KF_INVALID_ARGUMENT naming the value, its position and the valid range (the first
// bad one in the index's row-major order), with the CPU's message. Self, index and out may be any
// strided views (0-dim ones count as one element of one dim). The meta rules checked dtypes and
// shapes; the program is self's dtype, and the index keeps its own (int64, or int32 for
// index_select).
//
// Note [Index checks read back]
// The indices live in device memory, and the CPU reports a bad one as an error of the call before
// anything is written. So the host reads the index back (Device::read_back: the span of memory
// the view covers, after the stream's earlier work, waiting for it) and checks it before the
// launch: every index_select and gather with a non-empty index costs one wait for the stream and
// a copy of the index. That keeps the CPU's recoverable error and message; on failure nothing
// has been written. Backends whose devices cannot read back leave these ops to the fallback.
//
// Note [Per-destination index writes]
// index_copy_ (the later entry wins where the index names a position twice), index_add_ and
// scatter_add_ (repeats add up in index order) must not race: one work-item per destination
// element (scatter_add_: per position along dim and coordinates of index outside it) walks the
// index along dim and applies the entries naming its position, in order, so every result is the
// serial loop's, with no atomics. That costs the destinations times the index's length along
// dim; the index is short next to self in the common uses (a batch of rows).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "clkernels/kernels.hpp"
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

[[noreturn]] void bad_index(const char* prefix, int64_t value, int64_t position, int32_t dim,
                            int64_t size) {
  std::string msg = std::string(prefix) + "index " + std::to_string(value) + " (at position " +
                    std::to_string(position) + " of index) is out of range for dim " +
                    std::to_string(dim) + " of size " + std::to_string(size);
  msg += size > 0 ? " (valid: 0.." + std::to_string(size - 1) + ")" : " (the dim is empty)";
  throw kf::plugin::KernelError(KF_INVALID_ARGUMENT, msg);
}

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
/// `size` (Note [Index checks read back]); `prefix` starts the message of a bad one, as the
/// CPU backend's ("scatter_add_: ", or nothing).
void check_indices(const kf_kernel_call_t& call, Device& device, const kf_tensor_view_t& index,
                   int32_t dim, int64_t size, const char* prefix = "") {
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
    if (v < 0 || v >= size) bad_index(prefix, v, i, dim, size);
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

/// Copies self into out when out is not self (the in-place ops called functionally, as the CPU
/// fallback does, start from a copy of self).
void copy_self(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
               const kf_tensor_view_t& self) {
  if (out.data == self.data) return;
  char copy[32];
  std::snprintf(copy, sizeof copy, "copy_from_%s", short_name(self.dtype));
  run_elementwise(call, {Family::Copy, out.dtype}, copy, {&out, &self}, {});
}

/// index_copy_ (add false) and index_add_ into out, which starts as a copy of self when it is
/// not self (the CPU fallback's contract: the functional form of the in-place op).
void index_write(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
                 const kf_tensor_view_t& self, int64_t dim64, const kf_tensor_view_t& index,
                 const kf_tensor_view_t& source, const kf_scalar_t& alpha, bool add) {
  const int32_t nd = out.ndim > 0 ? out.ndim : 1;
  const int32_t dim = static_cast<int32_t>(dim64 < 0 ? dim64 + nd : dim64);
  Device& device = device_of(call, out);
  check_indices(call, device, index, dim, out.ndim > 0 ? out.shape[dim] : 1);
  copy_self(call, out, self);
  if (source.numel == 0 || out.numel == 0) return;
  int64_t shape[kMaxDims], so[kMaxDims], sp[kMaxDims], ss[kMaxDims];
  for (int32_t d = 0; d < nd; ++d) {
    shape[d] = out.ndim > 0 ? out.shape[d] : 1;
    so[d] = stride_at(out, d);
    sp[d] = d == dim ? 1 : 0;
    ss[d] = d == dim ? 0 : stride_at(source, d);
  }
  const kf_tensor_view_t views[3] = {dims_view(nd, shape, so), dims_view(nd, shape, sp),
                                     dims_view(nd, shape, ss)};
  const kf_tensor_view_t* pv[3] = {&views[0], &views[1], &views[2]};
  const KernelLayout layout = merged_layout(pv, 3, nullptr);
  const int64_t k = index.numel, istride = index.ndim == 1 ? index.strides[0] : 0;
  const int64_t sdim = stride_at(source, dim), n = out.numel;
  const ComputeScalar a = compute_scalar(out.dtype, alpha);
  const int32_t add_flag = add ? 1 : 0;
  Launch launch;
  launch.program = {Family::Index, out.dtype};
  launch.kernel = index.dtype == KF_INT32 ? "index_write_i32" : "index_write_i64";
  launch.arg(pointer_arg(out.data)).arg(pointer_arg(source.data)).arg(pointer_arg(index.data));
  launch.arg(value_arg(k)).arg(value_arg(istride)).arg(value_arg(sdim)).arg(a.arg());
  launch.arg(value_arg(add_flag)).arg(value_arg(n)).arg(value_arg(layout));
  set_range_1d(launch, device, n);
  run(call, device, launch);
}

void index_copy__kernel(const ops::index_copy_::Args& a) {
  index_write(a.call, a.out, a.self, a.dim, a.index, a.source, kf_scalar_i64(1), false);
}
void index_add__kernel(const ops::index_add_::Args& a) {
  index_write(a.call, a.out, a.self, a.dim, a.index, a.source, a.alpha, true);
}

/// scatter_add_ into out, which starts as a copy of self when it is not self.
void scatter_add__kernel(const ops::scatter_add_::Args& a) {
  const int32_t nd = a.index.ndim > 0 ? a.index.ndim : 1;
  const int32_t dim = static_cast<int32_t>(a.dim < 0 ? a.dim + nd : a.dim);
  Device& device = device_of(a.call, a.out);
  check_indices(a.call, device, a.index, dim, a.out.ndim > 0 ? a.out.shape[dim] : 1,
                "scatter_add_: ");
  copy_self(a.call, a.out, a.self);
  if (a.index.numel == 0) return;
  int64_t shape[kMaxDims], so[kMaxDims], si[kMaxDims], ss[kMaxDims], sp[kMaxDims];
  int64_t n = 1;
  for (int32_t d = 0; d < nd; ++d) {
    const int64_t extent = a.index.ndim > 0 ? a.index.shape[d] : 1;
    shape[d] = d == dim ? (a.out.ndim > 0 ? a.out.shape[d] : 1) : extent;
    so[d] = stride_at(a.out, d);
    si[d] = d == dim ? 0 : stride_at(a.index, d);
    ss[d] = d == dim ? 0 : stride_at(a.src, d);
    sp[d] = d == dim ? 1 : 0;
    n *= shape[d];
  }
  if (n == 0) return;
  const kf_tensor_view_t views[4] = {dims_view(nd, shape, so), dims_view(nd, shape, si),
                                     dims_view(nd, shape, ss), dims_view(nd, shape, sp)};
  const kf_tensor_view_t* pv[4] = {&views[0], &views[1], &views[2], &views[3]};
  const KernelLayout layout = merged_layout(pv, 4, nullptr);
  const int64_t len = a.index.ndim > 0 ? a.index.shape[dim] : 1;
  const int64_t idim = stride_at(a.index, dim), sdim = stride_at(a.src, dim);
  Launch launch;
  launch.program = {Family::Index, a.out.dtype};
  launch.kernel = "scatter_add";
  launch.arg(pointer_arg(a.out.data)).arg(pointer_arg(a.src.data)).arg(pointer_arg(a.index.data));
  launch.arg(value_arg(len)).arg(value_arg(idim)).arg(value_arg(sdim)).arg(value_arg(n));
  launch.arg(value_arg(layout));
  set_range_1d(launch, device, n);
  run(a.call, device, launch);
}

}  // namespace

kf_status_t register_index_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, index_select, index_select_kernel, kAllMask);
  KF_CLK_REGISTER(reg, gather, gather_kernel, kAllMask);
  KF_CLK_REGISTER(reg, index_copy_, index_copy__kernel, kAllMask);
  KF_CLK_REGISTER(reg, index_add_, index_add__kernel, kNumericMask);
  KF_CLK_REGISTER(reg, scatter_add_, scatter_add__kernel, kNumericMask);
  return KF_OK;
}

}  // namespace kf::clk
