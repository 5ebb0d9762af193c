// The plugins' file stores on POSIX systems (private_files.hpp). Thread safety: no state.
#if !defined(_WIN32)

#include "loader/private_files.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace kf::os {
namespace {

std::string error_text(const std::string& what, const std::string& path) {
  return fmt::format("{} {}: {}", what, path, std::strerror(errno));
}

// ".<name>.<16 hex digits>" from the kernel's random numbers, "" when it has none to give.
std::string temporary_name(const std::string& name) {
  unsigned char bits[8];
  size_t n = 0;
  while (n < sizeof bits) {
    const ssize_t got = getrandom(bits + n, sizeof bits - n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return "";
    n += static_cast<size_t>(got);
  }
  std::string out = "." + name + ".";
  for (unsigned char b : bits) out += fmt::format("{:02x}", b);
  return out;
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t put = write(fd, p, size);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    p += put;
    size -= static_cast<size_t>(put);
  }
  return true;
}

// A new file of an unpredictable name in `folder`, opened for writing; -1 when none could be
// made (`temp` is then "" and `error` says why).
int create_temporary(const std::string& folder, const std::string& name, std::string& temp,
                     std::string& error) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::string candidate = temporary_name(name);
    if (candidate.empty()) {
      error = "no random numbers for a temporary name: " + std::string(std::strerror(errno));
      break;
    }
    temp = folder + "/" + candidate;
    const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    if (errno != EEXIST) {
      error = error_text("cannot create", temp);
      break;
    }
  }
  if (error.empty()) error = "cannot create a temporary file in " + folder;
  temp.clear();
  return -1;
}

}  // namespace

std::string make_private_folders(const std::string& path) {
  if (!is_absolute(path)) return "'" + path + "' is not an absolute path";
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') continue;
    if (path[i - 1] == '/') continue;  // "//" or a trailing '/'
    const std::string part = path.substr(0, i);
    if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
      return error_text("cannot make the folder", part);
    }
  }
  return "";
}

FileRead read_file_into(const std::string& path, const FileIdentity& expected, void* buf,
                        size_t cap) {
  FileRead r;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    r.status = errno == ENOENT ? KF_NOT_FOUND : KF_INVALID_ARGUMENT;
    r.error = error_text("cannot open", path);
    return r;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<unsigned long long>(st.st_dev) != expected.device ||
      static_cast<unsigned long long>(st.st_ino) != expected.inode) {
    r.status = KF_INVALID_ARGUMENT;
    r.error = path + " was replaced while it was being checked; nothing was read";
  } else if (static_cast<unsigned long long>(st.st_size) > cap) {
    r.status = KF_BUFFER_TOO_SMALL;
    r.size = static_cast<size_t>(st.st_size);
  } else {
    const size_t want = static_cast<size_t>(st.st_size);
    while (r.size < want) {
      const ssize_t got = read(fd, static_cast<char*>(buf) + r.size, want - r.size);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      r.size += static_cast<size_t>(got);
    }
    if (r.size != want) {
      r.status = KF_INVALID_ARGUMENT;
      r.error = fmt::format("{} gave {} of its {} bytes", path, r.size, want);
    }
  }
  close(fd);
  return r;
}

std::string replace_file(const std::string& folder, const std::string& name, const void* data,
                         size_t size) {
  std::string temp, error;
  const int fd = create_temporary(folder, name, temp, error);
  if (fd < 0) return error;
  const bool written = write_all(fd, data, size);
  if (!written) error = error_text("cannot write", temp);
  if (close(fd) != 0 && error.empty()) error = error_text("cannot write", temp);
  const std::string target = folder + "/" + name;
  if (error.empty() && std::rename(temp.c_str(), target.c_str()) != 0) {
    error = error_text("cannot rename " + temp + " to", target);
  }
  if (!error.empty()) unlink(temp.c_str());
  return error;
}

}  // namespace kf::os

#endif  // !_WIN32
