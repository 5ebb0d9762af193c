#include "regular_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#if defined(_WIN32)
#include <filesystem>
#include <fstream>
#include <iterator>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace cts {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw std::runtime_error(path + " " + why);
}

std::string too_large() {
  return "is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB; it is not a file the "
         "conformance suite reads";
}

}  // namespace

#if defined(_WIN32)

std::string read_regular_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  // The same words as the POSIX branch: "cannot be opened: " and the system's reason.
  if (ec) refuse(path, "cannot be opened: " + ec.message());
  if (!std::filesystem::exists(status)) refuse(path, std::string("cannot be opened: ") + std::strerror(ENOENT));
  if (!std::filesystem::is_regular_file(status)) refuse(path, "is not a regular file");
  if (std::filesystem::file_size(path, ec) > kMaxFileBytes) refuse(path, too_large());
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, std::string("cannot be opened: ") + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

#else

// Read through a descriptor opened without blocking (a FIFO opens at once) and checked with
// fstat before the first read; at most kMaxFileBytes + 1 bytes are ever read.
std::string read_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) refuse(path, std::string("cannot be opened: ") + std::strerror(errno));
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "is not a regular file (a FIFO, a device or a folder); give a JSON file";
  } else if (static_cast<unsigned long long>(st.st_size) > kMaxFileBytes) {
    why = too_large();
  }
  std::string text;
  while (why.empty() && text.size() <= kMaxFileBytes) {
    char buf[65536];
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) why = std::string("cannot be read: ") + std::strerror(errno);
    if (got <= 0) break;
    text.append(buf, static_cast<size_t>(got));
  }
  ::close(fd);
  if (why.empty() && text.size() > kMaxFileBytes) why = too_large();  // it grew while read
  if (!why.empty()) refuse(path, why);
  return text;
}

#endif

}  // namespace cts
