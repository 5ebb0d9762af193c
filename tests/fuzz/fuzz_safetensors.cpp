// Fuzz target for the safetensors reader (runtime/serialization, Note [The safetensors format]):
// any bytes are either a file whose header is consistent (every tensor's range inside the data
// section, its byte count its dtype's and shape's, the ranges covering the section exactly) or
// refused with KF_INVALID_ARGUMENT and a message naming the file; never a crash or a read out of
// bounds. An accepted header written again by the writer parses back to the same tensors and
// metadata.
//
// Built two ways (CMakeLists.txt): with clang as a libFuzzer target, and with any compiler as a
// replay driver of the seed corpus (a CTest case). Pure C++: the format unit and core's errors.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernforge/dtypes.hpp"
#include "serialization/safetensors_format.hpp"

namespace {

namespace st = kf::safetensors;

void check_header(const st::Header& h, size_t size) {
  if (h.data_start + h.data_bytes != size) __builtin_trap();
  uint64_t covered = 0;
  for (const st::Entry& e : h.entries) {
    if (e.end > h.data_bytes || e.begin > e.end) __builtin_trap();
    if (st::dtype_code(e.dtype) == nullptr || e.shape.size() > KF_MAX_NDIM) __builtin_trap();
    uint64_t n = kf::dtype_bytes(e.dtype);
    for (int64_t d : e.shape) n *= static_cast<uint64_t>(d);
    if (n != e.end - e.begin) __builtin_trap();
    covered += n;
  }
  if (covered != h.data_bytes) __builtin_trap();
}

/// The writer's header for the same tensors, with zero bytes of data, parses back to them.
void check_round_trip(const st::Header& h) {
  std::vector<st::Entry> entries = h.entries;
  std::vector<size_t> order;
  std::string file = st::write_header(entries, h.metadata, &order);
  if (file.size() % 8 != 0) __builtin_trap();
  file.append(h.data_bytes, '\0');
  const st::Header again = st::parse(file.data(), file.size(), "round trip");
  if (again.entries.size() != h.entries.size() || again.metadata != h.metadata) __builtin_trap();
  for (size_t i = 0; i < h.entries.size(); ++i) {
    const st::Entry &a = again.entries[i], &b = h.entries[i];
    if (a.name != b.name || a.dtype != b.dtype || a.shape != b.shape) __builtin_trap();
    if (a.begin % kf::dtype_bytes(a.dtype) != 0) __builtin_trap();  // widest first: aligned
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  st::Header h;
  try {
    h = st::parse(data, size, "fuzz");
  } catch (const kf::Error& e) {
    const std::string msg = e.what();
    if (e.status() != KF_INVALID_ARGUMENT || msg.rfind("safetensors file fuzz: ", 0) != 0) {
      __builtin_trap();
    }
    return 0;
  }
  check_header(h, size);
  check_round_trip(h);
  return 0;
}
