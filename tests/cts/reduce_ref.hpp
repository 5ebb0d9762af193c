// CTS: references shared by the reduction suites of issue 9 (prod, amin/argmin, var/std,
// all/any, logsumexp, cumsum, log_softmax). Everything here is computed in double from the
// test's own input values, never from a backend's output.
#pragma once

#include "cts_util.hpp"

namespace cts {
namespace red {

using Dims = std::vector<int64_t>;

/** The elements of each output of a reduction over `dims` (all when empty), in the input's
 * row-major order; the output shape (keepdim or not) goes to *out_shape. */
inline std::vector<Values> groups(const Values& v, const Shape& shape, const Dims& dims,
                                  bool keepdim, Shape* out_shape) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  std::vector<bool> red(shape.size(), dims.empty());
  for (int64_t d : dims) red[static_cast<size_t>(d < 0 ? d + nd : d)] = true;
  Shape os, full;
  for (size_t d = 0; d < shape.size(); ++d) {
    full.push_back(red[d] ? 1 : shape[d]);
    if (!red[d] || keepdim) os.push_back(red[d] ? 1 : shape[d]);
  }
  std::vector<Values> out(static_cast<size_t>(numel_of(full)));
  const Shape fst = contiguous_strides(full);
  for (int64_t i = 0; i < numel_of(shape); ++i) {
    int64_t rem = i, o = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t idx = rem % shape[d];
      rem /= shape[d];
      if (!red[d]) o += idx * fst[d];
    }
    out[static_cast<size_t>(o)].push_back(v[static_cast<size_t>(i)]);
  }
  if (out_shape) *out_shape = os;
  return out;
}

/** f applied to each group of groups(). */
inline Values reduce(const Values& v, const Shape& shape, const Dims& dims, bool keepdim,
                     Shape* out_shape, const std::function<double(const Values&)>& f) {
  Values out;
  for (const Values& g : groups(v, shape, dims, keepdim, out_shape)) out.push_back(f(g));
  return out;
}

/** Lines along dim (row-major order of the other dims), and the inverse scatter. */
inline std::vector<Values> lines(const Values& v, const Shape& shape, int64_t dim) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd == 0) return {v};
  const size_t d = static_cast<size_t>(dim < 0 ? dim + nd : dim);
  const Shape st = contiguous_strides(shape);
  std::vector<Values> out;
  for (int64_t i = 0; i < numel_of(shape); ++i) {
    if ((i / st[d]) % shape[d] != 0) continue;  // a line starts at index 0 along dim
    Values line;
    for (int64_t k = 0; k < shape[d]; ++k) line.push_back(v[static_cast<size_t>(i + k * st[d])]);
    out.push_back(line);
  }
  return out;
}

/** f applied to every line along dim, the results put back in place (same shape). */
inline Values map_lines(const Values& v, const Shape& shape, int64_t dim,
                        const std::function<Values(const Values&)>& f) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd == 0) return f(v);
  const size_t d = static_cast<size_t>(dim < 0 ? dim + nd : dim);
  const Shape st = contiguous_strides(shape);
  Values out(v.size());
  for (int64_t i = 0; i < numel_of(shape); ++i) {
    if ((i / st[d]) % shape[d] != 0) continue;
    Values line;
    for (int64_t k = 0; k < shape[d]; ++k) line.push_back(v[static_cast<size_t>(i + k * st[d])]);
    const Values r = f(line);
    for (int64_t k = 0; k < shape[d]; ++k)
      out[static_cast<size_t>(i + k * st[d])] = r[static_cast<size_t>(k)];
  }
  return out;
}

/** Values representable in d: floats in [-4, 4], integers in [-9, 9] ([0, 18] for uint8). */
inline Values input(kf_dtype_t d, size_t n, uint32_t seed) {
  Values v;
  if (is_float(d)) {
    v = pseudo_random(n, -4, 4, seed);
  } else if (d == KF_BOOL) {
    v = pseudo_random(n, 0, 2, seed, true);
  } else if (d == KF_UINT8) {
    v = pseudo_random(n, 0, 18, seed, true);
  } else {
    v = pseudo_random(n, -9, 9, seed, true);
  }
  for (double& x : v) x = round_to(d, x);
  return v;
}

/** A bad status with a message naming the op. */
/** Six rows of `n` values (n > 2048) for the softmax family, as dtype d stores them: random
 *  values; the first 2048 -inf and the rest random; all -inf; a NaN at n - 10; values near
 *  -300 but for the last 100 near 0 (stretches whose share is below the float range); a +inf
 *  at 1500. Long enough for kernels that take rows in stretches of 1024 to see several. */
inline Values masked_long_rows(kf_dtype_t d, int64_t n, uint32_t seed) {
  Values v = pseudo_random(static_cast<size_t>(6 * n), -6, 6, seed);
  const auto at = [&](int64_t row, int64_t k) -> double& {
    return v[static_cast<size_t>(row * n + k)];
  };
  for (int64_t k = 0; k < 2048; ++k) at(1, k) = -INFINITY;
  for (int64_t k = 0; k < n; ++k) at(2, k) = -INFINITY;
  at(3, n - 10) = NAN;
  for (int64_t k = 0; k < n - 100; ++k) at(4, k) -= 300;
  at(5, 1500) = INFINITY;
  for (double& x : v) x = round_to(d, x);
  return v;
}

inline ::testing::AssertionResult refused(kf_status_t s, const char* op) {
  if (s != KF_INVALID_ARGUMENT && s != KF_OUT_OF_RANGE)
    return ::testing::AssertionFailure()
           << "status " << kf_status_name(s) << ", expected INVALID_ARGUMENT or OUT_OF_RANGE";
  const std::string msg = kf_last_error_message();
  if (msg.find(op) == std::string::npos)
    return ::testing::AssertionFailure() << "message does not name " << op << ": " << msg;
  return ::testing::AssertionSuccess();
}

/** Reduction dim cases over a [2, 3, 4] input: dims (empty: all) and keepdim. */
inline std::vector<std::pair<Dims, bool>> dim_cases() {
  return {{{}, false}, {{1}, false},     {{-1}, false},     {{0, 2}, false},
          {{1}, true}, {{-3, -1}, true}, {{0, 1, 2}, false}};
}

inline std::string dims_str(const Dims& d, bool keep) {
  return "dims " + shape_str(d) + (keep ? " keepdim" : "");
}

}  // namespace red
}  // namespace cts
