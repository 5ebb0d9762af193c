// vendor_ops.cpp — the rocm backend's own op families (gpukernels' vendor_ops.hpp): none yet
// (rocSOLVER and rocFFT are not wired; their ops run on the CPU fallback).
#include "vendor_ops.hpp"

namespace kf::cuda {

kf_status_t register_vendor_ops(const kf_registrar_t* /*reg*/) { return KF_OK; }

}  // namespace kf::cuda
