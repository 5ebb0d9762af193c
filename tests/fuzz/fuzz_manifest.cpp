// Fuzz target for the plugin manifest parser: any bytes must either
// parse into a Manifest or be rejected with kf::Error naming the file; never crash, hang, read
// out of bounds or recurse without bound (the parser caps size and depth).
//
// Built two ways (CMakeLists.txt): with clang as a libFuzzer target (-fsanitize=fuzzer), and
// with any compiler as a replay driver that runs every file of the seed corpus (a CTest case).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "loader/manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const kf::Manifest m = kf::parse_manifest_text(text, "/fuzz/plugin.json");
    // A parsed manifest is complete: the loader relies on these.
    if (m.name.empty() || m.library.empty() || m.device_type.empty()) __builtin_trap();
    if (m.library_path().empty()) __builtin_trap();
  } catch (const kf::Error& e) {
    // Every rejection names the file.
    if (std::string(e.what()).find("/fuzz/plugin.json") == std::string::npos) __builtin_trap();
  }
  return 0;
}
