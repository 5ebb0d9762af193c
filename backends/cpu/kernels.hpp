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
kf_status_t register_softmax_kernels(const kf_registrar_t* reg);  // softmax
kf_status_t register_linalg_kernels(const kf_registrar_t* reg);   // mm bmm
kf_status_t register_copy_kernels(const kf_registrar_t* reg);     // copy_ to_dtype
kf_status_t register_norm_kernels(const kf_registrar_t* reg);     // layer_norm rms_norm
kf_status_t register_attention_kernels(const kf_registrar_t* reg);  // scaled_dot_product_attention

}  // namespace kf::cpu
