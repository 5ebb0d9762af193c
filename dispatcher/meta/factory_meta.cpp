// Meta functions of the factories: sizes, dtype inference from scalars, arange's length.
#include <cmath>
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

void sized(const CallArgs& a, MetaResult& m, kf_dtype_t dtype, int32_t device_arg) {
  const IntListView size = a.ints(0);
  checked_numel(size.data, size.len, a.name());
  m.out[0].ndim = size.len;
  for (int32_t i = 0; i < size.len; ++i) m.out[0].shape[i] = size.data[i];
  m.out[0].dtype = dtype;
  m.compute_dtype = dtype;
  m.device = a.device_or(device_arg, kf_device_cpu());
}

double as_double(const kf_scalar_t& s) {
  if (s.tag == KF_SCALAR_INT64) return static_cast<double>(s.v.i64);
  if (s.tag == KF_SCALAR_BOOL) return s.v.b ? 1.0 : 0.0;
  return s.v.f64;
}

int64_t arange_length(const CallArgs& a, bool integral) {
  const kf_scalar_t start = a.scalar(0), end = a.scalar(1), step = a.scalar(2);
  const double s = as_double(start), e = as_double(end), st = as_double(step);
  if (st == 0.0) fail(KF_INVALID_ARGUMENT, "arange: step must be nonzero");
  if (!std::isfinite(s) || !std::isfinite(e) || !std::isfinite(st)) {
    fail(KF_INVALID_ARGUMENT, "arange: start {}, end {} and step {} must be finite", s, e, st);
  }
  if ((st > 0 && e < s) || (st < 0 && e > s)) {
    fail(KF_INVALID_ARGUMENT,
         "arange: the bounds are inconsistent with the step's sign (start {}, end {}, step {})",
         s, e, st);
  }
  if (integral && start.tag == KF_SCALAR_INT64 && end.tag == KF_SCALAR_INT64 &&
      step.tag == KF_SCALAR_INT64) {
    // In unsigned 64 bits: once the bounds agree with the step's sign, |end - start| and |step|
    // fit there, where end - start or -step may not fit in int64.
    const int64_t b = start.v.i64, e64 = end.v.i64, k = step.v.i64;
    if (k > 0 ? e64 < b : e64 > b) {
      fail(KF_INVALID_ARGUMENT, "arange: the bounds are inconsistent with the step's sign "
                                "(start {}, end {}, step {})", b, e64, k);
    }
    const uint64_t span = k > 0 ? static_cast<uint64_t>(e64) - static_cast<uint64_t>(b)
                                : static_cast<uint64_t>(b) - static_cast<uint64_t>(e64);
    const uint64_t by = k > 0 ? static_cast<uint64_t>(k) : 0 - static_cast<uint64_t>(k);
    const uint64_t n = span / by + (span % by != 0 ? 1 : 0);
    if (n > static_cast<uint64_t>(INT64_MAX)) {
      fail(KF_INVALID_ARGUMENT, "arange: start {}, end {} and step {} give more than 2^63 - 1 "
                                "elements", b, e64, k);
    }
    return static_cast<int64_t>(n);
  }
  const double n = std::ceil((e - s) / st);
  if (n > 9.0e15) fail(KF_INVALID_ARGUMENT, "arange: {} elements is too many", n);
  return static_cast<int64_t>(n);
}

}  // namespace

void factory(const CallArgs& a, MetaResult& m) {
  sized(a, m, a.dtype_or(1, KF_FLOAT32), 2);
}

void factory_full(const CallArgs& a, MetaResult& m) {
  sized(a, m, a.dtype_or(2, scalar_default_dtype(a.scalar(1))), 3);
}

void factory_arange(const CallArgs& a, MetaResult& m) {
  const bool all_int = a.scalar(0).tag == KF_SCALAR_INT64 &&
                       a.scalar(1).tag == KF_SCALAR_INT64 && a.scalar(2).tag == KF_SCALAR_INT64;
  const kf_dtype_t d = a.dtype_or(3, all_int ? KF_INT64 : KF_FLOAT32);
  if (d == KF_BOOL) fail(KF_INVALID_ARGUMENT, "arange: dtype bool is not supported");
  m.out[0].ndim = 1;
  m.out[0].shape[0] = arange_length(a, is_integral(d, false));
  m.out[0].dtype = d;
  m.compute_dtype = d;
  m.device = a.device_or(4, kf_device_cpu());
}

}  // namespace kf::meta
