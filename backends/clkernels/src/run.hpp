// run.hpp — what every shared kernel does around its launches: find the device of the call,
// size a 1-D range, pass scalars in the program's compute type, launch and turn a failure into
// a KernelError the plugin.hpp trampoline reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "clkernels/device.hpp"
#include "clkernels/kernels.hpp"
#include "clkernels/launch.hpp"
#include "kernforge/plugin.hpp"
#include "layout.hpp"

namespace kf::clk {

/// The device a call runs on: the backend in plugin_state, the index of `on`'s device.
Device& device_of(const kf_kernel_call_t& call, const kf_tensor_view_t& on);

/// Launches on the call's stream; throws kf::plugin::KernelError with the device's reason.
void run(const kf_kernel_call_t& call, Device& device, const Launch& launch);

/// A 1-D range of whole work-groups covering n items (work-groups of at most 256).
void set_range_1d(Launch& launch, const Device& device, int64_t n);

/// A scalar as the compute type of `dtype` (common.clh's C): its bytes and size.
struct ComputeScalar {
  union {
    float f32;
    double f64;
    float c64[2];   // real part first, as float2
    double c128[2];
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
  } v;
  size_t size;
  Arg arg() const { return Arg{Arg::kValue, nullptr, &v, size}; }
};
ComputeScalar compute_scalar(int32_t dtype, const kf_scalar_t& s);

/// Elementwise launch of `op` over `views` (views[0] the output; all of its shape): the
/// `<op>_contig` kernel when all are dense, else `<op>_strided` with their merged layout. The
/// kernel's arguments are the views' pointers, then `values`, then the element count (and the
/// layout). Nothing runs for an empty output.
void run_elementwise(const kf_kernel_call_t& call, ProgramKey program, const char* op,
                     std::initializer_list<const kf_tensor_view_t*> views,
                     std::initializer_list<Arg> values);

}  // namespace kf::clk
