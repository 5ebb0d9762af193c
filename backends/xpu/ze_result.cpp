// ze_result.cpp — see ze_result.hpp.
#include "ze_result.hpp"

#include <cstdio>

namespace kf::xpu {
namespace {

// Every enumerator of ze_result_t in ze_api.h (Level Zero 1.8 headers, API 1.4), with its
// status. The validation results are the backend's own mistakes: KF_INTERNAL.
#define KF_XPU_ZE_RESULTS(X)                                                   \
  X(ZE_RESULT_SUCCESS, KF_OK)                                                  \
  X(ZE_RESULT_NOT_READY, KF_FAILED_PRECONDITION)                               \
  X(ZE_RESULT_ERROR_DEVICE_LOST, KF_UNAVAILABLE)                               \
  X(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, KF_OUT_OF_MEMORY)                      \
  X(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, KF_OUT_OF_MEMORY)                    \
  X(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, KF_INTERNAL)                         \
  X(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, KF_INTERNAL)                          \
  X(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET, KF_UNAVAILABLE)                     \
  X(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE, KF_UNAVAILABLE)                 \
  X(ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX, KF_INTERNAL)                     \
  X(ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE, KF_INTERNAL)                     \
  X(ZE_RESULT_EXP_ERROR_REMOTE_DEVICE, KF_INTERNAL)                            \
  X(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS, KF_UNAVAILABLE)                  \
  X(ZE_RESULT_ERROR_NOT_AVAILABLE, KF_UNAVAILABLE)                             \
  X(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE, KF_UNAVAILABLE)                    \
  X(ZE_RESULT_WARNING_DROPPED_DATA, KF_INTERNAL)                               \
  X(ZE_RESULT_ERROR_UNINITIALIZED, KF_UNAVAILABLE)                             \
  X(ZE_RESULT_ERROR_UNSUPPORTED_VERSION, KF_UNAVAILABLE)                       \
  X(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, KF_UNAVAILABLE)                       \
  X(ZE_RESULT_ERROR_INVALID_ARGUMENT, KF_INTERNAL)                             \
  X(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, KF_INTERNAL)                          \
  X(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, KF_INTERNAL)                         \
  X(ZE_RESULT_ERROR_INVALID_NULL_POINTER, KF_INTERNAL)                         \
  X(ZE_RESULT_ERROR_INVALID_SIZE, KF_INTERNAL)                                 \
  X(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, KF_OUT_OF_MEMORY)                        \
  X(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, KF_INTERNAL)                        \
  X(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT, KF_INTERNAL)               \
  X(ZE_RESULT_ERROR_INVALID_ENUMERATION, KF_INTERNAL)                          \
  X(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION, KF_INTERNAL)                      \
  X(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, KF_INTERNAL)                     \
  X(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, KF_INTERNAL)                        \
  X(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, KF_INTERNAL)                          \
  X(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, KF_INTERNAL)                          \
  X(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, KF_INTERNAL)                        \
  X(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, KF_INTERNAL)                 \
  X(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION, KF_INTERNAL)               \
  X(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, KF_INTERNAL)                \
  X(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, KF_INTERNAL)                 \
  X(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE, KF_INTERNAL)              \
  X(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, KF_INTERNAL)                      \
  X(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE, KF_INTERNAL)                    \
  X(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, KF_INTERNAL)                          \
  X(ZE_RESULT_WARNING_ACTION_REQUIRED, KF_INTERNAL)                            \
  X(ZE_RESULT_ERROR_UNKNOWN, KF_INTERNAL)

}  // namespace

std::string ze_result_name(ze_result_t result) {
  switch (result) {
#define KF_XPU_NAME(value, status) \
  case value:                      \
    return #value;
    KF_XPU_ZE_RESULTS(KF_XPU_NAME)
#undef KF_XPU_NAME
    default:
      break;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "ze_result_t 0x%08x", static_cast<unsigned>(result));
  return text;
}

kf_status_t ze_result_status(ze_result_t result) noexcept {
  switch (result) {
#define KF_XPU_STATUS(value, status) \
  case value:                        \
    return status;
    KF_XPU_ZE_RESULTS(KF_XPU_STATUS)
#undef KF_XPU_STATUS
    default:
      return KF_INTERNAL;
  }
}

const char* ze_result_hint(ze_result_t result) noexcept {
  switch (result) {
    case ZE_RESULT_ERROR_UNINITIALIZED:
      return "no Level Zero driver is installed: install Intel's compute runtime, "
             "intel-level-zero-gpu";
    case ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE:
      return "a library the Level Zero driver needs is missing: reinstall Intel's compute "
             "runtime, intel-level-zero-gpu";
    case ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS:
      return "this user may not open the GPU: add it to the group of /dev/dri/renderD* "
             "(usually 'render')";
    case ZE_RESULT_ERROR_DEVICE_LOST:
      return "the GPU hung, was reset or removed, or its driver was updated";
    case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
      return "the GPU's memory is full";
    case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
      return "host memory is exhausted";
    case ZE_RESULT_ERROR_UNSUPPORTED_VERSION:
      return "the driver is too old for this build: update Intel's compute runtime";
    default:
      return "";
  }
}

std::string ze_failure(const char* call, ze_result_t result) {
  std::string text = std::string(call) + " failed: " + ze_result_name(result);
  const char* hint = ze_result_hint(result);
  if (*hint != '\0') text += std::string(" (") + hint + ")";
  return text;
}

void check(ze_result_t result, const char* call, const std::string& context) {
  if (result == ZE_RESULT_SUCCESS) return;
  std::string message = context.empty() ? std::string() : context + ": ";
  throw ZeError(ze_result_status(result), message + ze_failure(call, result));
}

}  // namespace kf::xpu
