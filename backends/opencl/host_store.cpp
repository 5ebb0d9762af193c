#include "host_store.hpp"

#include <cstddef>

#include "kernforge/plugin.hpp"

namespace kf::opencl {
namespace {

constexpr char kStore[] = "opencl";

const kf_host_api_t* store_host() {
  const kf_host_api_t* h = kf::plugin::host();
  constexpr size_t needed = offsetof(kf_host_api_t, store_folder) + sizeof(h->store_folder);
  if (h == nullptr || h->struct_size < needed || h->store_read == nullptr ||
      h->store_write == nullptr || h->store_folder == nullptr) {
    return nullptr;
  }
  return h;
}

}  // namespace

bool host_has_store() { return store_host() != nullptr; }

kf_status_t store_read(const std::string& name, size_t limit, std::vector<unsigned char>& out) {
  out.clear();
  const kf_host_api_t* h = store_host();
  if (h == nullptr) return KF_UNAVAILABLE;
  out.resize(limit);
  size_t size = 0;
  kf_status_t status = h->store_read(kStore, name.c_str(), out.data(), out.size(), &size);
  if (status == KF_OK && size > limit) status = KF_BUFFER_TOO_SMALL;
  if (status != KF_OK) {
    out.clear();
    return status;
  }
  out.resize(size);
  return KF_OK;
}

bool store_write(const std::string& name, const void* data, size_t size) {
  const kf_host_api_t* h = store_host();
  return h != nullptr && h->store_write(kStore, name.c_str(), data, size) == KF_OK;
}

std::string store_folder(std::string* why_off) {
  const kf_host_api_t* h = store_host();
  if (h == nullptr) {
    if (why_off != nullptr) *why_off = "the host has no file store (plugin ABI 1.2 or older)";
    return "";
  }
  char buf[4096];
  const kf_status_t s = h->store_folder(kStore, buf, sizeof buf);
  if (s == KF_OK) return buf;
  if (why_off != nullptr) *why_off = s == KF_UNAVAILABLE ? buf : "the store said no";
  return "";
}

}  // namespace kf::opencl
