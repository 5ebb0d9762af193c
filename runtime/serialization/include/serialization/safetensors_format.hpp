// Note [The safetensors format]
// A safetensors file is 8 bytes of header length N (a little-endian u64), N bytes of JSON, then
// the data section. The JSON is one object: each tensor by name, {"dtype": "F32", "shape": [2,
// 3], "data_offsets": [begin, end]} with offsets into the data section, and an optional
// "__metadata__" object of strings. The data of every tensor is contiguous, row-major and
// little-endian, and the tensors together cover the data section exactly (no overlap, no hole,
// no trailing byte).
//
// This unit is the format and nothing else: it reads and checks a header against the size of
// its file and writes one; the C ABI (capi/c_api_safetensors.cpp) moves tensors' bytes. The
// reader trusts no number before checking it: the length against the file and a 100 MB cap (the
// reference implementation's), the JSON by nlohmann's SAX parser into the entries directly (no
// document, so no duplicate key is lost and nothing nests), each shape against int64 and
// KF_MAX_NDIM, each byte count against its dtype and shape, each range against the data
// section, and the ranges against each other. Every refusal is KF_INVALID_ARGUMENT naming the
// file, the tensor and the numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernforge/types.h"

namespace kf::safetensors {

/// The largest header accepted, in bytes (the reference implementation's limit).
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

/// One tensor of a header: its bytes are data section [begin, end).
struct Entry {
  std::string name;
  kf_dtype_t dtype = KF_DTYPE_UNDEFINED;
  std::vector<int64_t> shape;
  uint64_t begin = 0;
  uint64_t end = 0;
};

using Metadata = std::vector<std::pair<std::string, std::string>>;

/// A checked header: the entries in the JSON's order, the metadata in its order, and where the
/// data section starts (8 + N) and how long it is.
struct Header {
  std::vector<Entry> entries;
  Metadata metadata;
  uint64_t data_start = 0;
  uint64_t data_bytes = 0;
};

/// The format's code of a dtype ("F32", "BF16", "BOOL", "C64"), or nullptr when the format has
/// none (complex128).
const char* dtype_code(kf_dtype_t dtype) noexcept;
/// The dtype of a code, or KF_DTYPE_UNDEFINED.
kf_dtype_t dtype_from_code(std::string_view code) noexcept;

/// N from a file's first 8 bytes, checked against the file's size and the cap. `source` names
/// the file in messages.
uint64_t header_length(const unsigned char* first8, uint64_t file_size, std::string_view source);
/// Parses and checks the N bytes of header JSON of a file of `file_size` bytes.
Header parse_header(const char* json, uint64_t n, uint64_t file_size, std::string_view source);
/// Both, over a whole file in memory (what the fuzz target calls).
Header parse(const void* bytes, size_t size, std::string_view source);

/// The header of `entries` (names, dtypes, shapes given; begin and end are set here): the 8
/// bytes of length and the JSON, padded with spaces to a multiple of 8. The data section holds
/// the tensors in the order `*data_order` gives (indices into entries: the widest elements
/// first, so that every tensor is aligned to its element size); the JSON lists them in the
/// entries' order. Refuses duplicate or reserved names, dtypes without a code, and sizes that
/// do not fit, naming the tensor.
std::string write_header(std::vector<Entry>& entries, const Metadata& metadata,
                         std::vector<size_t>* data_order);

/// A shape as the errors write it: "[2, 3]".
inline std::string shape_text(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

}  // namespace kf::safetensors
