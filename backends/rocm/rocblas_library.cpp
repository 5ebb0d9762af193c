// rocblas_library.cpp — rocBLAS opened at run time (rocblas_library.hpp).
#include "rocblas_library.hpp"

#include <dlfcn.h>

#include "library_paths.hpp"

namespace kf::cuda {

const std::vector<std::string>& rocblas_sonames() {
  static const std::vector<std::string> names = {"librocblas.so.4", "librocblas.so.3",
                                                 "librocblas.so.0"};
  return names;
}

RocblasLibrary::~RocblasLibrary() {
  for (auto& [key, handles] : free_) {
    for (rocblas::Handle h : handles) api_.destroy_handle(h);
  }
  if (lib_ != nullptr) dlclose(lib_);
}

std::unique_ptr<RocblasLibrary> RocblasLibrary::open(const std::string& soname,
                                                     std::string& why) {
  void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    why = soname + " not found";
    return nullptr;
  }
  std::unique_ptr<RocblasLibrary> r(new RocblasLibrary());
  r->lib_ = lib;
  r->path_ = path_of_handle(lib);
  const auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (fn == nullptr && why.empty()) why = soname + " lacks " + name;
  };
  why.clear();
  bind(r->api_.create_handle, "rocblas_create_handle");
  bind(r->api_.destroy_handle, "rocblas_destroy_handle");
  bind(r->api_.set_stream, "rocblas_set_stream");
  bind(r->api_.get_version_string, "rocblas_get_version_string");
  bind(r->api_.gemm_strided_batched_ex, "rocblas_gemm_strided_batched_ex");
  if (!why.empty()) return nullptr;
  char version[128] = {};
  if (r->api_.get_version_string(version, sizeof version) == rocblas::kSuccess) {
    r->version_ = version;
  }
  return r;
}

rocblas::Handle RocblasLibrary::acquire(int32_t device, void* stream) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& handles = free_[{device, stream}];
    if (!handles.empty()) {
      rocblas::Handle h = handles.back();
      handles.pop_back();
      return h;
    }
  }
  rocblas::Handle h = nullptr;
  if (api_.create_handle(&h) != rocblas::kSuccess) return nullptr;
  if (api_.set_stream(h, stream) != rocblas::kSuccess) {
    api_.destroy_handle(h);
    return nullptr;
  }
  return h;
}

void RocblasLibrary::release(int32_t device, void* stream, rocblas::Handle h) noexcept {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[{device, stream}].push_back(h);
  } catch (...) {
    api_.destroy_handle(h);
  }
}

std::unique_ptr<RocblasLibrary> open_rocblas(std::string& why) {
  std::string tried;
  for (const std::string& soname : rocblas_sonames()) {
    std::string reason;
    std::unique_ptr<RocblasLibrary> r = RocblasLibrary::open(soname, reason);
    if (r != nullptr) return r;
    tried += (tried.empty() ? "" : "; ") + reason;
  }
  why = tried;
  return nullptr;
}

}  // namespace kf::cuda
