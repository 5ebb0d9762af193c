// mm and bmm (kernels/linalg.cl): one launch of the tiled kernel, a 2-D grid of TILE x TILE
// work-groups per batch (the third dimension). Tiles of 16 where the device takes 256
// work-items per group, else 8.
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

/// kf_mm_shape in kernels/linalg.cl.
struct MmShape {
  int64_t m, n, k;
  int64_t a[3], b[3], o[3];
};
static_assert(sizeof(MmShape) == 12 * 8, "MmShape must have the bytes of kf_mm_shape");

/// The strides of a matrix operand: batch (0 for mm), rows, columns.
void strides_of(const kf_tensor_view_t& v, bool batched, int64_t* out) {
  const int32_t r = batched ? 1 : 0;
  out[0] = batched ? v.strides[0] : 0;
  out[1] = v.strides[r];
  out[2] = v.strides[r + 1];
}

void matmul(const kf_kernel_call_t& call, const kf_tensor_view_t& a, const kf_tensor_view_t& b,
            const kf_tensor_view_t& out, bool batched) {
  if (out.numel == 0) return;
  Device& device = device_of(call, out);
  const int32_t r = batched ? 1 : 0;
  MmShape s{};
  s.m = a.shape[r];
  s.k = a.shape[r + 1];
  s.n = b.shape[r + 1];
  strides_of(a, batched, s.a);
  strides_of(b, batched, s.b);
  strides_of(out, batched, s.o);
  const size_t tile = device.capabilities().max_work_group >= 256 ? 16 : 8;
  Launch launch;
  launch.program = {Family::Linalg, out.dtype};
  launch.kernel = tile == 16 ? "mm_tile16" : "mm_tile8";
  launch.arg(pointer_arg(out.data)).arg(pointer_arg(a.data)).arg(pointer_arg(b.data));
  launch.arg(value_arg(s));
  launch.dims = 3;
  launch.local[0] = launch.local[1] = tile;
  launch.global[0] = (static_cast<size_t>(s.n) + tile - 1) / tile * tile;
  launch.global[1] = (static_cast<size_t>(s.m) + tile - 1) / tile * tile;
  launch.global[2] = batched ? static_cast<size_t>(out.shape[0]) : 1;
  run(call, device, launch);
}

void mm_kernel(const ops::mm::Args& a) { matmul(a.call, a.self, a.mat2, a.out, false); }
void bmm_kernel(const ops::bmm::Args& a) { matmul(a.call, a.self, a.mat2, a.out, true); }

}  // namespace

kf_status_t register_linalg_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, mm, mm_kernel, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, bmm, bmm_kernel, kNumericMask | kComplexMask);
  return KF_OK;
}

}  // namespace kf::clk
