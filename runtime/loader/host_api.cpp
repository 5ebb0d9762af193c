#include "loader/host_api.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/logging.hpp"
#include "loader/plugin_store.hpp"
#include "loader/registry_port.hpp"

namespace kf {
namespace {

void host_log(int32_t level, const char* plugin, const char* message) {
  if (level < KF_LOG_TRACE || level > KF_LOG_ERROR) level = KF_LOG_INFO;
  log().log(static_cast<spdlog::level::level_enum>(level), "[{}] {}",
            plugin != nullptr ? plugin : "plugin", message != nullptr ? message : "");
}

void host_set_error(const char* message) { set_last_error(message); }

// The op's id, or -1; -1 too before start-up gave the loader its port (a plugin cannot run
// its registration before that, so only a broken invariant gets there).
int32_t find_op_id(const char* name) noexcept {
  if (name == nullptr) return -1;
  try {
    return registry_port().find_op(name);
  } catch (...) {
    return -1;
  }
}

kf_status_t host_op_find(const char* name, int32_t* out_op) {
  const int32_t id = find_op_id(name);
  if (id < 0 || out_op == nullptr) {
    char message[256];  // no allocation: a host callback must not throw into the plugin
    std::snprintf(message, sizeof(message), "no op named '%s'", name ? name : "(null)");
    set_last_error(message);
    return KF_NOT_FOUND;
  }
  *out_op = id;
  return KF_OK;
}

// Plugin ABI 2.1: op calls through the port (a plugin calls them only after start-up).
kf_status_t host_op_call(int32_t op, const kf_value_t* args, int32_t nargs, kf_value_t* results,
                         int32_t nresults) {
  try {
    return registry_port().call_op(op, args, nargs, results, nresults);
  } catch (...) {
    set_last_error("op_call: the host's op registry is not started");
    return KF_FAILED_PRECONDITION;
  }
}

void host_tensor_release(kf_tensor_t tensor) {
  if (tensor == nullptr) return;
  try {
    registry_port().release_tensor(tensor);
  } catch (...) {
  }
}

}  // namespace

const kf_host_api_t* host_api() noexcept {
  static const kf_host_api_t api{sizeof(kf_host_api_t), KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR,
                                 &host_log, &host_set_error, &host_op_find,
                                 &store_read, &store_write, &store_folder,
                                 &host_op_call, &host_tensor_release};
  return &api;
}

}  // namespace kf
