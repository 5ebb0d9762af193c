// factory_kernels.cpp — full, zeros, ones, arange. The core allocates the output (possibly a
// strided view for out= calls); these kernels only fill it. The compute dtype is the output's.
#include <cstring>

#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kFillMask = kAllMask;
constexpr uint32_t kArangeMask = kNumericMask;

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

}  // namespace

kf_status_t register_factory_kernels(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, full, full_kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, zeros, zeros_kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, ones, ones_kernel, kFillMask);
  KF_REGISTER_KERNEL(reg, arange, arange_kernel, kArangeMask);
  return KF_OK;
}

}  // namespace kf::cpu
