#include "loader/plugin_record.hpp"

namespace kf {

const char* backend_state_name(int32_t state) noexcept {
  switch (state) {
    case KF_BACKEND_LOADED: return "loaded";
    case KF_BACKEND_UNAVAILABLE: return "unavailable";
    case KF_BACKEND_REJECTED: return "rejected";
    case KF_BACKEND_SHADOWED: return "shadowed";
    default: return "unknown";
  }
}

}  // namespace kf
