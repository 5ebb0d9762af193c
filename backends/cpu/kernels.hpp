// kernels.hpp — one registration function per kernel file of the CPU plugin, called by
// register_kernels in plugin.cpp. Each registers its ops with their dtype masks and returns
// the first failing status.
#pragma once

#include "kernforge/plugin.h"

namespace kf::cpu {

kf_status_t register_factory_kernels(const kf_registrar_t* reg);  // full zeros ones arange
kf_status_t register_binary_kernels(const kf_registrar_t* reg);   // add sub mul div eq lt gt where
kf_status_t register_unary_kernels(const kf_registrar_t* reg);    // neg abs exp log sqrt relu ...
kf_status_t register_reduce_kernels(const kf_registrar_t* reg);   // sum mean amax argmax
kf_status_t register_softmax_kernels(const kf_registrar_t* reg);  // softmax log_softmax
kf_status_t register_prod_minmax_kernels(const kf_registrar_t* reg);    // prod amin argmin
kf_status_t register_moments_kernels(const kf_registrar_t* reg);        // var std
kf_status_t register_logical_reduce_kernels(const kf_registrar_t* reg); // all any
kf_status_t register_logsumexp_kernels(const kf_registrar_t* reg);      // logsumexp
kf_status_t register_cumsum_kernels(const kf_registrar_t* reg);         // cumsum
kf_status_t register_linalg_kernels(const kf_registrar_t* reg);   // mm bmm
kf_status_t register_copy_kernels(const kf_registrar_t* reg);     // copy_ to_dtype

}  // namespace kf::cpu
