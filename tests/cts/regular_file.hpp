// regular_file.hpp — how the conformance suite reads a file it is told to read
// (KERNFORGE_CTS_UNSUPPORTED): the way the loader reads a manifest. A FIFO, a device (/dev/zero)
// or a folder is refused before anything could block or read without end, and a file above the
// size limit is refused before it is read into memory.
#pragma once

#include <cstddef>
#include <string>

namespace cts {

/// The most bytes a file of the suite's may hold (a cts_unsupported.json is a few KiB).
constexpr size_t kMaxFileBytes = 4u << 20;

/// The whole text of the regular file at `path`. Throws std::runtime_error naming the path and
/// what is wrong (missing, not a regular file, larger than kMaxFileBytes, unreadable).
std::string read_regular_file(const std::string& path);

}  // namespace cts
