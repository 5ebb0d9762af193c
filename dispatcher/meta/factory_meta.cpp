// Meta functions of the factories: sizes, dtype inference from scalars, arange's length,
// linspace's and eye's sizes, and the floating dtypes rand and randn accept.
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/scalar_conversion.hpp"
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

double as_double(const kf_scalar_t& s) { return scalar_as_double(s); }

// Note [arange's length]
// ceil((end - start) / step). With int64 bounds and step it is exact, in unsigned 64-bit
// arithmetic: end - start need not fit in int64 (INT64_MIN to INT64_MAX), and INT64_MIN / -1
// must not trap. A length beyond INT64_MAX is refused; one that fits is then checked like every
// output shape (its bytes too, Note [Layout rules]). With floating bounds it is computed in
// double and must stay below 9e15, where doubles still count every integer.
int64_t int_length(int64_t start, int64_t end, int64_t step) {
  const uint64_t s = static_cast<uint64_t>(start), e = static_cast<uint64_t>(end);
  const uint64_t distance = step > 0 ? e - s : s - e;  // the signs were checked: no wrap
  const uint64_t k = step > 0 ? static_cast<uint64_t>(step) : uint64_t{0} - static_cast<uint64_t>(step);
  const uint64_t n = distance / k + (distance % k != 0 ? 1 : 0);
  if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    fail(KF_INVALID_ARGUMENT, "arange: start {}, end {} and step {} give {} elements, more than "
         "2^63-1", start, end, step, n);
  }
  return static_cast<int64_t>(n);
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
    return int_length(start.v.i64, end.v.i64, step.v.i64);
  }
  const double n = std::ceil((e - s) / st);
  if (!(n <= 9.0e15)) {
    fail(KF_INVALID_ARGUMENT, "arange: start {}, end {} and step {} give {} elements, too many "
         "(at most 9e15 with floating bounds)", s, e, st, n);
  }
  return static_cast<int64_t>(n);
}

// Note [arange's values]
// The values arange writes are start + i * step for i < n, each a value of the dtype (Note
// [Scalars to dtypes]): the first and the last, between which every other lies, must fit it.
// Integer dtypes compute them in int64 from start and step converted to int64 (a float
// truncates, as the kernels do), exactly; floating ones in double. end is never a value.
void check_arange_values(const CallArgs& a, kf_dtype_t d, int64_t n) {
  if (n == 0) return;
  if (is_floating(d)) {
    const double start = as_double(a.scalar(0)), step = as_double(a.scalar(2));
    (void)scalar_to_dtype(kf_scalar_f64(start), d, "arange", "start");
    const double last = start + static_cast<double>(n - 1) * step;
    (void)scalar_to_dtype(kf_scalar_f64(last), d, "arange", "the last value");
    return;
  }
  const int64_t start = scalar_to_dtype(a.scalar(0), KF_INT64, "arange", "start").v.i64;
  const int64_t step = scalar_to_dtype(a.scalar(2), KF_INT64, "arange", "step").v.i64;
  (void)scalar_to_dtype(kf_scalar_i64(start), d, "arange", "start");
  // Exact in 128 bits: (n - 1) * step may leave int64 while the last value does not
  // (arange(INT64_MIN, INT64_MAX, INT64_MAX) ends at 2^63 - 2).
  __extension__ using Wide = __int128;
  const Wide last = static_cast<Wide>(start) + static_cast<Wide>(n - 1) * step;
  if (last < INT64_MIN || last > INT64_MAX) {
    fail(KF_INVALID_ARGUMENT, "arange: the last value {} + {} * {} is out of range for {}",
         start, n - 1, step, dtype_name(d));
  }
  (void)scalar_to_dtype(kf_scalar_i64(static_cast<int64_t>(last)), d, "arange", "the last value");
}

void matrix(MetaResult& m, int64_t rows, int64_t cols, kf_dtype_t dtype, kf_device_t device) {
  const int64_t shape[2] = {rows, cols};
  checked_numel(shape, 2, "eye");
  m.out[0].ndim = 2;
  m.out[0].shape[0] = rows;
  m.out[0].shape[1] = cols;
  m.out[0].dtype = dtype;
  m.compute_dtype = dtype;
  m.device = device;
}

}  // namespace

void factory(const CallArgs& a, MetaResult& m) {
  sized(a, m, a.dtype_or(1, KF_FLOAT32), 2);
}

void factory_full(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.dtype_or(2, scalar_default_dtype(a.scalar(1)));
  (void)scalar_to_dtype(a.scalar(1), d, a.name(), "fill_value");  // Note [Scalars to dtypes]
  sized(a, m, d, 3);
}

void factory_arange(const CallArgs& a, MetaResult& m) {
  for (int32_t i = 0; i < 3; ++i) {
    if (a.scalar(i).tag == KF_SCALAR_COMPLEX128) {
      fail(KF_INVALID_ARGUMENT, "arange: {} is a complex number; the bounds and the step must be "
           "real", i == 0 ? "start" : i == 1 ? "end" : "step");
    }
  }
  const bool all_int = a.scalar(0).tag == KF_SCALAR_INT64 &&
                       a.scalar(1).tag == KF_SCALAR_INT64 && a.scalar(2).tag == KF_SCALAR_INT64;
  const kf_dtype_t d = a.dtype_or(3, all_int ? KF_INT64 : KF_FLOAT32);
  if (d == KF_BOOL) fail(KF_INVALID_ARGUMENT, "arange: dtype bool is not supported");
  m.out[0].ndim = 1;
  m.out[0].shape[0] = arange_length(a, is_integral(d, false));
  check_arange_values(a, d, m.out[0].shape[0]);
  m.out[0].dtype = d;
  m.compute_dtype = d;
  m.device = a.device_or(4, kf_device_cpu());
}

// linspace(start, end, steps, dtype, device): steps >= 0 values; bool is refused (PyTorch has
// no bool linspace); start and end must be values of the dtype.
void factory_linspace(const CallArgs& a, MetaResult& m) {
  const int64_t steps = a.int_arg(2);
  if (steps < 0) {
    fail(KF_INVALID_ARGUMENT, "linspace: steps must be non-negative, got {}", steps);
  }
  const kf_dtype_t d = a.dtype_or(3, KF_FLOAT32);
  if (d == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "linspace: dtype bool is not supported; use a numeric dtype");
  }
  // start is the first value and end the last (Note [Scalars to dtypes]); the others lie between.
  if (steps >= 1) (void)scalar_to_dtype(a.scalar(0), d, "linspace", "start");
  if (steps >= 2) (void)scalar_to_dtype(a.scalar(1), d, "linspace", "end");
  checked_numel(&steps, 1, "linspace");
  m.out[0].ndim = 1;
  m.out[0].shape[0] = steps;
  m.out[0].dtype = d;
  m.compute_dtype = d;
  m.device = a.device_or(4, kf_device_cpu());
}

// eye(n, m, dtype, device): an n x m matrix, m = n when None; every dtype.
void factory_eye(const CallArgs& a, MetaResult& m) {
  const int64_t n = a.int_arg(0);
  const int64_t cols = a.none(1) ? n : a.int_arg(1);
  if (n < 0) fail(KF_INVALID_ARGUMENT, "eye: n must be non-negative, got {}", n);
  if (cols < 0) fail(KF_INVALID_ARGUMENT, "eye: m must be non-negative, got {}", cols);
  matrix(m, n, cols, a.dtype_or(2, KF_FLOAT32), a.device_or(3, kf_device_cpu()));
}

// rand/randn(size, dtype, device): floating dtypes only.
void factory_random(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.dtype_or(1, KF_FLOAT32);
  if (!is_floating(d)) {
    fail(KF_INVALID_ARGUMENT, "{}: dtype {} is not supported: random numbers need a floating "
         "dtype (float32, float64, float16 or bfloat16)", a.name(), dtype_name(d));
  }
  sized(a, m, d, 2);
}

}  // namespace kf::meta
