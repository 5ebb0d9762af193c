// The file checks of the loader (docs/loader.md, "Security"): a plugin's manifest, library and
// dependencies, and the folders holding them, must not be world-writable or owned by another
// user who is not root, unless KERNFORGE_ALLOW_INSECURE_PLUGINS=1.
#pragma once

#include <string>
#include <vector>

namespace kf {

/// "" when every file and its folder may be trusted; otherwise why not and what to do.
std::string untrusted_files(const std::vector<std::string>& files);

}  // namespace kf
