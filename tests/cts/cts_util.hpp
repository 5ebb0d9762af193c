// kernforge conformance suite (CTS): helpers shared by every test file.
//
// The suite is written once against the C ABI (kernforge/kernforge.h only) and runs on every
// loaded backend x dtype. Expected values are computed here, in double precision, never with a
// backend's own output.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernforge/kernforge.h"
#include "unsupported.hpp"

namespace cts {

using Shape = std::vector<int64_t>;
using Values = std::vector<double>;

// ------------------------------------------------------------------ status macros

inline std::string status_text(kf_status_t s) {
  return std::string(kf_status_name(s)) + ": " + kf_last_error_message();
}

#define CTS_ASSERT_OK(expr)                                                        \
  do {                                                                             \
    const kf_status_t cts_s_ = (expr);                                             \
    ASSERT_EQ(cts_s_, KF_OK) << #expr << " -> " << ::cts::status_text(cts_s_);     \
  } while (0)

#define CTS_EXPECT_OK(expr)                                                        \
  do {                                                                             \
    const kf_status_t cts_s_ = (expr);                                             \
    EXPECT_EQ(cts_s_, KF_OK) << #expr << " -> " << ::cts::status_text(cts_s_);     \
  } while (0)

// ------------------------------------------------------------------ owning handle

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(kf_tensor_t t) : t_(t) {}
  ~Tensor() { reset(); }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor(Tensor&& o) noexcept : t_(o.t_) { o.t_ = nullptr; }
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) { reset(); t_ = o.t_; o.t_ = nullptr; }
    return *this;
  }

  kf_tensor_t get() const { return t_; }
  /** For `kf_tensor_t* out` parameters: drops the current handle first. */
  kf_tensor_t* put() { reset(); return &t_; }
  void reset(kf_tensor_t t = nullptr) {
    if (t_ != nullptr) kf_tensor_release(t_);
    t_ = t;
  }
  explicit operator bool() const { return t_ != nullptr; }

  int32_t ndim() const { int32_t n = -1; check(kf_tensor_ndim(t_, &n), "ndim"); return n; }
  Shape shape() const {
    const int64_t* p = nullptr;
    const int32_t n = ndim();
    if (!check(kf_tensor_shape(t_, &p), "shape") || n < 0) return {};
    return Shape(p, p + n);
  }
  Shape strides() const {
    const int64_t* p = nullptr;
    const int32_t n = ndim();
    if (!check(kf_tensor_strides(t_, &p), "strides") || n < 0) return {};
    return Shape(p, p + n);
  }
  kf_dtype_t dtype() const {
    kf_dtype_t d = KF_DTYPE_UNDEFINED; check(kf_tensor_dtype(t_, &d), "dtype"); return d;
  }
  kf_device_t device() const {
    kf_device_t d{KF_DEVICE_NONE, -1}; check(kf_tensor_device(t_, &d), "device"); return d;
  }
  int64_t numel() const { int64_t n = -1; check(kf_tensor_numel(t_, &n), "numel"); return n; }
  const char* data() const {
    void* p = nullptr; check(kf_tensor_data_ptr(t_, &p), "data_ptr");
    return static_cast<const char*>(p);
  }
  bool is_contiguous() const {
    bool c = false; check(kf_tensor_is_contiguous(t_, &c), "is_contiguous"); return c;
  }

 private:
  static bool check(kf_status_t s, const char* what) {
    if (s == KF_OK) return true;
    ADD_FAILURE() << "kf_tensor_" << what << " -> " << status_text(s);
    return false;
  }
  kf_tensor_t t_ = nullptr;
};

// ------------------------------------------------------------------ dtypes

inline bool is_float(kf_dtype_t d) {
  return d == KF_FLOAT32 || d == KF_FLOAT64 || d == KF_FLOAT16 || d == KF_BFLOAT16;
}
inline bool is_int(kf_dtype_t d) { return kf_dtype_kind(d) == 'i' || kf_dtype_kind(d) == 'u'; }
/** The dtype of a sum, product or cumulative sum of an integer or bool dtype d: uint64 for the
 * unsigned ones (numpy, the array API standard), int64 for the rest (PyTorch). */
inline kf_dtype_t integer_accumulation(kf_dtype_t d) {
  return kf_dtype_kind(d) == 'u' ? KF_UINT64 : KF_INT64;
}
inline std::string dtype_str(kf_dtype_t d) { return kf_dtype_name(d); }

inline uint16_t f32_to_f16_bits(float f) {
  uint32_t x; std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu);
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  const int32_t e = exp - 127 + 15;
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {  // subnormal or zero
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may round up into inf: correct
  return static_cast<uint16_t>(sign | h);
}
inline double f16_bits_to_double(uint16_t h) {
  const double sign = (h & 0x8000u) ? -1.0 : 1.0;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(static_cast<double>(mant), -24);
  if (exp == 31) return mant ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(static_cast<double>(mant | 0x400), exp - 25);
}
inline uint16_t f32_to_bf16_bits(float f) {
  uint32_t x; std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}
inline double bf16_bits_to_double(uint16_t b) {
  const uint32_t x = static_cast<uint32_t>(b) << 16;
  float f; std::memcpy(&f, &x, 4);
  return f;
}

/** An integral x modulo 2^bits of dtype d, as two's complement (PyTorch's integer overflow:
 * int8 127 + 1 is -128, uint8 0 - 1 is 255). x must fit in int64, or be a uint64 value. */
inline double wrap_int(kf_dtype_t d, double x) {
  if (!std::isfinite(x)) return 0;
  // A uint64 value past int64's range is already its own (the cast below would overflow).
  if (d == KF_UINT64 && x >= 0x1p63 && x <= 0x1p64) return std::trunc(x);
  const int64_t i = static_cast<int64_t>(std::trunc(x));
  switch (d) {
    case KF_INT8: return static_cast<int8_t>(static_cast<uint8_t>(i & 0xff));
    case KF_UINT8: return static_cast<uint8_t>(i & 0xff);
    case KF_INT16: return static_cast<int16_t>(static_cast<uint16_t>(i & 0xffff));
    case KF_INT32: return static_cast<int32_t>(static_cast<uint32_t>(i & 0xffffffff));
    case KF_UINT16: return static_cast<uint16_t>(i & 0xffff);
    case KF_UINT32: return static_cast<uint32_t>(i & 0xffffffff);
    case KF_UINT64: return static_cast<double>(static_cast<uint64_t>(i));
    default: return static_cast<double>(i);
  }
}

/** x as the dtype would store it, back in double (the reference's rounding step): floats round
 * to nearest even, integers truncate and wrap (two's complement), bool is x != 0. */
inline double round_to(kf_dtype_t d, double x) {
  switch (d) {
    case KF_FLOAT32: return static_cast<double>(static_cast<float>(x));
    case KF_FLOAT16: return f16_bits_to_double(f32_to_f16_bits(static_cast<float>(x)));
    case KF_BFLOAT16: return bf16_bits_to_double(f32_to_bf16_bits(static_cast<float>(x)));
    case KF_BOOL: return x != 0.0 ? 1.0 : 0.0;
    case KF_FLOAT64: return x;
    default:
      if (!std::isfinite(x)) return x;  // no integer: all_close reports the mismatch
      return wrap_int(d, x);
  }
}

/** The values as dtype d stores them, magnitudes for uint8 (its cases choose no negatives; the
 * overflow cases test wrapping on purpose). The inputs of a reference, so it sees what the
 * backend sees. */
inline Values representable(kf_dtype_t d, Values v) {
  for (double& x : v) x = round_to(d, d == KF_UINT8 ? std::fabs(x) : x);
  return v;
}

/** Host bytes of `values` in dtype d. */
inline std::vector<unsigned char> encode(const Values& v, kf_dtype_t d) {
  const size_t sz = kf_dtype_size(d);
  std::vector<unsigned char> out(v.size() * sz);
  for (size_t i = 0; i < v.size(); ++i) {
    unsigned char* p = out.data() + i * sz;
    const double x = v[i];
    switch (d) {
      case KF_FLOAT32: { float f = static_cast<float>(x); std::memcpy(p, &f, 4); break; }
      case KF_FLOAT64: std::memcpy(p, &x, 8); break;
      case KF_FLOAT16: { uint16_t h = f32_to_f16_bits(static_cast<float>(x)); std::memcpy(p, &h, 2); break; }
      case KF_BFLOAT16: { uint16_t h = f32_to_bf16_bits(static_cast<float>(x)); std::memcpy(p, &h, 2); break; }
      // Narrow integers wrap (a negative into uint8 is its two's complement, never UB).
      case KF_INT8: { int8_t y = static_cast<int8_t>(wrap_int(d, x)); std::memcpy(p, &y, 1); break; }
      case KF_UINT8: { uint8_t y = static_cast<uint8_t>(wrap_int(d, x)); std::memcpy(p, &y, 1); break; }
      case KF_INT16: { int16_t y = static_cast<int16_t>(wrap_int(d, x)); std::memcpy(p, &y, 2); break; }
      case KF_INT32: { int32_t y = static_cast<int32_t>(wrap_int(d, x)); std::memcpy(p, &y, 4); break; }
      // Past int64's range saturates (2^63 is INT64_MAX): the cast itself would be UB.
      case KF_INT64: {
        const int64_t y = x >= 0x1p63 ? INT64_MAX
                          : x < -0x1p63 ? INT64_MIN : static_cast<int64_t>(x);
        std::memcpy(p, &y, 8);
        break;
      }
      case KF_UINT16: { uint16_t y = static_cast<uint16_t>(wrap_int(d, x)); std::memcpy(p, &y, 2); break; }
      case KF_UINT32: { uint32_t y = static_cast<uint32_t>(wrap_int(d, x)); std::memcpy(p, &y, 4); break; }
      case KF_UINT64: { uint64_t y = static_cast<uint64_t>(wrap_int(d, x)); std::memcpy(p, &y, 8); break; }
      case KF_BOOL: { bool y = x != 0.0; std::memcpy(p, &y, 1); break; }
      default: break;
    }
  }
  return out;
}

inline Values decode(const unsigned char* p, size_t n, kf_dtype_t d) {
  Values out(n);
  const size_t sz = kf_dtype_size(d);
  for (size_t i = 0; i < n; ++i, p += sz) {
    switch (d) {
      case KF_FLOAT32: { float f; std::memcpy(&f, p, 4); out[i] = f; break; }
      case KF_FLOAT64: std::memcpy(&out[i], p, 8); break;
      case KF_FLOAT16: { uint16_t h; std::memcpy(&h, p, 2); out[i] = f16_bits_to_double(h); break; }
      case KF_BFLOAT16: { uint16_t h; std::memcpy(&h, p, 2); out[i] = bf16_bits_to_double(h); break; }
      case KF_INT8: { int8_t y; std::memcpy(&y, p, 1); out[i] = y; break; }
      case KF_UINT8: { uint8_t y; std::memcpy(&y, p, 1); out[i] = y; break; }
      case KF_INT16: { int16_t y; std::memcpy(&y, p, 2); out[i] = y; break; }
      case KF_INT32: { int32_t y; std::memcpy(&y, p, 4); out[i] = y; break; }
      case KF_INT64: { int64_t y; std::memcpy(&y, p, 8); out[i] = static_cast<double>(y); break; }
      case KF_UINT16: { uint16_t y; std::memcpy(&y, p, 2); out[i] = y; break; }
      case KF_UINT32: { uint32_t y; std::memcpy(&y, p, 4); out[i] = y; break; }
      case KF_UINT64: { uint64_t y; std::memcpy(&y, p, 8); out[i] = static_cast<double>(y); break; }
      case KF_BOOL: { uint8_t y; std::memcpy(&y, p, 1); out[i] = y ? 1.0 : 0.0; break; }
      default: out[i] = std::nan(""); break;
    }
  }
  return out;
}

// ------------------------------------------------------------------ shapes

inline int64_t numel_of(const Shape& s) {
  int64_t n = 1;
  for (int64_t x : s) n *= x;
  return n;
}
inline Shape contiguous_strides(const Shape& s) {
  Shape st(s.size());
  int64_t acc = 1;
  for (size_t i = s.size(); i-- > 0;) { st[i] = acc; acc *= std::max<int64_t>(s[i], 1); }
  return st;
}
inline std::string shape_str(const Shape& s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

/** Broadcast of two shapes (PyTorch rules); fails the test when they cannot broadcast. */
inline Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) ADD_FAILURE() << "reference: cannot broadcast";
    out[i] = x == 1 ? y : x;
  }
  return out;
}

/** Row-major values of `from` (contiguous) broadcast to shape `to`. */
inline Values expand_to(const Values& v, const Shape& from, const Shape& to) {
  const int64_t n = numel_of(to);
  Values out(static_cast<size_t>(n));
  const size_t off = to.size() - from.size();
  const Shape fst = contiguous_strides(from);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i, src = 0;
    for (size_t d = to.size(); d-- > 0;) {
      const int64_t idx = rem % std::max<int64_t>(to[d], 1);
      rem /= std::max<int64_t>(to[d], 1);
      if (d >= off && from[d - off] != 1) src += idx * fst[d - off];
    }
    out[static_cast<size_t>(i)] = v[static_cast<size_t>(src)];
  }
  return out;
}

/** Reference for a broadcast binary op, computed in double. */
inline Values ref_binary(const Values& a, const Shape& as, const Values& b, const Shape& bs,
                         const std::function<double(double, double)>& f, Shape* out_shape) {
  const Shape os = broadcast_shapes(as, bs);
  const Values ea = expand_to(a, as, os), eb = expand_to(b, bs, os);
  Values out(ea.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = f(ea[i], eb[i]);
  if (out_shape) *out_shape = os;
  return out;
}

/** The row-major values of a strided view over contiguous `storage` (for view checks). */
inline Values gather_strided(const Values& storage, int64_t offset, const Shape& shape,
                             const Shape& strides) {
  const int64_t n = numel_of(shape);
  Values out(static_cast<size_t>(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i, pos = offset;
    for (size_t d = shape.size(); d-- > 0;) {
      pos += (rem % shape[d]) * strides[d];
      rem /= shape[d];
    }
    out[static_cast<size_t>(i)] = storage[static_cast<size_t>(pos)];
  }
  return out;
}

/** n deterministic values in [lo, hi] (integers when `integral`). */
inline Values pseudo_random(size_t n, double lo, double hi, uint32_t seed, bool integral = false) {
  Values v(n);
  uint64_t s = 0x9E3779B97F4A7C15ull ^ seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(s >> 11) / 9007199254740992.0;  // [0,1)
    v[i] = lo + (hi - lo) * u;
    if (integral) v[i] = std::floor(v[i]);
  }
  return v;
}
inline Values iota(size_t n, double start = 0.0, double step = 1.0) {
  Values v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<double>(i);
  return v;
}
/// 1, 2, ..., n, every value distinct (a data movement shows where each one went); for bool, a
/// pattern of ones with a zero at every third place.
inline Values counting(size_t n, kf_dtype_t d) {
  Values v = iota(n, 1);
  if (d == KF_BOOL) {
    for (double& x : v) x = std::fmod(x, 3.0) == 0 ? 0.0 : 1.0;
  }
  return v;
}

/// Expects s to be KF_INVALID_ARGUMENT with a message that holds every one of `parts`.
inline void expect_invalid_argument(kf_status_t s, const std::vector<std::string>& parts) {
  EXPECT_EQ(s, KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  for (const std::string& p : parts) {
    EXPECT_NE(msg.find(p), std::string::npos) << p << " in: " << msg;
  }
}

// ------------------------------------------------------------------ tensors

inline Tensor make_tensor(const Values& values, const Shape& shape, kf_dtype_t dtype,
                          kf_device_t device) {
  if (static_cast<int64_t>(values.size()) != numel_of(shape)) {
    ADD_FAILURE() << "make_tensor: " << values.size() << " values for shape " << shape_str(shape);
    return Tensor();
  }
  const std::vector<unsigned char> bytes = encode(values, dtype);
  Tensor t;
  const kf_status_t s = kf_tensor_from_data(bytes.empty() ? nullptr : bytes.data(),
                                            shape.empty() ? nullptr : shape.data(),
                                            static_cast<int32_t>(shape.size()), dtype, device,
                                            t.put());
  if (s != KF_OK) ADD_FAILURE() << "kf_tensor_from_data -> " << status_text(s);
  return t;
}

/** The tensor's elements in row-major order, as double. */
inline Values to_host_double(const Tensor& t) {
  const int64_t n = t.numel();
  const kf_dtype_t d = t.dtype();
  if (n < 0) return {};
  std::vector<unsigned char> bytes(static_cast<size_t>(n) * kf_dtype_size(d));
  const kf_status_t s = kf_tensor_copy_to_host(t.get(), bytes.data(), bytes.size());
  if (s != KF_OK) {
    ADD_FAILURE() << "kf_tensor_copy_to_host -> " << status_text(s);
    return {};
  }
  return decode(bytes.data(), static_cast<size_t>(n), d);
}

// ------------------------------------------------------------------ comparison

struct Tol { double rtol, atol; };
inline Tol tol_for(kf_dtype_t d, double scale = 1.0) {
  switch (d) {
    case KF_FLOAT64: return {1e-12 * scale, 1e-12 * scale};
    case KF_FLOAT32: return {2e-6 * scale, 1e-6 * scale};
    case KF_FLOAT16: return {1e-3 * scale, 1e-3 * scale};
    case KF_BFLOAT16: return {8e-3 * scale, 8e-3 * scale};
    default: return {0.0, 0.0};  // integers and bool: exact
  }
}

/** Compares values; the expected ones are rounded to `dtype` first. */
inline ::testing::AssertionResult all_close(const Values& got, const Values& want, kf_dtype_t dtype,
                                            double scale = 1.0) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure()
           << "got " << got.size() << " values, expected " << want.size();
  const Tol tol = tol_for(dtype, scale);
  int bad = 0;
  std::ostringstream os;
  for (size_t i = 0; i < got.size(); ++i) {
    const double w = round_to(dtype, want[i]), g = got[i];
    bool ok;
    if (std::isnan(w)) ok = std::isnan(g);
    else if (std::isinf(w)) ok = g == w;
    else ok = std::fabs(g - w) <= tol.atol + tol.rtol * std::fabs(w);
    if (!ok && bad++ < 6) os << "\n  [" << i << "] got " << g << ", expected " << w;
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << got.size() << " values differ ("
                                       << dtype_str(dtype) << ", rtol " << tol.rtol << ", atol "
                                       << tol.atol << "):" << os.str();
}

/** Checks dtype, shape and values of t. */
inline ::testing::AssertionResult matches(const Tensor& t, const Values& want, const Shape& shape,
                                          kf_dtype_t dtype, double scale = 1.0) {
  if (!t) return ::testing::AssertionFailure() << "no tensor";
  if (t.dtype() != dtype)
    return ::testing::AssertionFailure() << "dtype " << dtype_str(t.dtype()) << ", expected "
                                         << dtype_str(dtype);
  if (t.shape() != shape)
    return ::testing::AssertionFailure() << "shape " << shape_str(t.shape()) << ", expected "
                                         << shape_str(shape);
  return all_close(to_host_double(t), want, dtype, scale);
}

// ------------------------------------------------------------------ parameters

inline kf_device_t device_none() { return kf_device_t{KF_DEVICE_NONE, 0}; }
inline kf_scalar_t one() { return kf_scalar_i64(1); }

/** One (backend device x dtype) case. dtype UNDEFINED: a dtype-independent suite. */
struct Param {
  std::string backend;
  int32_t backend_index = -1;
  kf_device_t device{KF_DEVICE_NONE, 0};
  kf_dtype_t dtype = KF_DTYPE_UNDEFINED;
  std::string skip_reason;  // non-empty: the backend cannot run here
  std::string name;
};
inline std::ostream& operator<<(std::ostream& os, const Param& p) { return os << p.name; }

inline std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out.empty() ? std::string("unnamed") : out;
}

/** Every backend the loader knows of x dtypes. Unloaded ones become skipped cases. */
inline std::vector<Param> params(const std::vector<kf_dtype_t>& dtypes) {
  std::vector<Param> out;
  std::vector<std::string> seen;
  const int32_t n = kf_backend_count();
  for (int32_t i = 0; i < n; ++i) {
    kf_backend_info_t info;
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) != KF_OK) continue;
    std::string base = sanitize(info.name ? info.name : "");
    if (std::count(seen.begin(), seen.end(), base) > 0) base += "_" + std::to_string(i);
    seen.push_back(base);
    std::string reason;
    if (info.state != KF_BACKEND_LOADED)
      reason = std::string("backend '") + (info.name ? info.name : "?") + "' is not loaded: " +
               (info.reason && *info.reason ? info.reason : "(no reason given)");
    else if (info.device_count <= 0)
      reason = std::string("backend '") + info.name + "' has no device on this machine";
    const int32_t ndev = reason.empty() ? info.device_count : 1;
    for (int32_t d = 0; d < ndev; ++d) {
      for (kf_dtype_t dt : dtypes) {
        Param p;
        p.backend = info.name ? info.name : "";
        p.backend_index = i;
        p.device = kf_device_t{info.device_type, d};
        p.dtype = dt;
        p.skip_reason = reason;
        p.name = base + (d > 0 ? "_" + std::to_string(d) : std::string()) +
                 (dt == KF_DTYPE_UNDEFINED ? std::string() : "_" + sanitize(kf_dtype_name(dt)));
        out.push_back(p);
      }
    }
  }
  if (out.empty()) {
    Param p;
    p.backend = "none";
    p.skip_reason = "no backend is known to the runtime (see kf_runtime_report_json)";
    p.name = "no_backend";
    out.push_back(p);
  }
  return out;
}
inline std::vector<Param> params_any() { return params({KF_DTYPE_UNDEFINED}); }
inline std::vector<Param> params_numeric() {
  return params({KF_FLOAT32, KF_FLOAT64, KF_INT32, KF_INT64});
}
inline std::vector<Param> params_float() { return params({KF_FLOAT32, KF_FLOAT64}); }
inline std::vector<Param> params_int() { return params({KF_INT32, KF_INT64}); }
/** Every floating dtype, the 16-bit ones included. */
inline std::vector<Param> params_all_float() {
  return params({KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16});
}
/** Every integer dtype. */
inline std::vector<Param> params_all_int() {
  return params({KF_INT8, KF_UINT8, KF_INT16, KF_INT32, KF_INT64});
}
/** Every dtype but bool. */
inline std::vector<Param> params_all_numeric() {
  return params({KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8, KF_UINT8, KF_INT16,
                 KF_INT32, KF_INT64});
}
/** Every dtype. */
inline std::vector<Param> params_all() {
  return params({KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8, KF_UINT8, KF_INT16,
                 KF_INT32, KF_INT64, KF_BOOL});
}

// ------------------------------------------------------------------ claimed dtypes
// Note [Which dtypes a case runs in]
// A case for dtype d runs on a backend when the backend claims every op it calls in the dtype
// the op computes in (kernel_choice.hpp's order): its own kernel for d, the core's composite or
// view, its own boxed fallback for d, or, on a device backend, the CPU fallback (the CPU
// backend has a kernel for d and KERNFORGE_CPU_FALLBACK is not 0). Otherwise the case is
// skipped and says why (gtest lists it). Nothing the backend or the CPU fallback claims is
// skipped: a backend whose own fallback claims d but refuses some ops lists those cases in its
// cts_unsupported.json.
// kf_op_kernel_info gives a backend's most specific kind for an op and that kind's dtypes, so:
// an op is a composite when the CPU backend serves it as one (a device kernel may override it
// for some dtypes: the composite serves the rest); a backend's own fallback dtypes are those of
// the ops it serves by its fallback alone (fallback_mask).

inline std::string mask_dtypes(uint32_t mask) {
  std::string out;
  for (int32_t d = 0; d < 32; ++d) {
    if ((mask & (1u << d)) == 0) continue;
    out += (out.empty() ? "" : " ") + std::string(kf_dtype_name(static_cast<kf_dtype_t>(d)));
  }
  return out.empty() ? std::string("none") : out;
}

/** The index of the loaded CPU backend, -1 when none. */
inline int32_t cpu_backend_index() {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info;
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) == KF_OK && info.state == KF_BACKEND_LOADED &&
        info.device_type == KF_DEVICE_CPU)
      return i;
  }
  return -1;
}

/** How backend `backend` serves `op` (kf_op_kernel_info); kind NONE when it cannot say. */
inline kf_kernel_info_t kernel_info_of(kf_op_t op, int32_t backend) {
  kf_kernel_info_t info;
  std::memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  if (kf_op_kernel_info(op, backend, &info) != KF_OK) info.kind = KF_KERNEL_NONE;
  return info;
}

/** The dtypes backend `backend`'s own boxed fallback claims (0: none, or none visible). */
inline uint32_t fallback_mask(int32_t backend) {
  static std::vector<std::pair<int32_t, uint32_t>> cache;  // gtest runs tests on one thread
  for (const auto& [b, m] : cache)
    if (b == backend) return m;
  uint32_t mask = 0;
  for (int32_t i = 0; i < kf_op_count(); ++i) {
    kf_op_t op = nullptr;
    if (kf_op_at(i, &op) != KF_OK) continue;
    const kf_kernel_info_t info = kernel_info_of(op, backend);
    if (info.kind == KF_KERNEL_BACKEND_FALLBACK) mask |= info.dtype_mask;
  }
  cache.emplace_back(backend, mask);
  return mask;
}

/** Whether backend `backend` claims op `name` computing in dtype `d` (see the Note); `why`
 * says why not. An op the runtime does not know fails the test. */
inline bool backend_serves(int32_t backend, const char* name, kf_dtype_t d, std::string* why) {
  kf_op_t op = nullptr;
  if (kf_op_find(name, &op) != KF_OK) {
    ADD_FAILURE() << "the CTS calls op '" << name << "', which the runtime does not know";
    *why = std::string("no op '") + name + "'";
    return false;
  }
  const uint32_t bit = 1u << static_cast<uint32_t>(d);
  const kf_kernel_info_t own = kernel_info_of(op, backend);
  if (own.kind == KF_KERNEL_VIEW || own.kind == KF_KERNEL_COMPOSITE) return true;
  if (own.kind != KF_KERNEL_NONE && (own.dtype_mask & bit) != 0) return true;
  if ((fallback_mask(backend) & bit) != 0) return true;
  const int32_t cpu = cpu_backend_index();
  const kf_kernel_info_t c = cpu >= 0 ? kernel_info_of(op, cpu) : kf_kernel_info_t{};
  if (c.kind == KF_KERNEL_COMPOSITE || c.kind == KF_KERNEL_VIEW) return true;
  const char* env = std::getenv("KERNFORGE_CPU_FALLBACK");
  const bool fallback = cpu >= 0 && cpu != backend && !(env != nullptr && std::strcmp(env, "0") == 0);
  if (fallback && c.kind == KF_KERNEL_BACKEND && (c.dtype_mask & bit) != 0) return true;
  *why = std::string(name) + " in " + kf_dtype_name(d) + " is served neither by this backend (" +
         kf_kernel_kind_name(own.kind) + " for: " + mask_dtypes(own.dtype_mask) + ")" +
         (cpu == backend ? std::string() : fallback ? " nor by the CPU fallback"
                                                    : " nor by a CPU fallback (none is enabled)");
  return false;
}

struct ParamName {
  std::string operator()(const ::testing::TestParamInfo<Param>& info) const {
    return info.param.name;
  }
};

/** "Suite.Test" of the running test, without the instantiation prefix and parameter. */
inline std::string current_test_key() {
  const ::testing::TestInfo* ti = ::testing::UnitTest::GetInstance()->current_test_info();
  return case_key(ti->test_suite_name(), ti->name());
}

/** Base fixture: skips unloaded backends and the cases a backend lists as unsupported (in the
 * files of KERNFORGE_CTS_UNSUPPORTED, see unsupported.hpp). */
class CtsTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    const Param& p = GetParam();
    if (!p.skip_reason.empty()) GTEST_SKIP() << p.skip_reason;
    const std::string dtype = p.dtype == KF_DTYPE_UNDEFINED ? "" : kf_dtype_name(p.dtype);
    if (const UnsupportedMatch m = unsupported_table().find(p.backend, current_test_key(), dtype))
      GTEST_SKIP() << "listed as unsupported on " << p.backend << " by " << m.file->path << ": "
                   << m.row->reason;
  }
  kf_device_t dev() const { return GetParam().device; }
  kf_dtype_t dt() const { return GetParam().dtype; }
  /** Whether this backend serves every op of `ops` computing in `d` (see CTS_REQUIRE). */
  bool serves(std::initializer_list<const char*> ops, kf_dtype_t d, std::string* why) const {
    for (const char* op : ops)
      if (!backend_serves(GetParam().backend_index, op, d, why)) return false;
    return true;
  }
  /** v as this case's dtype stores it (see representable). */
  Values in(const Values& v) const { return representable(dt(), v); }
  Tensor make(const Values& v, const Shape& s) const { return make_tensor(v, s, dt(), dev()); }
  Tensor make(const Values& v, const Shape& s, kf_dtype_t d) const {
    return make_tensor(v, s, d, dev());
  }
};

/** Skips the case (saying why) unless the backend serves each op named computing in `dtype`:
 *  CTS_REQUIRE(dt(), "add", "mul"); CTS_REQUIRE(KF_FLOAT32, "div"). In a CtsTest body. */
#define CTS_REQUIRE(dtype, ...)                                             \
  do {                                                                      \
    std::string cts_why_;                                                   \
    if (!this->serves({__VA_ARGS__}, (dtype), &cts_why_)) GTEST_SKIP() << cts_why_; \
  } while (0)

/** In a loop over ops: skips this iteration (and prints why) unless the backend serves `op`
 *  computing in `dtype`; the other iterations still run. */
#define CTS_REQUIRE_IN_LOOP(dtype, op)                                      \
  {                                                                         \
    std::string cts_why_;                                                   \
    if (!this->serves({op}, (dtype), &cts_why_)) {                          \
      std::printf("[ PARTLY   ] %s: skipped %s\n", ::cts::current_test_key().c_str(), \
                  cts_why_.c_str());                                        \
      continue;                                                             \
    }                                                                       \
  }

#define CTS_INSTANTIATE(suite, generator) \
  INSTANTIATE_TEST_SUITE_P(Cts, suite, ::testing::ValuesIn(generator), ::cts::ParamName())

}  // namespace cts
