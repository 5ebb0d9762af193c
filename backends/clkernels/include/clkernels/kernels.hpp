// kernels.hpp — the shared OpenCL C kernels: their sources, build options and registration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "clkernels/device.hpp"
#include "kernforge/plugin.h"

namespace kf::clk {

/// The OpenCL C source of a family (kernels/common.clh prepended), embedded at build time.
const char* family_source(Family family) noexcept;

/// The compiler options that specialise a family's source for key.dtype on a device with
/// `caps` ("-cl-std=CL1.2 -DKF_DT=0 -DKF_HAS_FP64=1").
std::string build_options(ProgramKey key, const Capabilities& caps);

/// "f32", "i64", ...: kf_dtype_t's short name (the copy kernels' suffixes, messages).
const char* short_name(int32_t dtype) noexcept;

/// The dtypes (bit 1u << kf_dtype_t) the kernels can serve on devices with `caps`. Complex
/// dtypes only `with_complex`: the backends that build programs from the OpenCL C sources at run
/// time (opencl) have them; the SPIR-V modules (xpu) are built for the real dtypes only.
uint32_t supported_dtypes(const Capabilities& caps, bool with_complex) noexcept;

/// Whether sort, argsort and searchsorted should run natively on a device with `caps`: on one
/// that runs a work-group's items side by side (a GPU). On a CPU device (PoCL) the sorting
/// network is many times slower than the CPU fallback, whose copies are host memory copies
/// (Note [Sorts on CPU devices]). KERNFORGE_CLKERNELS_SCHEDULE=gpu makes every device count as
/// a GPU, so that the tests run the kernels on PoCL.
bool sorts_natively(const Capabilities& caps);

/// Registers every kernel of the shared set for the dtypes in `dtype_mask` (the intersection of
/// supported_dtypes() over the backend's devices): each op for those of its dtypes the kernels
/// have (complex ones for the ops common.clh lists), the CPU fallback serving the rest. The
/// kernels expect call->plugin_state to be the backend's kf::clk::Backend. `devices_read_back`: the backend's devices implement
/// Device::read_back, which the index ops (index_select and gather: their index checks) need;
/// without it those ops are left to the CPU fallback. `native_sorts`: sorts_natively() holds
/// for some device of the backend; without it the sorts are left to the CPU fallback.
kf_status_t register_kernels(const kf_registrar_t* registrar, uint32_t dtype_mask,
                             bool devices_read_back = false, bool native_sorts = true);

}  // namespace kf::clk
