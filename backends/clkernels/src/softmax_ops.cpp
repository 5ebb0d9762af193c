// softmax and log_softmax (kernels/softmax.cl): one work-group per row (rows.hpp). The core
// hands over the input already converted to the output's dtype, a floating one.
#include "ops.hpp"
#include "rows.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

void softmax_kernel(const ops::softmax::Args& a) {
  run_rows(a.call, {Family::Softmax, a.out.dtype}, "softmax_rows", a.out, a.self, a.dim);
}
void log_softmax_kernel(const ops::log_softmax::Args& a) {
  run_rows(a.call, {Family::Softmax, a.out.dtype}, "log_softmax_rows", a.out, a.self, a.dim);
}

}  // namespace

kf_status_t register_softmax_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, softmax, softmax_kernel, kFloatMask);
  KF_CLK_REGISTER(reg, log_softmax, log_softmax_kernel, kFloatMask);
  return KF_OK;
}

}  // namespace kf::clk
