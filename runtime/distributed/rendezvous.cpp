#include "distributed/rendezvous.hpp"

#include <filesystem>
#include <system_error>

#include "core/error.hpp"
#include "distributed/rendezvous_mpi.hpp"

namespace kf {
namespace {

constexpr const char* kFile = "file://";

}  // namespace

void check_rank(int32_t rank, int32_t world_size) {
  if (world_size < 1) {
    fail(KF_INVALID_ARGUMENT, "kf_comm_create: world_size is {}; it must be at least 1 (or -1 "
         "with env://, which reads WORLD_SIZE)", world_size);
  }
  if (rank < 0 || rank >= world_size) {
    fail(KF_INVALID_ARGUMENT, "kf_comm_create: rank {} is outside 0..{} (world_size {})", rank,
         world_size - 1, world_size);
  }
}

namespace {

Rendezvous file_rendezvous(const std::string& url, int32_t rank, int32_t world_size) {
  const std::string folder = url.substr(std::string(kFile).size());
  if (folder.empty() || folder[0] != '/') {
    fail(KF_INVALID_ARGUMENT, "rendezvous '{}': a file:// rendezvous names an absolute folder, "
         "such as file:///tmp/job42 (three slashes)", url);
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::u8path(folder), ec)) {
    fail(KF_NOT_FOUND, "rendezvous '{}': the folder {} does not exist; make it (on a file system "
         "every rank sees) before the ranks start", url, folder);
  }
  check_rank(rank, world_size);
  return Rendezvous{url, rank, world_size, {}, 0};
}

}  // namespace

Rendezvous resolve_rendezvous(const std::string& url, int32_t rank, int32_t world_size) {
  if (url.rfind(kFile, 0) == 0) return file_rendezvous(url, rank, world_size);
  if (url.rfind("mpi://", 0) == 0) return mpi_rendezvous(url, rank, world_size);
  if (url == "env://") return env_rendezvous(rank, world_size);
  fail(KF_INVALID_ARGUMENT, "rendezvous '{}' is not file://<absolute folder>, env:// or mpi://",
       url);
}

}  // namespace kf
