// run_rows: one work-group per line along a dim (rows.hpp).
#include "rows.hpp"

#include "run.hpp"

namespace kf::clk {
namespace {

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

}  // namespace

Rows rows_of(const kf_tensor_view_t& out, const kf_tensor_view_t& self, int64_t dim64) {
  const int32_t ndim = self.ndim;
  const int32_t dim = ndim == 0 ? 0 : static_cast<int32_t>(dim64 < 0 ? dim64 + ndim : dim64);
  Rows r;
  r.n = ndim == 0 ? 1 : self.shape[dim];
  r.si = ndim == 0 ? 0 : self.strides[dim];
  r.so = ndim == 0 ? 0 : out.strides[dim];
  int64_t shape_o[kMaxDims], strides_o[kMaxDims], shape_i[kMaxDims], strides_i[kMaxDims];
  kf_tensor_view_t rows_out{}, rows_in{};
  drop_dim(out, ndim == 0 ? -1 : dim, shape_o, strides_o, rows_out);
  drop_dim(self, ndim == 0 ? -1 : dim, shape_i, strides_i, rows_in);
  const kf_tensor_view_t* views[2] = {&rows_out, &rows_in};
  r.layout = merged_layout(views, 2, nullptr);
  r.rows = r.n == 0 ? 0 : out.numel / r.n;
  return r;
}

void run_rows(const kf_kernel_call_t& call, ProgramKey program, const char* kernel,
              const kf_tensor_view_t& out, const kf_tensor_view_t& self, int64_t dim) {
  if (out.numel == 0) return;
  Device& device = device_of(call, out);
  const Rows r = rows_of(out, self, dim);
  size_t group = 256;
  while (group > device.capabilities().max_work_group && group > 1) group /= 2;
  Launch launch;
  launch.program = program;
  launch.kernel = kernel;
  launch.arg(pointer_arg(out.data)).arg(pointer_arg(self.data));
  launch.arg(value_arg(r.n)).arg(value_arg(r.si)).arg(value_arg(r.so)).arg(value_arg(r.rows));
  launch.arg(value_arg(r.layout));
  launch.dims = 1;
  launch.local[0] = group;
  launch.global[0] = static_cast<size_t>(r.rows) * group;
  run(call, device, launch);
}

}  // namespace kf::clk
