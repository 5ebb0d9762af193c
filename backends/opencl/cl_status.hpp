// cl_status.hpp — OpenCL error codes: their names and the kernforge status each maps to.
#pragma once

#include <string>

#include <CL/cl.h>

#include "kernforge/types.h"

namespace kf::opencl {

/// "CL_OUT_OF_RESOURCES", ... ; "CL_<code>" for a code this table does not know.
std::string cl_error_name(cl_int code);

/// KF_OUT_OF_MEMORY for the allocation failures, KF_UNAVAILABLE for a missing platform or
/// device, KF_INTERNAL for the rest (a call the backend made wrong, or a driver failure).
kf_status_t cl_status(cl_int code) noexcept;

/// "<what> failed: <name> (<code>)".
std::string cl_failure(const char* what, cl_int code);

}  // namespace kf::opencl
