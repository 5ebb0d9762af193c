// Safetensors files from Python: the two calls kernforge.save_file and kernforge.load_file
// (kernforge/_safetensors.py) make, over the C ABI's kf_safetensors_* functions (2.5). The
// file is read and written without the GIL.
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

std::vector<const char*> c_strings(const std::vector<std::string>& v) {
  std::vector<const char*> out;
  out.reserve(v.size());
  for (const std::string& s : v) out.push_back(s.c_str());
  return out;
}

void save(const std::string& path, const std::vector<std::string>& names, nb::list tensors,
          const std::vector<std::string>& keys, const std::vector<std::string>& values) {
  if (names.size() != nb::len(tensors) || keys.size() != values.size()) {
    throw nb::value_error("safetensors_save: names and tensors, keys and values, must pair up");
  }
  std::vector<kf_tensor_t> handles;
  for (nb::handle o : tensors) {
    const kf_tensor_t h = tensor_of(o);
    if (h == nullptr) {
      throw nb::type_error(("save_file: tensor '" + names[handles.size()] + "' is a " +
                            nb::type_name(o.type()).c_str() + ", not a kernforge Tensor").c_str());
    }
    handles.push_back(h);
  }
  const std::vector<const char*> n = c_strings(names), k = c_strings(keys), v = c_strings(values);
  kf_status_t s = KF_OK;
  {
    nb::gil_scoped_release unlocked;  // the list above keeps every tensor alive
    s = kf_safetensors_save(path.c_str(), n.data(), handles.data(),
                            static_cast<int32_t>(handles.size()), k.data(), v.data(),
                            static_cast<int32_t>(k.size()));
  }
  check(s);
}

/// Owns a kf_safetensors_t while its contents are copied out.
struct LoadedFile {
  kf_safetensors_t h = nullptr;
  ~LoadedFile() { kf_safetensors_release(h); }
};

nb::tuple load(const std::string& path, nb::handle device) {
  const kf_device_t d = to_device(device, kf_device_cpu());
  LoadedFile f;
  kf_status_t s = KF_OK;
  {
    nb::gil_scoped_release unlocked;
    s = kf_safetensors_load(path.c_str(), d, &f.h);
  }
  check(s);
  int32_t count = 0, meta = 0;
  check(kf_safetensors_count(f.h, &count));
  nb::list tensors, metadata;
  for (int32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    kf_tensor_t t = nullptr;
    check(kf_safetensors_name(f.h, i, &name));
    check(kf_safetensors_tensor(f.h, i, &t));
    nb::object w = wrap(t);
    tensors.append(nb::make_tuple(nb::str(name), w));
  }
  check(kf_safetensors_metadata_count(f.h, &meta));
  for (int32_t i = 0; i < meta; ++i) {
    const char *k = nullptr, *v = nullptr;
    check(kf_safetensors_metadata(f.h, i, &k, &v));
    metadata.append(nb::make_tuple(nb::str(k), nb::str(v)));
  }
  return nb::make_tuple(tensors, metadata);
}

}  // namespace

void bind_safetensors(nb::module_& m) {
  m.def("safetensors_save", &save, nb::arg("path"), nb::arg("names"), nb::arg("tensors"),
        nb::arg("keys"), nb::arg("values"),
        "Writes tensors under names with string metadata to a safetensors file.");
  m.def("safetensors_load", &load, nb::arg("path"), nb::arg("device").none(),
        "([(name, tensor), ...], [(key, value), ...]) of a safetensors file, in its order.");
}

}  // namespace kfpy
