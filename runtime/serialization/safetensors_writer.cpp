// Writes a safetensors header (Note [The safetensors format]): the data laid out widest
// elements first, the JSON written by hand with nlohmann's string escaping, padded with spaces.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <string>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "kernforge/dtypes.hpp"
#include "serialization/safetensors_format.hpp"

namespace kf::safetensors {
namespace {

using json = nlohmann::json;

/// A JSON string, refusing text that is not UTF-8.
std::string quoted(const std::string& text, const char* what) {
  try {
    return json(text).dump();
  } catch (const json::type_error&) {
    fail(KF_INVALID_ARGUMENT, "save_safetensors: the {} \"{}\" is not valid UTF-8; the format "
         "stores names and metadata as JSON strings, which must be", what,
         json(text).dump(-1, ' ', true, json::error_handler_t::replace));
  }
}

/// The bytes of one entry, checked: a name the format allows and a dtype it has.
uint64_t entry_bytes(const Entry& e) {
  if (e.name == "__metadata__") {
    fail(KF_INVALID_ARGUMENT, "save_safetensors: no tensor may be named '__metadata__', the "
         "key of the file's metadata; rename it");
  }
  if (dtype_code(e.dtype) == nullptr) {
    fail(KF_INVALID_ARGUMENT, "save_safetensors: tensor '{}' is {}, which the safetensors format "
         "has no code for (its complex type is C64); convert it to complex64, or save its real "
         "and imaginary parts as two float64 tensors", e.name, dtype_text(e.dtype));
  }
  int64_t numel = 1, bytes = 0;
  for (int64_t d : e.shape) {
    if (d < 0 || !checked_mul(numel, d, &numel)) numel = -1;
  }
  if (!checked_bytes(numel, dtype_bytes(e.dtype), &bytes)) {
    fail(KF_INVALID_ARGUMENT, "save_safetensors: tensor '{}' of shape {} is more bytes than "
         "int64 holds", e.name, shape_text(e.shape));
  }
  return static_cast<uint64_t>(bytes);
}

void check_unique(const std::vector<Entry>& entries, const Metadata& metadata) {
  std::set<std::string_view> names, keys;
  for (const Entry& e : entries) {
    if (!names.insert(e.name).second) {
      fail(KF_INVALID_ARGUMENT, "save_safetensors: two tensors are named '{}'; names must be "
           "unique", e.name);
    }
  }
  for (const auto& kv : metadata) {
    if (!keys.insert(kv.first).second) {
      fail(KF_INVALID_ARGUMENT, "save_safetensors: the metadata key '{}' is given twice",
           kv.first);
    }
  }
}

std::string metadata_json(const Metadata& metadata) {
  std::string out = "\"__metadata__\":{";
  for (size_t i = 0; i < metadata.size(); ++i) {
    if (i > 0) out += ',';
    out += quoted(metadata[i].first, "metadata key") + ':' +
           quoted(metadata[i].second, "metadata value");
  }
  return out + "}";
}

// "2,3": a shape as the JSON array's items.
std::string shape_items(const std::vector<int64_t>& shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) out += (i > 0 ? "," : "") + std::to_string(shape[i]);
  return out;
}

std::string entry_json(const Entry& e) {
  return fmt::format("{}:{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{},{}]}}",
                     quoted(e.name, "tensor name"), dtype_code(e.dtype), shape_items(e.shape),
                     e.begin, e.end);
}

}  // namespace

std::string write_header(std::vector<Entry>& entries, const Metadata& metadata,
                         std::vector<size_t>* data_order) {
  check_unique(entries, metadata);
  std::vector<uint64_t> bytes;
  bytes.reserve(entries.size());
  for (const Entry& e : entries) bytes.push_back(entry_bytes(e));
  std::vector<size_t>& order = *data_order;
  order.resize(entries.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return dtype_bytes(entries[a].dtype) > dtype_bytes(entries[b].dtype);
  });
  uint64_t at = 0;
  for (size_t i : order) {
    entries[i].begin = at;
    if (!checked_add(at, bytes[i], &at)) {
      fail(KF_INVALID_ARGUMENT, "save_safetensors: the tensors together are more bytes than "
           "64 bits count");
    }
    entries[i].end = at;
  }
  std::string text = "{";
  if (!metadata.empty()) text += metadata_json(metadata);
  for (const Entry& e : entries) text += (text.size() > 1 ? "," : "") + entry_json(e);
  text += '}';
  text.append((8 - text.size() % 8) % 8, ' ');
  if (text.size() > kMaxHeaderBytes) {
    fail(KF_INVALID_ARGUMENT, "save_safetensors: the header of {} tensors would be {} bytes, "
         "above the format's limit of {}; save them in several files", entries.size(),
         text.size(), kMaxHeaderBytes);
  }
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
  return out + text;
}

}  // namespace kf::safetensors
