// Tensors to and from safetensors files: the bytes of the tensors, moved through the format of
// serialization/safetensors_format.hpp (Note [The safetensors format]). The C ABI's functions
// (c_api_safetensors.cpp) check their arguments and call these.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "serialization/safetensors_format.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::safetensors {

/// A loaded file: the tensors in the header's order (one reference each) and the metadata.
struct Loaded {
  std::vector<std::string> names;
  std::vector<TensorImpl*> tensors;
  Metadata metadata;
  Loaded() = default;
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;
  ~Loaded();
};

/// Writes `tensors` (any layout, any device: copied to contiguous host bytes) and `metadata`
/// to `path`, replacing it. A failure removes what was written.
void save_file(const std::string& path,
               const std::vector<std::pair<std::string, TensorImpl*>>& tensors,
               const Metadata& metadata);

/// Reads `path` into new contiguous tensors on `device`, every check of the format first.
void load_file(const std::string& path, kf_device_t device, Loaded& out);

}  // namespace kf::safetensors
