// kernels.hpp — one registration function per kernel file of the CPU plugin, called by
// register_kernels in plugin.cpp. Each registers its ops with their dtype masks and returns
// the first failing status.
#pragma once

#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::cpu {

kf_status_t register_factory_kernels(const kf_registrar_t* reg);  // full ... linspace eye
kf_status_t register_binary_kernels(const kf_registrar_t* reg);   // add sub mul div eq lt gt where
kf_status_t register_unary_kernels(const kf_registrar_t* reg);    // neg abs exp log sqrt relu ...
kf_status_t register_reduce_kernels(const kf_registrar_t* reg);   // sum mean amax argmax
kf_status_t register_softmax_kernels(const kf_registrar_t* reg);  // softmax log_softmax
kf_status_t register_prod_minmax_kernels(const kf_registrar_t* reg);    // prod amin argmin
kf_status_t register_moments_kernels(const kf_registrar_t* reg);        // var std
kf_status_t register_logical_reduce_kernels(const kf_registrar_t* reg); // all any
kf_status_t register_logsumexp_kernels(const kf_registrar_t* reg);      // logsumexp
kf_status_t register_cumsum_kernels(const kf_registrar_t* reg);         // cumsum
kf_status_t register_linalg_kernels(const kf_registrar_t* reg);   // mm bmm addmm
kf_status_t register_copy_kernels(const kf_registrar_t* reg);     // copy_ to_dtype
kf_status_t register_compare_kernels(const kf_registrar_t* reg);  // ne le ge logical_and/or
kf_status_t register_minmax_pow_kernels(const kf_registrar_t* reg);  // maximum minimum pow
kf_status_t register_math_kernels(const kf_registrar_t* reg);     // rsqrt sin cos erf reciprocal
kf_status_t register_activation_kernels(const kf_registrar_t* reg);  // gelu silu
kf_status_t register_rounding_kernels(const kf_registrar_t* reg);    // floor ceil round sign clamp
kf_status_t register_random_kernels(const kf_registrar_t* reg);   // rand randn
kf_status_t register_index_kernels(const kf_registrar_t* reg);    // index_select gather fill_
kf_status_t register_norm_kernels(const kf_registrar_t* reg);     // layer_norm rms_norm
kf_status_t register_attention_kernels(const kf_registrar_t* reg);  // scaled_dot_product_attention

/// Seeds the random generator of random_kernels.cpp and resets its offset (kf_manual_seed).
void seed_random(uint64_t seed);

/// The counters a rand of `numel` elements takes from the generator (float64's layout when
/// `wide`, else float32's), reserved as that rand would: kernels that draw random numbers
/// themselves (attention's dropout) get the numbers rand_like would give.
struct RandomRange {
  uint64_t seed = 0, offset = 0;
  bool wide = false;
};
RandomRange reserve_random(int64_t numel, bool wide);
/// rand's value of row-major element i of the range (a float32 or float64 uniform in [0, 1)).
double uniform_at(const RandomRange& r, int64_t i);

}  // namespace kf::cpu
