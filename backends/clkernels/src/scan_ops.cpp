// cumsum and cumprod (kernels/scan.cl): one work-group per line along dim (rows.hpp), a
// deterministic work-group scan (Note [Work-group scans]). The core hands over self already
// converted to the output's dtype (meta cumsum), every numeric dtype but bool. And
// masked_select_static and nonzero_static, every dtype: one work-group compacting the whole
// tensor.
#include <string>

#include "clkernels/kernels.hpp"
#include "ops.hpp"
#include "rows.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

template <class Op>
void scan_kernel(const typename Op::Args& a) {
  if (a.self.dtype != a.out.dtype) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  std::string(Op::kName) + ": self is " +
                                      short_name(a.self.dtype) + ", expected the output's " +
                                      short_name(a.out.dtype));
  }
  const std::string kernel = std::string(Op::kName) + "_rows";
  run_rows(a.call, {Family::Scan, a.out.dtype}, kernel.c_str(), a.out, a.self, a.dim);
}

/// masked_select_static: self and mask (bool, self's shape) over self's merged layout, into the
/// 1-D out of a.size elements, by one work-group.
void masked_select_static_kernel(const ops::masked_select_static::Args& a) {
  if (a.size == 0) return;
  Device& device = device_of(a.call, a.out);
  const kf_tensor_view_t* views[2] = {&a.self, &a.mask};
  const KernelLayout layout = merged_layout(views, 2, nullptr);
  const int64_t n = a.self.numel, size = a.size;
  const int64_t os = a.out.ndim >= 1 ? a.out.strides[0] : 1;
  size_t group = 256;
  while (group > device.capabilities().max_work_group && group > 1) group /= 2;
  Launch launch;
  launch.program = {Family::Scan, a.out.dtype};
  launch.kernel = "masked_select";
  launch.arg(pointer_arg(a.out.data)).arg(pointer_arg(a.self.data)).arg(pointer_arg(a.mask.data));
  launch.arg(value_arg(n)).arg(value_arg(size)).arg(value_arg(os)).arg(value_arg(layout));
  launch.dims = 1;
  launch.local[0] = group;
  launch.global[0] = group;
  run(a.call, device, launch);
}

/// nonzero_static: self in its own shape (the coordinates are in it) into out [size, ndim], by
/// one work-group.
void nonzero_static_kernel(const ops::nonzero_static::Args& a) {
  if (a.out.numel == 0) return;  // no rows, or a 0-dim self (rows of no coordinates)
  Device& device = device_of(a.call, a.out);
  KernelLayout layout{};
  layout.ndim = a.self.ndim;
  for (int32_t d = 0; d < a.self.ndim; ++d) {
    layout.shape[d] = a.self.shape[d];
    layout.stride[0][d] = a.self.strides[d];
  }
  const int64_t n = a.self.numel, size = a.size, fill = a.fill_value;
  const int64_t rs = a.out.strides[0], cs = a.out.strides[1];
  size_t group = 256;
  while (group > device.capabilities().max_work_group && group > 1) group /= 2;
  Launch launch;
  launch.program = {Family::Scan, a.self.dtype};
  launch.kernel = "nonzero_static";
  launch.arg(pointer_arg(a.out.data)).arg(pointer_arg(a.self.data)).arg(value_arg(n));
  launch.arg(value_arg(size)).arg(value_arg(rs)).arg(value_arg(cs)).arg(value_arg(fill));
  launch.arg(value_arg(layout));
  launch.dims = 1;
  launch.local[0] = group;
  launch.global[0] = group;
  run(a.call, device, launch);
}

}  // namespace

kf_status_t register_scan_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, cumsum, scan_kernel<ops::cumsum>, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, cumprod, scan_kernel<ops::cumprod>, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, masked_select_static, masked_select_static_kernel, kAllMask);
  KF_CLK_REGISTER(reg, nonzero_static, nonzero_static_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
