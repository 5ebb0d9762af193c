// The device part of the C ABI: parsing and naming devices. Both start the runtime first: the
// device types plugins bring ("opencl", "toy") exist only once their plugins are loaded, and
// kf_device_parse may be a program's first call.
#include <cstring>
#include <string>

#include "capi/startup.hpp"
#include "core/device_types.hpp"
#include "core/error.hpp"
#include "kernforge/kernforge.h"

extern "C" {

KF_API kf_status_t kf_device_parse(const char* text, kf_device_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_device_parse: out must not be NULL");
    kf::ensure_initialized();
    *out = kf::parse_device(text);
  });
}

KF_API kf_status_t kf_device_name(kf_device_t device, char* buf, size_t cap) {
  return kf::guard([&] {
    kf::ensure_initialized();
    const std::string s = kf::device_string(device);
    if (buf == nullptr || cap < s.size() + 1) {
      kf::fail(KF_BUFFER_TOO_SMALL, "kf_device_name: '{}' needs {} bytes, got {}", s,
               s.size() + 1, cap);
    }
    std::memcpy(buf, s.c_str(), s.size() + 1);
  });
}

}  // extern "C"
