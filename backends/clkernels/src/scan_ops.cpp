// cumsum and cumprod (kernels/scan.cl): one work-group per line along dim (rows.hpp), a
// deterministic work-group scan (Note [Work-group scans]). The core hands over self already
// converted to the output's dtype (meta cumsum), every real dtype but bool.
#include <string>

#include "clkernels/kernels.hpp"
#include "ops.hpp"
#include "rows.hpp"

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

}  // namespace

kf_status_t register_scan_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, cumsum, scan_kernel<ops::cumsum>, kNumericMask);
  KF_CLK_REGISTER(reg, cumprod, scan_kernel<ops::cumprod>, kNumericMask);
  return KF_OK;
}

}  // namespace kf::clk
