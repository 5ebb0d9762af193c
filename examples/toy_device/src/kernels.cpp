// kernels.cpp — the toy device's kernels for ops of the core: full, zeros, ones, add, mul,
// copy_ and to_dtype, for float32 and int32.
//
// How a kernel is written (plugin.hpp, plugin_ops.hpp):
//  - plugin_ops.hpp, generated from the core's op list, has one struct per op whose Args names
//    the op's arguments: `a.self`, `a.other`, `a.alpha`, and `a.out`, the output.
//  - The core allocates the outputs (with the shape and dtype its meta rule computed) before
//    the kernel runs, broadcasts inputs to the output's shape and converts them to the
//    computation dtype: a kernel only computes. The computation dtype is the output's.
//  - KF_REGISTER_KERNEL(reg, op, fn, dtype mask) registers a typed function; the mask says for
//    which computation dtypes the core may call it.
//  - A kernel reports a problem by throwing kf::plugin::KernelError; the trampoline of
//    KF_REGISTER_KERNEL turns it into a status and a message (no exception crosses the ABI).
//
// Every op and dtype the toy device does not register here (sub, exp, sum, matmul, float64,
// ...) runs on the CPU backend instead: the core copies the inputs to the host through the copy
// slot, runs the CPU kernel and copies the results back (Note [CPU fallback] in the core).
#include <cstdint>
#include <string>

#include "convert.hpp"
#include "kernforge/plugin.hpp"
#include "strided.hpp"
#include "toy.hpp"

namespace toy {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kDtypes = kf::plugin::dtypes({KF_FLOAT32, KF_INT32});

/// Calls f(T{}) with T the C++ type of `dtype` (float or int32_t).
template <class F>
void with_type(int32_t dtype, const char* op, F&& f) {
  switch (dtype) {
    case KF_FLOAT32: return f(float{});
    case KF_INT32: return f(int32_t{});
    default:  // the dtype mask keeps other dtypes away: this would be a bug in the core
      throw kf::plugin::KernelError(
          KF_INTERNAL, std::string(op) + ": called for " + kf_dtype_string(dtype));
  }
}

// int32 arithmetic wraps on overflow (as on the CPU backend); in unsigned arithmetic it is
// defined behaviour.
int32_t wrap(uint32_t x) { return static_cast<int32_t>(x); }
float add_scaled(float x, float y, float alpha) { return x + alpha * y; }
int32_t add_scaled(int32_t x, int32_t y, int32_t alpha) {
  return wrap(static_cast<uint32_t>(x) + static_cast<uint32_t>(alpha) * static_cast<uint32_t>(y));
}
float times(float x, float y) { return x * y; }
int32_t times(int32_t x, int32_t y) {
  return wrap(static_cast<uint32_t>(x) * static_cast<uint32_t>(y));
}

// ------------------------------------------------------------------ factories

void fill(const kf_tensor_view_t& out, const kf_scalar_t& value, const char* op) {
  with_type(out.dtype, op, [&](auto zero) {
    using T = decltype(zero);
    const T v = convert<T>(value);
    const kf_tensor_view_t* views[] = {&out};
    for_each_element(views, [&](const int64_t* at) { element<T>(out, at[0]) = v; });
  });
}

void full_kernel(const ops::full::Args& a) { fill(a.out, a.fill_value, "full"); }
void zeros_kernel(const ops::zeros::Args& a) { fill(a.out, kf_scalar_i64(0), "zeros"); }
void ones_kernel(const ops::ones::Args& a) { fill(a.out, kf_scalar_i64(1), "ones"); }

// ------------------------------------------------------------------ pointwise

// The output may be exactly one of the inputs (add_, mul_ write in place): each element is
// read before it is written, so that needs nothing special. Other overlaps the core resolves
// before the kernel runs.
void add_kernel(const ops::add::Args& a) {
  with_type(a.out.dtype, "add", [&](auto zero) {
    using T = decltype(zero);
    const T alpha = convert<T>(a.alpha);
    const kf_tensor_view_t* views[] = {&a.out, &a.self, &a.other};
    for_each_element(views, [&](const int64_t* at) {
      element<T>(a.out, at[0]) =
          add_scaled(element<T>(a.self, at[1]), element<T>(a.other, at[2]), alpha);
    });
  });
}

void mul_kernel(const ops::mul::Args& a) {
  with_type(a.out.dtype, "mul", [&](auto zero) {
    using T = decltype(zero);
    const kf_tensor_view_t* views[] = {&a.out, &a.self, &a.other};
    for_each_element(views, [&](const int64_t* at) {
      element<T>(a.out, at[0]) = times(element<T>(a.self, at[1]), element<T>(a.other, at[2]));
    });
  });
}

// ------------------------------------------------------------------ copies

/// out = src converted to out's dtype; src has any dtype and is broadcast to out's shape.
void convert_into(const kf_tensor_view_t& out, const kf_tensor_view_t& src, const char* op) {
  with_type(out.dtype, op, [&](auto zero) {
    using T = decltype(zero);
    const char* bytes = static_cast<const char*>(src.data);
    const int64_t item = static_cast<int64_t>(kf_dtype_itemsize(src.dtype));
    const kf_tensor_view_t* views[] = {&out, &src};
    for_each_element(views, [&](const int64_t* at) {
      element<T>(out, at[0]) = convert<T>(read_number(bytes + at[1] * item, src.dtype));
    });
  });
}

// copy_ is the op behind clone(), contiguous() and every out= call that needs a conversion.
void copy_kernel(const ops::copy_::Args& a) { convert_into(a.out, a.src, "copy_"); }
void to_dtype_kernel(const ops::to_dtype::Args& a) { convert_into(a.out, a.self, "to_dtype"); }

}  // namespace

kf_status_t register_builtin_kernels(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, full, full_kernel, kDtypes);
  KF_REGISTER_KERNEL(reg, zeros, zeros_kernel, kDtypes);
  KF_REGISTER_KERNEL(reg, ones, ones_kernel, kDtypes);
  KF_REGISTER_KERNEL(reg, add, add_kernel, kDtypes);
  KF_REGISTER_KERNEL(reg, mul, mul_kernel, kDtypes);
  KF_REGISTER_KERNEL(reg, copy_, copy_kernel, kDtypes);
  KF_REGISTER_KERNEL(reg, to_dtype, to_dtype_kernel, kDtypes);
  return KF_OK;
}

}  // namespace toy
