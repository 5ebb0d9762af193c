// factory_kernels.cpp — full, zeros, ones, arange, linspace, eye. The core allocates the
// output (possibly a strided view for out= calls); these kernels only fill it. The compute
// dtype is the output's.
#include <cstring>

#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kFillMask = kAllMask;
constexpr uint32_t kArangeMask = kNumericMask;
constexpr uint32_t kLinspaceMask = kNumericMask;
constexpr uint32_t kEyeMask = kAllMask;

template <class T>
void fill(const kf_tensor_view_t& out, T value) {
  map0<T>(out, [value] { return value; });
}

void fill_kernel(const kf_tensor_view_t& out, const kf_scalar_t& value, const char* op) {
  dispatch<kFillMask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill<T>(out, scalar_to<T>(value));
  });
}

void full_kernel(const ops::full::Args& a) { fill_kernel(a.out, a.fill_value, "full"); }
void zeros_kernel(const ops::zeros::Args& a) { fill_kernel(a.out, kf_scalar_i64(0), "zeros"); }
void ones_kernel(const ops::ones::Args& a) { fill_kernel(a.out, kf_scalar_i64(1), "ones"); }

// Note [arange]: out[i] = start + i * step, in double for floating outputs and in int64 for
// integral ones (exact beyond 2^53). The output is 1-D, possibly strided.
template <class T>
void arange_fill(const ops::arange::Args& a) {
  const int64_t n = a.out.numel;
  if (n == 0) return;
  const int64_t stride = a.out.ndim >= 1 ? a.out.strides[0] : 1;
  T* o = static_cast<T*>(a.out.data);
  if constexpr (std::is_integral_v<T>) {
    const int64_t start = scalar_to<int64_t>(a.start);
    const int64_t step = scalar_to<int64_t>(a.step);
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t v = static_cast<uint64_t>(start) +
                         static_cast<uint64_t>(i) * static_cast<uint64_t>(step);  // wraps
      o[i * stride] = static_cast<T>(static_cast<int64_t>(v));
    }
  } else {
    const double start = scalar_to<double>(a.start);
    const double step = scalar_to<double>(a.step);
    for (int64_t i = 0; i < n; ++i) {
      o[i * stride] = convert<T>(start + static_cast<double>(i) * step);
    }
  }
}

void arange_kernel(const ops::arange::Args& a) {
  dispatch<kArangeMask>(a.out.dtype, "arange", [&](auto tag) {
    arange_fill<typename decltype(tag)::type>(a);
  });
}

// Note [linspace]: PyTorch's formula. step = (end - start) / (steps - 1) in double; the first
// half counts up from start (start + i * step), the second half down from end
// (end - (steps - 1 - i) * step), so both ends are exact. Integer dtypes first convert start
// and end to the dtype (truncating), then truncate each double value toward zero.
template <class T>
void linspace_fill(const ops::linspace::Args& a) {
  const int64_t n = a.out.numel;
  if (n == 0) return;
  const int64_t stride = a.out.strides[0];
  T* o = static_cast<T*>(a.out.data);
  double start = scalar_to<double>(a.start), end = scalar_to<double>(a.end);
  if constexpr (std::is_integral_v<T>) {
    start = static_cast<double>(scalar_to<T>(a.start));
    end = static_cast<double>(scalar_to<T>(a.end));
  }
  if (n == 1) {
    o[0] = convert<T>(start);
    return;
  }
  const double step = (end - start) / static_cast<double>(n - 1);
  const int64_t half = n / 2;
  for (int64_t i = 0; i < n; ++i) {
    const double v = i < half ? start + step * static_cast<double>(i)
                              : end - step * static_cast<double>(n - 1 - i);
    o[i * stride] = convert<T>(v);
  }
}

void linspace_kernel(const ops::linspace::Args& a) {
  dispatch<kLinspaceMask>(a.out.dtype, "linspace", [&](auto tag) {
    linspace_fill<typename decltype(tag)::type>(a);
  });
}

template <class T>
void eye_fill(const kf_tensor_view_t& out) {
  map0<T>(out, [] { return convert<T>(0); });
  const int64_t rows = out.shape[0], cols = out.shape[1];
  const int64_t diag = rows < cols ? rows : cols;
  T* o = static_cast<T*>(out.data);
  for (int64_t i = 0; i < diag; ++i) o[i * out.strides[0] + i * out.strides[1]] = convert<T>(1);
}

void eye_kernel(const ops::eye::Args& a) {
  dispatch<kEyeMask>(a.out.dtype, "eye", [&](auto tag) {
    eye_fill<typename decltype(tag)::type>(a.out);
  });
}

}  // namespace

kf_status_t register_factory_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, full, full_kernel, kFillMask);
  KF_CPU_KERNEL(reg, zeros, zeros_kernel, kFillMask);
  KF_CPU_KERNEL(reg, ones, ones_kernel, kFillMask);
  KF_CPU_KERNEL(reg, arange, arange_kernel, kArangeMask);
  KF_CPU_KERNEL(reg, linspace, linspace_kernel, kLinspaceMask);
  KF_CPU_KERNEL(reg, eye, eye_kernel, kEyeMask);
  return KF_OK;
}

}  // namespace kf::cpu
