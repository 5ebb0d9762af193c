// The one place that decides how a backend serves (op, dtype); dispatch and kf_op_kernel_info
// both ask it. In order:
//   a view                                  -> computed in the core;
//   the backend's kernel for the dtype      -> that kernel (it overrides a composite);
//   a composite                             -> the core's implementation;
//   the backend's fallback covers the dtype -> its boxed fallback;
//   the CPU backend has a kernel            -> the CPU fallback (unless KERNFORGE_CPU_FALLBACK=0);
//   else                                    -> nothing (KF_UNIMPLEMENTED).
#pragma once

#include <cstdint>

#include "device/backend.hpp"
#include "registry/op_def.hpp"

namespace kf {

/// kf_kernel_kind_t values, plus the backend's own fallback (KF_KERNEL_BACKEND_FALLBACK).
struct KernelChoice {
  int32_t kind = KF_KERNEL_NONE;
  kf_kernel_fn fn = nullptr;  // set for KF_KERNEL_BACKEND and KF_KERNEL_BACKEND_FALLBACK
  uint32_t flags = 0;
  const char* provenance = "";
};

/// How `backend` serves `def` for the computation dtype `dtype`. Lock-free.
KernelChoice choose_kernel(const OpDef& def, const Backend& backend, kf_dtype_t dtype) noexcept;

/// choose_kernel for a call whose inputs reach the kernel in the dtypes of `input_dtypes` (a
/// mask: those not converted to `dtype`, such as copy_'s source). A backend kernel that is not
/// registered for a complex dtype among them cannot read it (two floats an element), so the call
/// goes on down the list as if the backend had no kernel: to its own fallback or the CPU
/// fallback, else nothing.
KernelChoice choose_kernel_for_inputs(const OpDef& def, const Backend& backend, kf_dtype_t dtype,
                                      uint32_t input_dtypes) noexcept;

/// "backend", "composite", "view", "backend fallback", "fallback" or "none".
const char* kernel_kind_name(int32_t kind) noexcept;

}  // namespace kf
