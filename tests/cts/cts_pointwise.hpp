// CTS: helpers of the newer pointwise suites (test_compare, test_pow_minmax, test_math,
// test_activation, test_rounding): inputs as a dtype stores them, invalid-argument checks,
// outputs that are transposed views, and the reference of a unary op.
#pragma once

#include <string>

#include "cts_util.hpp"

namespace cts {

/** `v` as dtype `d` stores it (what the backend really sees), in double; integer dtypes need
 * values they hold. */
inline Values stored(const Values& v, kf_dtype_t d) {
  Values out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = round_to(d, v[i]);
  return out;
}

/** f applied to every element. */
template <class F>
Values map_values(const Values& v, F f) {
  Values out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = f(v[i]);
  return out;
}

/** The status is KF_INVALID_ARGUMENT and the message names `op`. */
inline ::testing::AssertionResult is_invalid(kf_status_t s, const char* op) {
  if (s != KF_INVALID_ARGUMENT)
    return ::testing::AssertionFailure() << "expected KF_INVALID_ARGUMENT, got "
                                         << status_text(s);
  const std::string msg = kf_last_error_message();
  if (msg.find(op) == std::string::npos)
    return ::testing::AssertionFailure() << "message does not name " << op << ": " << msg;
  return ::testing::AssertionSuccess();
}

/** A [rows, cols] output: the transpose of a zeroed [cols, rows] base (strides [1, rows]). */
inline Tensor transposed_out(int64_t rows, int64_t cols, kf_dtype_t d, kf_device_t dev,
                             Tensor& base) {
  const Shape bs{cols, rows};
  Tensor t;
  EXPECT_EQ(kf_zeros(bs.data(), 2, d, dev, base.put()), KF_OK);
  EXPECT_EQ(kf_transpose(base.get(), 0, 1, t.put()), KF_OK);
  return t;
}

/** An uninitialised contiguous tensor. */
inline Tensor empty_tensor(const Shape& s, kf_dtype_t d, kf_device_t dev) {
  Tensor t;
  EXPECT_EQ(kf_empty(s.empty() ? nullptr : s.data(), static_cast<int32_t>(s.size()), d, dev,
                     t.put()),
            KF_OK);
  return t;
}

/** The transpose of a [rows, cols] contiguous tensor made of `v` (strides [1, cols]). */
inline Tensor transposed_input(const Values& v, int64_t rows, int64_t cols, kf_dtype_t d,
                               kf_device_t dev, Tensor& base) {
  base = make_tensor(v, {rows, cols}, d, dev);
  Tensor t;
  EXPECT_EQ(kf_transpose(base.get(), 0, 1, t.put()), KF_OK);
  return t;
}

}  // namespace cts
