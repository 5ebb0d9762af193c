// Loader-side operations on the backend registry (see backends.cpp).
#pragma once

#include <memory>

#include "loader/backend.hpp"

namespace kf {

/// Appends a backend in any state; it lives for the process.
Backend& add_backend(std::unique_ptr<Backend> backend);
/// A free dispatch slot for a backend about to register kernels.
int32_t reserve_slot();
/// Makes a loaded backend visible to dispatch (its slot and device type).
void publish_backend(Backend& b);

}  // namespace kf
