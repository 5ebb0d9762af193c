// The CTS cases a backend cannot run, read from files the backend keeps in its own folder.
//
// A backend lists them in `cts_unsupported.json` next to its sources; the suite reads the files
// named in KERNFORGE_CTS_UNSUPPORTED (paths separated by ':' on POSIX, ';' on Windows) once at
// start (unsupported_environment.cpp) and CtsTest::SetUp skips a listed case with its reason:
//
//   { "backend": "toy",
//     "unsupported": [ {"test": "Linalg.MmLarge", "dtype": "float64",
//                       "reason": "the device has no float64 units"} ] }
//
// `backend` is the name kf_backend_info reports; `test` is "Suite.Test" without the
// instantiation prefix and parameter; `dtype` (optional) a dtype name, missing or "" for every
// dtype; `reason` says why. Anything else is an error: a file that cannot be read or parsed, a
// missing or empty field, a key the format does not have, a dtype that does not exist. A row is
// only for a real limitation of a device, never to hide a bug (a wrong result is a bug).
//
// Ownership and threads: UnsupportedTable owns its files; unsupported_table() is the process's
// table, filled once before the first test runs and only read afterwards (gtest runs tests on
// one thread).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace cts {

/** One row of a file: a case the backend cannot run. */
struct UnsupportedRow {
  std::string test;    // "Suite.Test", e.g. "Linalg.MmLarge", or "*" for every case
  std::string dtype;   // "float64", ... or "" for every dtype
  std::string reason;  // why the device cannot run it
};

/** One backend's file, parsed. */
struct UnsupportedFile {
  std::string path;     // as it was named in KERNFORGE_CTS_UNSUPPORTED
  std::string backend;  // as kf_backend_info names it
  std::vector<UnsupportedRow> rows;
};

/** What is wrong with a file; what() is "<path>: <what is wrong and what to do>". */
class UnsupportedFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/** Parses `text`, the content of the file at `path`. Throws UnsupportedFileError. */
UnsupportedFile parse_unsupported(const std::string& path, const std::string& text);

/** Reads and parses the file at `path`. Throws UnsupportedFileError. */
UnsupportedFile read_unsupported(const std::string& path);

/** The paths in a KERNFORGE_CTS_UNSUPPORTED value (':' on POSIX, ';' on Windows as the
 * separator); empty entries are left out, as in PATH. */
std::vector<std::string> split_path_list(const std::string& value);

/** A listed case: the row and the file that lists it (both owned by the table). */
struct UnsupportedMatch {
  const UnsupportedFile* file = nullptr;
  const UnsupportedRow* row = nullptr;
  explicit operator bool() const { return row != nullptr; }
};

/** The rows of every file read. */
class UnsupportedTable {
 public:
  void add(UnsupportedFile file) { files_.push_back(std::move(file)); }
  void clear() { files_.clear(); }
  const std::vector<UnsupportedFile>& files() const { return files_; }

  /** The first row listing (backend, "Suite.Test", dtype name or "" for a dtype-independent
   * case); an empty match when the case must run. */
  UnsupportedMatch find(const std::string& backend, const std::string& test,
                        const std::string& dtype) const;

 private:
  std::vector<UnsupportedFile> files_;
};

/** "Suite.Test" of a gtest case: the suite without its instantiation prefix ("Cts/"), the name
 * without its parameter ("/cpu_float32"). */
std::string case_key(const std::string& suite, const std::string& name);

/** The process's table (see the ownership note at the top). */
UnsupportedTable& unsupported_table();

}  // namespace cts
