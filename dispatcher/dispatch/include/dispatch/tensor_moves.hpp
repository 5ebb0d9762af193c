// Moving tensor data across devices and to and from host memory. Every copy runs on the
// thread's current stream of the device that does it and, where host memory is involved, waits
// for that stream (so a copy to the host sees the kernels queued before it).
#pragma once

#include <cstddef>

#include "tensor/tensor_impl.hpp"

namespace kf {

/// A copy of `t` on `device` with `dtype` (a new reference; a new tensor even when nothing
/// changes).
TensorImpl* tensor_to(TensorImpl& t, kf_device_t device, kf_dtype_t dtype);

/// Writes CPU tensor `src` (broadcast, converted) into `dst`, a tensor or view on another device,
/// with CPU kernels and raw copies only: no kernel of dst's backend runs (the CPU fallback writes
/// its results back through here).
void write_from_cpu(TensorImpl& dst, TensorImpl& src);

/// Copies `t`'s elements in row-major order to host memory `dst` of exactly `bytes` bytes.
void copy_to_host(TensorImpl& t, void* dst, size_t bytes);

/// A new contiguous tensor on `device` holding the bytes at `host_data`.
TensorImpl* tensor_from_host(const void* host_data, const int64_t* shape, int32_t ndim,
                             kf_dtype_t dtype, kf_device_t device);

/// The value of a 1-element tensor (float64, int64 or bool by dtype).
kf_scalar_t tensor_item(TensorImpl& t);

/// The value of the element of `t` at address `element` (in t's storage, on t's device).
kf_scalar_t element_item(const TensorImpl& t, const void* element);

}  // namespace kf
