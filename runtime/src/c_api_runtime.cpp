// The runtime part of the C ABI: versions, kf_init, backends, the load report, devices,
// seeds, threads and memory.
#include <cstring>
#include <thread>
#include <string>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "loader/plugin_loader.hpp"
#include "loader/report.hpp"
#include "memory/caching_allocator.hpp"
#include "runtime_state.hpp"

namespace {

using kf::Backend;

template <class F>
void for_each_loaded(F&& f) {
  for (int32_t i = 0; i < kf::backend_count(); ++i) {
    Backend* b = kf::backend_by_index(i);
    if (b != nullptr && b->state == KF_BACKEND_LOADED) f(*b);
  }
}

void check_plugin_status(kf_status_t s, const Backend& b, const char* what) {
  if (s != KF_OK) kf::fail(s, "{} on backend '{}': {}", what, b.name, kf::last_error());
}

int32_t g_num_threads = 0;

}  // namespace

extern "C" {

KF_API kf_status_t kf_abi_version(uint32_t* out_major, uint32_t* out_minor) {
  if (out_major != nullptr) *out_major = KF_ABI_VERSION_MAJOR;
  if (out_minor != nullptr) *out_minor = KF_ABI_VERSION_MINOR;
  return KF_OK;
}

KF_API const char* kf_version(void) { return KF_VERSION_STRING; }

KF_API kf_status_t kf_init(const kf_init_options_t* options) {
  return kf::guard([&] {
    if (options != nullptr) {
      if (options->struct_size < offsetof(kf_init_options_t, log_level) + sizeof(int32_t)) {
        kf::fail(KF_ABI_MISMATCH, "kf_init: options->struct_size {} is too small; set it to "
                                  "sizeof(kf_init_options_t)", options->struct_size);
      }
      kf::set_init_options(*options);
    }
    kf::ensure_initialized();
  });
}

KF_API int32_t kf_backend_count(void) {
  kf::ensure_initialized();
  return kf::backend_count();
}

KF_API kf_status_t kf_backend_info(int32_t index, kf_backend_info_t* out) {
  return kf::guard([&] {
    kf::ensure_initialized();
    // Callers built against ABI 1.0 pass the smaller struct; fill what it has.
    constexpr size_t kMinSize = offsetof(kf_backend_info_t, manifest_path) + sizeof(const char*);
    if (out == nullptr || out->struct_size < kMinSize) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_backend_info: out is NULL or its struct_size is not set "
                                    "to sizeof(kf_backend_info_t)");
    }
    const Backend* b = kf::backend_by_index(index);
    if (b == nullptr) {
      kf::fail(KF_OUT_OF_RANGE, "kf_backend_info: index {} is out of range (0..{})", index,
               kf::backend_count() - 1);
    }
    out->name = b->name.c_str();
    out->version = b->version.c_str();
    out->device_type_name = b->device_type_name.c_str();
    out->device_type = b->device_type;
    out->device_count = b->device_count;
    out->state = b->state;
    out->reason = b->reason.c_str();
    out->library_path = b->library_path.c_str();
    out->manifest_path = b->manifest_path.c_str();
    if (out->struct_size >= offsetof(kf_backend_info_t, details) + sizeof(const char*)) {
      out->failure = b->state == KF_BACKEND_LOADED ? KF_OK : b->failure;
      out->details = b->details.c_str();
    }
  });
}

KF_API kf_status_t kf_runtime_report_json(char* buf, size_t cap, size_t* needed) {
  return kf::guard([&] {
    kf::ensure_initialized();
    if (buf == nullptr && cap != 0) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_runtime_report_json: buf is NULL but cap is {}", cap);
    }
    const std::string json = kf::report_json();
    if (needed != nullptr) *needed = json.size() + 1;
    if (buf == nullptr || cap < json.size() + 1) {
      kf::fail(KF_BUFFER_TOO_SMALL, "kf_runtime_report_json: the report needs {} bytes, the "
                                    "buffer has {}", json.size() + 1, buf == nullptr ? 0 : cap);
    }
    std::memcpy(buf, json.c_str(), json.size() + 1);
  });
}

KF_API kf_status_t kf_load_plugin(const char* path) {
  return kf::guard([&] {
    if (path == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_load_plugin: path is NULL");
    kf::ensure_initialized();
    std::lock_guard<std::mutex> lock(kf::loader_mutex());
    kf::load_one_plugin(kf::LoadRequest{path, "kf_load_plugin"});
  });
}

KF_API kf_status_t kf_synchronize(kf_device_t device) {
  return kf::guard([&] {
    kf::ensure_initialized();
    Backend& b = kf::require_backend(device);
    if (KF_PLUGIN_HAS(b, synchronize)) {
      check_plugin_status(b.plugin->synchronize(b.plugin_state, device.index), b, "synchronize");
    }
  });
}

KF_API kf_status_t kf_manual_seed(uint64_t seed) {
  return kf::guard([&] {
    kf::ensure_initialized();
    for_each_loaded([&](Backend& b) {
      if (KF_PLUGIN_HAS(b, manual_seed)) {
        check_plugin_status(b.plugin->manual_seed(b.plugin_state, seed), b, "manual_seed");
      }
    });
  });
}

KF_API kf_status_t kf_set_num_threads(int32_t n) {
  return kf::guard([&] {
    if (n < 1) kf::fail(KF_INVALID_ARGUMENT, "kf_set_num_threads: n must be >= 1, got {}", n);
    kf::ensure_initialized();
    for_each_loaded([&](Backend& b) {
      if (KF_PLUGIN_HAS(b, set_num_threads)) {
        check_plugin_status(b.plugin->set_num_threads(b.plugin_state, n), b, "set_num_threads");
      }
    });
    g_num_threads = n;
  });
}

KF_API kf_status_t kf_get_num_threads(int32_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_get_num_threads: out is NULL");
    *out = g_num_threads > 0 ? g_num_threads : static_cast<int32_t>(std::thread::hardware_concurrency());
  });
}

KF_API kf_status_t kf_memory_stats(kf_device_t device, kf_memory_stats_t* out) {
  return kf::guard([&] {
    if (out == nullptr || out->struct_size < sizeof(kf_memory_stats_t)) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_memory_stats: out is NULL or its struct_size is not set "
                                    "to sizeof(kf_memory_stats_t)");
    }
    kf::ensure_initialized();
    kf::require_backend(device);
    *out = kf::cache_stats(device);
  });
}

KF_API kf_status_t kf_empty_cache(kf_device_t device) {
  return kf::guard([&] {
    kf::ensure_initialized();
    kf::require_backend(device);
    kf::cache_empty(device);
  });
}

}  // extern "C"
