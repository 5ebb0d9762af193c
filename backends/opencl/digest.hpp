// digest.hpp — SHA-256 (OpenSSL's libcrypto), for the program cache's entries (cache_entry.hpp).
#pragma once

#include <cstddef>

#include "cache_entry.hpp"

namespace kf::opencl {

/// The SHA-256 digest of `size` bytes at `data`; false when libcrypto could not compute it.
bool sha256(const void* data, size_t size, Digest& out);

}  // namespace kf::opencl
