// Safetensors files through the C ABI (2.5): kf_safetensors_save, kf_safetensors_load and the
// accessors of a loaded file (Note [The safetensors format] in
// runtime/serialization/include/serialization/safetensors_format.hpp).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capi/safetensors_io.hpp"
#include "capi/startup.hpp"
#include "core/error.hpp"
#include "core/handle_table.hpp"

namespace {

using kf::TensorImpl;
namespace st = kf::safetensors;

/// A loaded file behind a kf_safetensors_t handle (Note [Handles]): the slot holds a pointer,
/// since the table's objects must be trivially destructible.
struct LoadedSlot {
  static constexpr const char* kHandleKind = "safetensors file";
  st::Loaded* loaded = nullptr;
};
using LoadedTable = kf::HandleTable<LoadedSlot, 6, 20>;

st::Loaded& checked_file(kf_safetensors_t f, const char* fn) {
  LoadedSlot* s = LoadedTable::find(kf::handle_bits(f));
  if (s != nullptr) return *s->loaded;
  if (f == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: the file is NULL; pass a handle from "
                             "kf_safetensors_load", fn);
  kf::fail(KF_INVALID_ARGUMENT, "{}: the safetensors file handle {}", fn,
           kf::handle_problem(LoadedTable::state(kf::handle_bits(f)), LoadedSlot::kHandleKind));
}

template <class T>
void need(const T* p, const char* fn, const char* what) {
  if (p == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: {} must not be NULL", fn, what);
}

/// An index into a file's list of `count` items.
size_t checked_index(int32_t i, size_t count, const char* fn, const char* what) {
  if (i < 0 || static_cast<size_t>(i) >= count) {
    kf::fail(KF_OUT_OF_RANGE, "{}: index {} is outside the file's {} {}", fn, i, count, what);
  }
  return static_cast<size_t>(i);
}

std::vector<std::pair<std::string, TensorImpl*>> named_tensors(const char* const* names,
                                                               const kf_tensor_t* tensors,
                                                               int32_t count) {
  const char* fn = "kf_safetensors_save";
  if (count < 0 || (count > 0 && (names == nullptr || tensors == nullptr))) {
    kf::fail(KF_INVALID_ARGUMENT, "{}: names and tensors must each hold count ({}) entries",
             fn, count);
  }
  std::vector<std::pair<std::string, TensorImpl*>> out;
  for (int32_t i = 0; i < count; ++i) {
    if (names[i] == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: names[{}] is NULL", fn, i);
    out.emplace_back(names[i], &kf::checked(tensors[i], fn));
  }
  return out;
}

st::Metadata metadata_of(const char* const* keys, const char* const* values, int32_t count) {
  const char* fn = "kf_safetensors_save";
  if (count < 0 || (count > 0 && (keys == nullptr || values == nullptr))) {
    kf::fail(KF_INVALID_ARGUMENT, "{}: metadata_keys and metadata_values must each hold "
             "metadata_count ({}) strings", fn, count);
  }
  st::Metadata out;
  for (int32_t i = 0; i < count; ++i) {
    if (keys[i] == nullptr || values[i] == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "{}: metadata entry {} has a NULL key or value", fn, i);
    }
    out.emplace_back(keys[i], values[i]);
  }
  return out;
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_safetensors_save(const char* path, const char* const* names,
                                       const kf_tensor_t* tensors, int32_t count,
                                       const char* const* metadata_keys,
                                       const char* const* metadata_values,
                                       int32_t metadata_count) {
  return kf::guard([&] {
    need(path, "kf_safetensors_save", "path");
    kf::ensure_initialized();
    st::save_file(path, named_tensors(names, tensors, count),
                  metadata_of(metadata_keys, metadata_values, metadata_count));
  });
}

KF_API kf_status_t kf_safetensors_load(const char* path, kf_device_t device,
                                       kf_safetensors_t* out) {
  return kf::guard([&] {
    need(path, "kf_safetensors_load", "path");
    need(out, "kf_safetensors_load", "out");
    kf::ensure_initialized();
    auto loaded = std::make_unique<st::Loaded>();
    st::load_file(path, device, *loaded);
    LoadedSlot* slot = LoadedTable::acquire();
    slot->loaded = loaded.release();
    *out = kf::handle_from_bits<kf_safetensors_t>(LoadedTable::handle_of(slot));
  });
}

KF_API kf_status_t kf_safetensors_release(kf_safetensors_t file) {
  if (file == nullptr) return KF_OK;
  return kf::guard([&] {
    st::Loaded& loaded = checked_file(file, "kf_safetensors_release");
    LoadedSlot* slot = LoadedTable::find(kf::handle_bits(file));
    slot->loaded = nullptr;
    LoadedTable::release(slot);
    delete &loaded;
  });
}

KF_API kf_status_t kf_safetensors_count(kf_safetensors_t file, int32_t* out) {
  return kf::guard([&] {
    const st::Loaded& f = checked_file(file, "kf_safetensors_count");
    need(out, "kf_safetensors_count", "out");
    *out = static_cast<int32_t>(f.tensors.size());
  });
}

KF_API kf_status_t kf_safetensors_name(kf_safetensors_t file, int32_t index, const char** out) {
  return kf::guard([&] {
    const st::Loaded& f = checked_file(file, "kf_safetensors_name");
    need(out, "kf_safetensors_name", "out");
    *out = f.names[checked_index(index, f.names.size(), "kf_safetensors_name", "tensors")].c_str();
  });
}

KF_API kf_status_t kf_safetensors_tensor(kf_safetensors_t file, int32_t index, kf_tensor_t* out) {
  return kf::guard([&] {
    const st::Loaded& f = checked_file(file, "kf_safetensors_tensor");
    need(out, "kf_safetensors_tensor", "out");
    TensorImpl* t = f.tensors[checked_index(index, f.tensors.size(), "kf_safetensors_tensor",
                                            "tensors")];
    kf::retain(t);
    *out = kf::handle_of(t);
  });
}

KF_API kf_status_t kf_safetensors_metadata_count(kf_safetensors_t file, int32_t* out) {
  return kf::guard([&] {
    const st::Loaded& f = checked_file(file, "kf_safetensors_metadata_count");
    need(out, "kf_safetensors_metadata_count", "out");
    *out = static_cast<int32_t>(f.metadata.size());
  });
}

KF_API kf_status_t kf_safetensors_metadata(kf_safetensors_t file, int32_t index,
                                           const char** out_key, const char** out_value) {
  return kf::guard([&] {
    const char* fn = "kf_safetensors_metadata";
    const st::Loaded& f = checked_file(file, fn);
    need(out_key, fn, "out_key");
    need(out_value, fn, "out_value");
    const auto& kv = f.metadata[checked_index(index, f.metadata.size(), fn, "metadata entries")];
    *out_key = kv.first.c_str();
    *out_value = kv.second.c_str();
  });
}

}  // extern "C"
