// tiny_plugin.cpp — the backend of backends/null/README.md, "How small a backend becomes": steps
// 1 to 4 on a synchronous device `mydev` whose memory is host memory. It loads, holds tensors and
// adds float32 itself; every other op runs through the CPU fallback. tests/null builds it (as
// plugin null_tiny, outside the plugin folder) and runs it (test_null.cpp), so the README's code
// keeps compiling and working. Keep the two the same.
#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

namespace {

// ---------------------------------------------------------------- step 4 of the README

// The element offset of element i (in row-major order) of a view: strides are in elements,
// never negative, 0 along a broadcast dimension.
int64_t offset_of(const kf_tensor_view_t& v, int64_t i) {
  int64_t offset = 0;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    offset += (i % v.shape[d]) * v.strides[d];
    i /= v.shape[d];
  }
  return offset;
}

// out = self + alpha * other, float32. The inputs come broadcast to the output's shape; any of
// the three may be a strided view (an in-place add on a transposed view writes through one).
void add_f32(const kf::plugin::ops::add::Args& a) {
  const auto* x = static_cast<const float*>(a.self.data);
  const auto* y = static_cast<const float*>(a.other.data);
  auto* out = static_cast<float*>(a.out.data);
  const double alpha = a.alpha.tag == KF_SCALAR_INT64 ? static_cast<double>(a.alpha.v.i64)
                                                      : a.alpha.v.f64;
  for (int64_t i = 0; i < a.out.numel; ++i) {
    const double sum = x[offset_of(a.self, i)] + alpha * y[offset_of(a.other, i)];
    out[offset_of(a.out, i)] = static_cast<float>(sum);
  }
}

// ---------------------------------------------------------------- "How small a backend becomes"

kf_status_t mydev_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  *out_state = nullptr;  // no state of its own
  return KF_OK;
}

int32_t mydev_device_count(void*) { return 1; }

kf_status_t mydev_register_kernels(void*, const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, add, add_f32, kf::plugin::dtypes({KF_FLOAT32}));
  return KF_OK;
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table("mydev", "0.1.0");
  p.init = mydev_init;
  p.device_count = mydev_device_count;
  kf::plugin::host_memory::set_slots(p);
  p.register_kernels = mydev_register_kernels;
  return p;
}

}  // namespace

KF_PLUGIN_DEFINE(make_plugin)
