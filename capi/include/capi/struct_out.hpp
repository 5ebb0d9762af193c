// Growable output structs of the C ABI (kf_backend_info_t, kf_memory_stats_t,
// kf_kernel_info_t): a caller built against an older minor passes a smaller struct_size and gets
// the fields its struct has; one built against a newer minor gets ours and keeps the rest.
#pragma once

#include <cstddef>
#include <cstring>

#include "core/error.hpp"

namespace kf {

/// Copies min(out->struct_size, sizeof(T)) bytes of `full` into `out`, keeping out->struct_size.
/// `min_size` is the struct's size in ABI 1.0; a smaller struct_size is KF_INVALID_ARGUMENT.
template <class T>
void fill_struct_out(T* out, const T& full, size_t min_size, const char* fn) {
  if (out == nullptr || out->struct_size < min_size) {
    fail(KF_INVALID_ARGUMENT, "{}: out is NULL or its struct_size ({}) is smaller than any "
                              "version of the struct; set it to sizeof of the struct",
         fn, out == nullptr ? 0 : out->struct_size);
  }
  const size_t caller_size = out->struct_size;
  const size_t n = caller_size < sizeof(T) ? caller_size : sizeof(T);
  std::memcpy(static_cast<void*>(out), &full, n);
  out->struct_size = caller_size;
}

}  // namespace kf
