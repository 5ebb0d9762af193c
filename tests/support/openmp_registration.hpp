// A stale OpenMP registration under this process's own pid, removed (the clang builds' libomp).
//
// LLVM's OpenMP runtime registers every process that starts it as
// /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>, a 1024-byte file holding "<address>-<value>-<library>",
// and removes it when the process ends normally. Processes that end otherwise (forked children
// that _exit, killed fuzzers, aborted death tests) leave the file behind, and a machine that runs
// the suites for days collects thousands. When a later process is given the same pid, libomp
// reads the old file at its first parallel region and
//  - aborts with "Can't open SHM" when it cannot open it (root's file, a setuid child that
//    runs as nobody);
//  - aborts with "found unknown library already initialized" when the file holds no registration
//    (one that ended between creating it and writing it).
// A file named after a live process's own pid can only be stale, so a test's child removes it
// right after fork, before anything in it starts OpenMP. Async-signal-safe: the child of a
// threaded process may call it.
#pragma once

#include <unistd.h>

#include <cstddef>

namespace kftest {

namespace openmp_detail {

/// Appends decimal(v) to buf at *at, keeping room for the terminating zero.
inline void append_decimal(char* buf, size_t size, size_t* at, unsigned long v) noexcept {
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0 && *at + 1 < size) buf[(*at)++] = digits[--n];
  buf[*at] = '\0';
}

/// Appends text to buf at *at, keeping room for the terminating zero.
inline void append_text(char* buf, size_t size, size_t* at, const char* text) noexcept {
  for (size_t i = 0; text[i] != '\0' && *at + 1 < size; ++i) buf[(*at)++] = text[i];
  buf[*at] = '\0';
}

}  // namespace openmp_detail

/// Removes /dev/shm/__KMP_REGISTERED_LIB_<getpid()>_<getuid()> if it exists; no effect where
/// libomp is not used (the file never exists).
inline void remove_stale_openmp_registration() noexcept {
  char name[128];
  size_t at = 0;
  openmp_detail::append_text(name, sizeof(name), &at, "/dev/shm/__KMP_REGISTERED_LIB_");
  openmp_detail::append_decimal(name, sizeof(name), &at, static_cast<unsigned long>(::getpid()));
  openmp_detail::append_text(name, sizeof(name), &at, "_");
  openmp_detail::append_decimal(name, sizeof(name), &at, static_cast<unsigned long>(::getuid()));
  ::unlink(name);
}

}  // namespace kftest
