// os::diagnose_library_file on Windows (see os.hpp): reads the DOS and PE headers of a DLL so a
// file that is empty, not a PE image or built for another machine is named as such.
#if defined(_WIN32)

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "loader/os.hpp"

namespace kf::os {
namespace {

constexpr uint16_t kMachineAmd64 = 0x8664;
constexpr uint16_t kMachineArm64 = 0xAA64;
constexpr uint16_t kMachineI386 = 0x014C;

const char* machine_name(uint16_t machine) {
  switch (machine) {
    case kMachineAmd64: return "x86_64";
    case kMachineArm64: return "arm64";
    case kMachineI386: return "i386";
    default: return "unknown";
  }
}

uint32_t read_le(const std::vector<unsigned char>& b, size_t at, size_t bytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(b[at + i]) << (8 * i);
  return v;
}

}  // namespace

std::string diagnose_library_file(const std::string& path) {
  std::ifstream f(std::filesystem::u8path(path), std::ios::binary);
  if (!f) return "";
  std::vector<unsigned char> head(4096);
  f.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  const size_t n = static_cast<size_t>(f.gcount());
  if (n == 0) return "the file is empty (0 bytes)";
  if (n < 0x40 || head[0] != 'M' || head[1] != 'Z') {
    return "the file is not a DLL (no MZ header)";
  }
  const uint32_t pe = read_le(head, 0x3c, 4);
  if (pe + 6 > n || head[pe] != 'P' || head[pe + 1] != 'E' || head[pe + 2] != 0 ||
      head[pe + 3] != 0) {
    return "the file is not a PE image (no PE signature)";
  }
  const auto machine = static_cast<uint16_t>(read_le(head, pe + 4, 2));
  if (machine != kMachineAmd64) {
    return fmt::format("the file is built for another architecture (PE machine 0x{:04x}, {}); "
                       "this process is x86_64", machine, machine_name(machine));
  }
  return "";
}

}  // namespace kf::os

#endif  // _WIN32
