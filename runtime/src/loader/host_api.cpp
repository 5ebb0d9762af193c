#include "loader/host_api.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "core/logging.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

void host_log(int32_t level, const char* plugin, const char* message) {
  if (level < KF_LOG_TRACE || level > KF_LOG_ERROR) level = KF_LOG_INFO;
  log().log(static_cast<spdlog::level::level_enum>(level), "[{}] {}",
            plugin != nullptr ? plugin : "plugin", message != nullptr ? message : "");
}

void host_set_error(const char* message) { set_last_error(message); }

kf_status_t host_op_find(const char* name, int32_t* out_op) {
  const OpDef* def = name != nullptr ? find_op(name) : nullptr;
  if (def == nullptr || out_op == nullptr) {
    char message[256];  // no allocation: a host callback must not throw into the plugin
    std::snprintf(message, sizeof(message), "no op named '%s'", name ? name : "(null)");
    set_last_error(message);
    return KF_NOT_FOUND;
  }
  *out_op = def->id;
  return KF_OK;
}

}  // namespace

const kf_host_api_t* host_api() noexcept {
  static const kf_host_api_t api{sizeof(kf_host_api_t), KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR,
                                 &host_log, &host_set_error, &host_op_find};
  return &api;
}

}  // namespace kf
