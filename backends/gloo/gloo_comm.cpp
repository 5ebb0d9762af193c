#include "gloo_comm.hpp"

#include <cstdlib>
#include <string>

#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "gloo_errors.hpp"
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
                      "only (gloo's FileStore); got '" + url + "'");
  }
  return url.substr(std::string(kFile).size());
}

GlooComm* join(const kf_comm_init_t& in) {
  const std::chrono::milliseconds timeout(in.timeout_ms);
  gloo::rendezvous::FileStore files(file_folder(in));
  TimedStore timed(files, timeout);
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
