// kernforge/safetensors.hpp — state dicts saved and loaded as safetensors files, over the C
// ABI's kf_safetensors_* functions (2.5; docs/serialization.md). Include it instead of (or
// beside) kernforge.hpp, which it includes.
//
//   kf::save_safetensors("model.safetensors", {{"w", w}, {"b", b}}, {{"step", "3"}});
//   kf::SafetensorsFile f = kf::load_safetensors("model.safetensors");
//   kf::Tensor w2 = f.at("w");          // f.tensors: (name, tensor) in the file's order
#ifndef KERNFORGE_SAFETENSORS_HPP_
#define KERNFORGE_SAFETENSORS_HPP_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernforge/kernforge.hpp"

namespace kf {

/// Tensors by name, in order.
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

/// A loaded file: its tensors in the header's order and its metadata.
struct SafetensorsFile {
  NamedTensors tensors;
  std::map<std::string, std::string> metadata;

  /// The tensor named `name`; throws kf::Error (KF_NOT_FOUND) naming it when there is none.
  const Tensor& at(const std::string& name) const {
    for (const auto& [n, t] : tensors) {
      if (n == name) return t;
    }
    throw Error(KF_NOT_FOUND, "load_safetensors: the file has no tensor '" + name + "'");
  }
  bool contains(const std::string& name) const {
    for (const auto& entry : tensors) {
      if (entry.first == name) return true;
    }
    return false;
  }
  std::size_t size() const { return tensors.size(); }
};

/// Writes `tensors` (any layout and device) and `metadata` to `path`, replacing it; the header
/// lists the tensors in the order given (from a std::map m: NamedTensors(m.begin(), m.end())).
inline void save_safetensors(const std::string& path, const NamedTensors& tensors,
                             const std::map<std::string, std::string>& metadata = {}) {
  std::vector<const char*> names, keys, values;
  std::vector<kf_tensor_t> handles;
  for (const auto& [name, t] : tensors) {
    names.push_back(name.c_str());
    handles.push_back(t.handle());
  }
  for (const auto& [k, v] : metadata) {
    keys.push_back(k.c_str());
    values.push_back(v.c_str());
  }
  detail::check(kf_safetensors_save(path.c_str(), names.data(), handles.data(),
                                    static_cast<int32_t>(handles.size()), keys.data(),
                                    values.data(), static_cast<int32_t>(keys.size())));
}

namespace detail {
/// Owns a kf_safetensors_t while its contents are copied out.
struct SafetensorsHandle {
  kf_safetensors_t h = nullptr;
  ~SafetensorsHandle() { kf_safetensors_release(h); }
};
}  // namespace detail

/// Reads `path` into new tensors on `device`; a malformed file throws kf::Error saying what is
/// wrong with it.
inline SafetensorsFile load_safetensors(const std::string& path, Device device = Device::cpu()) {
  detail::SafetensorsHandle f;
  detail::check(kf_safetensors_load(path.c_str(), device.c(), &f.h));
  SafetensorsFile out;
  int32_t count = 0, meta = 0;
  detail::check(kf_safetensors_count(f.h, &count));
  for (int32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    kf_tensor_t t = nullptr;
    detail::check(kf_safetensors_name(f.h, i, &name));
    detail::check(kf_safetensors_tensor(f.h, i, &t));
    out.tensors.emplace_back(name, Tensor::adopt(t));
  }
  detail::check(kf_safetensors_metadata_count(f.h, &meta));
  for (int32_t i = 0; i < meta; ++i) {
    const char *k = nullptr, *v = nullptr;
    detail::check(kf_safetensors_metadata(f.h, i, &k, &v));
    out.metadata.emplace(k, v);
  }
  return out;
}

}  // namespace kf

#endif  // KERNFORGE_SAFETENSORS_HPP_
