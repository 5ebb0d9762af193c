// The status part of the C ABI: the thread's last error message and status names.
#include "core/error.hpp"
#include "kernforge/kernforge.h"

extern "C" {

KF_API const char* kf_last_error_message(void) { return kf::last_error(); }

KF_API const char* kf_status_name(kf_status_t status) { return kf::status_name(status); }

}  // extern "C"
