// movement.hpp — the shared kernels that move and scale tensors, for a backend's own kernels
// built from several steps (the opencl backend's FFTs). Each queues its work on the call's
// stream, on the device of `out` (device.hpp), and throws kf::plugin::KernelError when it
// cannot.
#pragma once

#include "kernforge/plugin.h"
#include "kernforge/types.h"

namespace kf::clk {

/// out = src converted to out's dtype (copy.cl, the kernels of copy_ and to_dtype).
void copy_converting(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
                     const kf_tensor_view_t& src);

/// out = value, converted to out's dtype (fill.cl, the kernels of fill_ and full).
void fill_with(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
               const kf_scalar_t& value);

/// out = src * factor elementwise (binary.cl's mul): all three of out's dtype and shape, factor
/// typically one element with zero strides.
void multiply(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
              const kf_tensor_view_t& src, const kf_tensor_view_t& factor);

}  // namespace kf::clk
