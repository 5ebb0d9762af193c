// The plugins' file stores on Windows (private_files.hpp): not supported yet. The file owners
// and ACLs that the trust rules would have to read are not read on Windows (docs/loader.md), so
// no store is offered there: every call fails, saying so, and plugins build what they would
// have read. Thread safety: no state.
#if defined(_WIN32)

#include "loader/private_files.hpp"

namespace kf::os {
namespace {

const char kUnsupported[] = "the plugins' file stores are not supported on Windows yet";

}  // namespace

std::string make_private_folders(const std::string&) { return kUnsupported; }

FileRead read_file_into(const std::string&, const FileIdentity&, void*, size_t) {
  FileRead r;
  r.status = KF_UNAVAILABLE;
  r.error = kUnsupported;
  return r;
}

std::string replace_file(const std::string&, const std::string&, const void*, size_t) {
  return kUnsupported;
}

}  // namespace kf::os

#endif  // _WIN32
