#include "nccl_rendezvous.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

#include "nccl_errors.hpp"

namespace kfnccl {
namespace {

constexpr char kFileScheme[] = "file://";
constexpr char kStoreScheme[] = "tcp://";

bool starts_with(const std::string& s, const char* head) {
  return s.compare(0, std::strlen(head), head) == 0;
}

bool has_store(const kf_comm_init_t& init) {
  return init.struct_size >= offsetof(kf_comm_init_t, store) + sizeof(init.store) &&
         init.store != nullptr;
}

ncclUniqueId make_id() {
  ncclUniqueId id;
  check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  return id;
}

// ---- env:// (the host's store)

void store_sink(void* context, const void* value, size_t size) {
  auto* out = static_cast<std::string*>(context);
  out->assign(static_cast<const char*>(value), size);
}

ncclUniqueId through_store(const kf_comm_init_t& init) {
  const kf_rendezvous_store_t& s = *init.store;
  const std::string key = std::string(init.prefix != nullptr ? init.prefix : "") +
                          "nccl/unique-id";
  char error[512] = {0};
  if (init.rank == 0) {
    const ncclUniqueId id = make_id();
    const kf_status_t st = s.set(s.self, key.c_str(), &id, sizeof id, error, sizeof error);
    if (st != KF_OK) throw PluginError(st, std::string("nccl: the rendezvous store's set: ") + error);
    return id;
  }
  std::string value;
  const kf_status_t st = s.get(s.self, key.c_str(), init.timeout_ms, &store_sink, &value,
                               error, sizeof error);
  if (st != KF_OK) {
    throw PluginError(st, std::string("nccl: rank ") + std::to_string(init.rank) +
                      " waited for rank 0's ncclUniqueId in the rendezvous store: " + error);
  }
  if (value.size() != sizeof(ncclUniqueId)) {
    throw PluginError(KF_INTERNAL, "nccl: the rendezvous store holds " +
                      std::to_string(value.size()) + " bytes under '" + key + "', not an "
                      "ncclUniqueId of " + std::to_string(sizeof(ncclUniqueId)));
  }
  ncclUniqueId id;
  std::memcpy(&id, value.data(), sizeof id);
  return id;
}

// ---- file://

std::string id_file(const std::string& folder, const char* prefix) {
  std::string name = prefix != nullptr ? prefix : "";
  for (char& ch : name) {
    if (ch == '/' || ch == '\\' || ch == ':') ch = '_';
  }
  return folder + "/" + name + "nccl-unique-id";
}

void write_id_file(const std::string& path, const ncclUniqueId& id) {
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&id), sizeof id);
    if (!out.flush()) {
      throw PluginError(KF_UNAVAILABLE, "nccl: cannot write '" + temp + "': check that the "
                        "file:// folder exists and is writable by every rank");
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    throw PluginError(KF_UNAVAILABLE, "nccl: cannot rename '" + temp + "' to '" + path + "'");
  }
}

bool read_id_file(const std::string& path, ncclUniqueId& id) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.read(reinterpret_cast<char*>(&id), sizeof id);
  return in.gcount() == static_cast<std::streamsize>(sizeof id);
}

ncclUniqueId through_file(const kf_comm_init_t& init, const std::string& folder) {
  const std::string path = id_file(folder, init.prefix);
  ncclUniqueId id;
  if (init.rank == 0) {
    id = make_id();
    write_id_file(path, id);
    return id;
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(init.timeout_ms);
  auto pause = std::chrono::milliseconds(1);
  while (!read_id_file(path, id)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      throw PluginError(KF_TIMEOUT, "nccl: rank " + std::to_string(init.rank) + " found no "
                        "ncclUniqueId from rank 0 in '" + path + "' within " +
                        std::to_string(init.timeout_ms) + " ms: rank 0 has not arrived (every "
                        "rank creates the communicator with the same file:// folder)");
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(50)) pause *= 2;
  }
  return id;
}

}  // namespace

void check_rendezvous(const kf_comm_init_t& init) {
  const std::string url = init.rendezvous != nullptr ? init.rendezvous : "";
  if ((starts_with(url, kStoreScheme) && has_store(init)) || starts_with(url, kFileScheme)) return;
  throw PluginError(KF_UNIMPLEMENTED, "the nccl plugin meets through 'file://<folder>' or "
                    "'env://' (the host's store) only; got '" + url + "' (mpi:// is the mpi "
                    "engine's: use file:// or env://, e.g. with `kernforge run`)");
}

ncclUniqueId exchange_unique_id(const kf_comm_init_t& init) {
  check_rendezvous(init);
  const std::string url = init.rendezvous;
  if (starts_with(url, kFileScheme)) return through_file(init, url.substr(std::strlen(kFileScheme)));
  return through_store(init);
}

}  // namespace kfnccl
