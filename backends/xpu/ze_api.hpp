// ze_api.hpp — every Level Zero function the xpu backend calls, as one table of pointers.
//
// Production fills it from the real loader (loader_api(), ze_api_loader.cpp, the only file that
// takes the address of a ze* function); the unit tests (tests/xpu) fill it with a fake driver,
// so the host logic (enumeration, memory bookkeeping, error mapping, module loading, streams
// and events) runs and is checked without hardware. Each member is named and typed as the
// function it stands for (decltype of the declaration in ze_api.h), so the table cannot drift
// from the header, and KF_XPU_ZE_FUNCTIONS is the one list of the functions used.
//
// Ownership: a table is a plain value; the code that uses one keeps a reference to a table that
// outlives it (loader_api() returns a static one). Thread safety: the pointers are never written
// after the table is built.
#pragma once

#include <level_zero/ze_api.h>

#define KF_XPU_ZE_FUNCTIONS(X)                                                          \
  /* drivers and devices */                                                             \
  X(zeInit) X(zeDriverGet) X(zeDriverGetApiVersion) X(zeDriverGetProperties)            \
  X(zeDeviceGet) X(zeDeviceGetProperties) X(zeDeviceGetComputeProperties)              \
  X(zeDeviceGetModuleProperties) X(zeDeviceGetMemoryProperties)                         \
  X(zeDeviceGetCommandQueueGroupProperties)                                             \
  /* contexts and memory */                                                             \
  X(zeContextCreate) X(zeContextDestroy) X(zeMemAllocDevice) X(zeMemAllocHost)          \
  X(zeMemFree)                                                                          \
  /* immediate command lists */                                                         \
  X(zeCommandListCreateImmediate) X(zeCommandListDestroy)                               \
  X(zeCommandListAppendMemoryCopy) X(zeCommandListAppendMemoryFill)                     \
  X(zeCommandListAppendBarrier) X(zeCommandListAppendWaitOnEvents)                      \
  X(zeCommandListAppendWriteGlobalTimestamp)                                            \
  X(zeCommandListAppendLaunchKernel)                                                    \
  /* events */                                                                          \
  X(zeEventPoolCreate) X(zeEventPoolDestroy) X(zeEventCreate) X(zeEventDestroy)         \
  X(zeEventHostSynchronize) X(zeEventQueryStatus)                                       \
  /* modules and kernels */                                                             \
  X(zeModuleCreate) X(zeModuleDestroy) X(zeModuleBuildLogGetString)                     \
  X(zeModuleBuildLogDestroy) X(zeKernelCreate) X(zeKernelDestroy)                       \
  X(zeKernelSetGroupSize) X(zeKernelSetArgumentValue)

namespace kf::xpu {

struct ZeApi {
#define KF_XPU_ZE_MEMBER(name) decltype(&::name) name = nullptr;
  KF_XPU_ZE_FUNCTIONS(KF_XPU_ZE_MEMBER)
#undef KF_XPU_ZE_MEMBER
};

/// The table of the real Level Zero loader (libze_loader.so.1), linked into the plugin.
const ZeApi& loader_api() noexcept;

}  // namespace kf::xpu
