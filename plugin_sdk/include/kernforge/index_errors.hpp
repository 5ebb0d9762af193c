// kernforge/index_errors.hpp — header-only: the error an index op (index_select, gather,
// index_copy_, index_add_, scatter_add_) raises for an index outside its dim, written once so
// that every backend says it alike (the CTS compares the messages across backends):
//
//   if (v < 0 || v >= size) throw kf::plugin::index_out_of_range(v, position, dim, size);
//
// PyTorch's index ops take no negative indices, so -1 is out of range too.
#pragma once

#include <cstdint>
#include <string>

#include "kernforge/plugin.hpp"

namespace kf::plugin {

/// KF_INVALID_ARGUMENT naming the value, its row-major position in the index, the dim and the
/// valid range; `prefix` starts the message where the op's own kernels start theirs so
/// ("scatter_add_: ").
inline KernelError index_out_of_range(int64_t value, int64_t position, int32_t dim, int64_t size,
                                      const char* prefix = "") {
  std::string msg = std::string(prefix) + "index " + std::to_string(value) + " (at position " +
                    std::to_string(position) + " of index) is out of range for dim " +
                    std::to_string(dim) + " of size " + std::to_string(size);
  msg += size > 0 ? " (valid: 0.." + std::to_string(size - 1) + ")" : " (the dim is empty)";
  return KernelError(KF_INVALID_ARGUMENT, msg);
}

}  // namespace kf::plugin
