// The `requires` block of a manifest, checked without opening anything: OS, architecture and
// CPU features (with OS support, via the compiler's cpu-feature probe).
#pragma once

#include <string>

#include "loader/manifest.hpp"

namespace kf {

/// "" when the machine meets the manifest's requirements, otherwise why not.
std::string unmet_requirements(const Manifest& m);

}  // namespace kf
