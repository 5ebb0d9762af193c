// close_names.hpp — "did you mean" suggestions for a mistyped name.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kf::cli {

/// Up to `limit` names from `candidates` close to `query` (small edit distance, or sharing a
/// prefix or substring), closest first.
std::vector<std::string> close_names(const std::string& query,
                                     const std::vector<std::string>& candidates,
                                     std::size_t limit = 5);

}  // namespace kf::cli
