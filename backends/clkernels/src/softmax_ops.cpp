// softmax (kernels/softmax.cl): one work-group per row. The core hands over the input already
// converted to the output's dtype, a floating one; the rows are indexed over the dims other
// than `dim`, whose layout is merged as an elementwise one (operand 0 = out, 1 = in).
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

/// `v` without dimension `dim`, into `shape` and `strides` (which `out` then points at).
void drop_dim(const kf_tensor_view_t& v, int32_t dim, int64_t* shape, int64_t* strides,
              kf_tensor_view_t& out) {
  out = v;
  int32_t k = 0;
  for (int32_t d = 0; d < v.ndim; ++d) {
    if (d == dim) continue;
    shape[k] = v.shape[d];
    strides[k] = v.strides[d];
    ++k;
  }
  out.ndim = k;
  out.shape = shape;
  out.strides = strides;
}

void softmax_kernel(const ops::softmax::Args& a) {
  if (a.out.numel == 0) return;
  Device& device = device_of(a.call, a.out);
  const int32_t ndim = a.self.ndim;
  const int32_t dim = ndim == 0 ? 0 : static_cast<int32_t>(a.dim < 0 ? a.dim + ndim : a.dim);
  const int64_t n = ndim == 0 ? 1 : a.self.shape[dim];
  const int64_t si = ndim == 0 ? 0 : a.self.strides[dim];
  const int64_t so = ndim == 0 ? 0 : a.out.strides[dim];
  int64_t shape_o[kMaxDims], strides_o[kMaxDims], shape_i[kMaxDims], strides_i[kMaxDims];
  kf_tensor_view_t rows_out{}, rows_in{};
  drop_dim(a.out, ndim == 0 ? -1 : dim, shape_o, strides_o, rows_out);
  drop_dim(a.self, ndim == 0 ? -1 : dim, shape_i, strides_i, rows_in);
  const kf_tensor_view_t* views[2] = {&rows_out, &rows_in};
  const KernelLayout layout = merged_layout(views, 2, nullptr);
  const int64_t rows = a.out.numel / n;
  size_t group = 256;
  while (group > device.capabilities().max_work_group && group > 1) group /= 2;
  Launch launch;
  launch.program = {Family::Softmax, a.out.dtype};
  launch.kernel = "softmax_rows";
  launch.arg(pointer_arg(a.out.data)).arg(pointer_arg(a.self.data));
  launch.arg(value_arg(n)).arg(value_arg(si)).arg(value_arg(so)).arg(value_arg(rows));
  launch.arg(value_arg(layout));
  launch.dims = 1;
  launch.local[0] = group;
  launch.global[0] = static_cast<size_t>(rows) * group;
  run(a.call, device, launch);
}

}  // namespace

kf_status_t register_softmax_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, softmax, softmax_kernel, kFloatMask);
  return KF_OK;
}

}  // namespace kf::clk
