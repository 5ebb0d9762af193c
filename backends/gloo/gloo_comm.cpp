#include "gloo_comm.hpp"

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>

#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "gloo_errors.hpp"
#include "host_store.hpp"
#include "timed_store.hpp"

namespace kfgloo {
namespace {

constexpr const char* kFile = "file://";

// GLOO_SOCKET_IFNAME names the interface (as for PyTorch's gloo group); else gloo resolves
// the machine's host name.
std::shared_ptr<gloo::transport::Device> tcp_device() {
  gloo::transport::tcp::attr attr;
  const char* iface = std::getenv("GLOO_SOCKET_IFNAME");
  if (iface != nullptr && iface[0] != '\0') attr.iface = iface;
  return gloo::transport::tcp::CreateDevice(attr);
}

std::string file_folder(const kf_comm_init_t& in) {
  const std::string url = in.rendezvous != nullptr ? in.rendezvous : "";
  if (url.rfind(kFile, 0) != 0) {
    throw PluginError(KF_UNIMPLEMENTED, "the gloo plugin meets through file:// rendezvous "
                      "(gloo's FileStore) or the host's key-value store (env://); got '" + url +
                      "' without a store");
  }
  return url.substr(std::string(kFile).size());
}

// The host's store (collective ABI 1.1, env://), when this host hands one.
const kf_rendezvous_store_t* host_table(const kf_comm_init_t& in) {
  const size_t end = offsetof(kf_comm_init_t, store) + sizeof in.store;
  return in.struct_size >= end ? in.store : nullptr;
}

// The rendezvous store under TimedStore: the host's, else gloo's FileStore.
std::unique_ptr<gloo::rendezvous::Store> base_store(const kf_comm_init_t& in,
                                                    std::chrono::milliseconds timeout) {
  if (const kf_rendezvous_store_t* t = host_table(in)) return std::make_unique<HostStore>(*t, timeout);
  return std::make_unique<gloo::rendezvous::FileStore>(file_folder(in));
}

GlooComm* join(const kf_comm_init_t& in) {
  const std::chrono::milliseconds timeout(in.timeout_ms);
  const std::unique_ptr<gloo::rendezvous::Store> base = base_store(in, timeout);
  TimedStore timed(*base, timeout);
  gloo::rendezvous::PrefixStore store(in.prefix != nullptr ? in.prefix : "kf", timed);
  auto comm = std::make_unique<GlooComm>();
  comm->device = tcp_device();
  auto context = std::make_shared<gloo::rendezvous::Context>(in.rank, in.world_size);
  context->setTimeout(timeout);
  context->connectFullMesh(store, comm->device);
  comm->context = std::move(context);
  return comm.release();
}

}  // namespace

kf_status_t comm_init(const kf_comm_init_t* in, void** comm) {
  return guarded(in->error, in->error_cap, [&] { *comm = join(*in); });
}

kf_status_t comm_destroy(void* comm) {
  delete static_cast<GlooComm*>(comm);
  return KF_OK;
}

kf_status_t comm_abort(void* comm) {
  auto& c = *static_cast<GlooComm*>(comm);
  c.worker.poison(KF_UNAVAILABLE, "the communicator was aborted (kf_comm_abort)");
  return guarded(nullptr, 0, [&] { c.context->closeConnections(); });
}

std::chrono::milliseconds timeout_of(const GlooComm& c, const kf_collective_call_t& call) {
  return call.timeout_ms > 0 ? std::chrono::milliseconds(call.timeout_ms)
                             : c.context->getTimeout();
}

}  // namespace kfgloo
