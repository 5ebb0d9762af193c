// Note [Output that cannot be written] is in output_check.hpp.
#include "output_check.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#if !defined(_WIN32)
#include <fcntl.h>
#include <unistd.h>
#endif

#include "cli_error.hpp"

namespace kf::cli {

void guard_closed_stdout() {
#if !defined(_WIN32)
  if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF) return;
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd >= 0 && fd != STDOUT_FILENO) close(fd);  // 1 was free, so open() must have taken it
#endif
}

int finish_output(int exit_code) {
  errno = 0;
  std::cout.flush();
  const bool stream_failed = !std::cout.good();
  const bool flush_failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!stream_failed && !flush_failed) return exit_code;
  const int err = errno;
  std::cerr << "kernforge: cannot write the output to stdout"
            << (err != 0 ? std::string(": ") + std::strerror(err) : std::string())
            << " (is the disk full, or stdout closed?); the command's result is lost\n";
  return kExitOutputError;
}

}  // namespace kf::cli
