// The runtime part of the C ABI: versions, kf_init, backends, the load report, devices,
// seeds, threads and memory.
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "capi/startup.hpp"
#include "capi/struct_out.hpp"
#include "core/device_types.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/first_use.hpp"
#include "core/thread_count.hpp"
#include "device/backend_registry.hpp"
#include "loader/plugin_loader.hpp"
#include "loader/plugin_records.hpp"
#include "loader/report.hpp"
#include "memory/caching_allocator.hpp"

namespace {

std::atomic<int32_t> g_num_threads{0};

// What kf_backend_info returns for one record.
kf_backend_info_t backend_info(const kf::PluginRecord& r) {
  kf_backend_info_t info{};
  info.struct_size = sizeof(info);
  info.name = r.name.c_str();
  info.version = r.version.c_str();
  info.device_type_name = r.device_type_name.c_str();
  info.device_type = r.backend != nullptr ? r.backend->device_type : KF_DEVICE_NONE;
  info.device_count = r.backend != nullptr ? r.backend->device_count : 0;
  info.state = r.state;
  info.reason = r.reason.c_str();
  info.library_path = r.library_path.c_str();
  info.manifest_path = r.manifest_path.c_str();
  info.failure = r.state == KF_BACKEND_LOADED ? KF_OK : r.failure;
  info.details = kf::plugin_details(r).c_str();
  return info;
}

}  // namespace

namespace {

// Start-up and the plugins deferred to their first use (core/first_use.hpp): the functions
// about every backend need them all started.
void ensure_all_started() {
  kf::ensure_initialized();
  kf::start_deferred_backends();
}

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

KF_API const char* kf_backend_state_name(int32_t state) { return kf::backend_state_name(state); }

KF_API int32_t kf_backend_count(void) {
  // A failed start (of the runtime, or of the plugins deferred to their first use) counts what
  // is recorded; its message is set.
  if (kf::try_initialize()) (void)kf::guard([] { kf::start_deferred_backends(); });
  return kf::record_count();
}

KF_API kf_status_t kf_backend_info(int32_t index, kf_backend_info_t* out) {
  return kf::guard([&] {
    ensure_all_started();
    // Callers built against ABI 1.0 pass the smaller struct; they get what it has.
    constexpr size_t kMinSize = offsetof(kf_backend_info_t, manifest_path) + sizeof(const char*);
    if (out == nullptr || out->struct_size < kMinSize) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_backend_info: out is NULL or its struct_size is not set "
                                    "to sizeof(kf_backend_info_t)");
    }
    const kf::PluginRecord* r = kf::record_at(index);
    if (r == nullptr) {
      kf::fail(KF_OUT_OF_RANGE, "kf_backend_info: index {} is out of range (0..{})", index,
               kf::record_count() - 1);
    }
    kf::fill_struct_out(out, backend_info(*r), kMinSize, "kf_backend_info");
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
    ensure_all_started();  // a deferred plugin of the same device type keeps its precedence
    std::lock_guard<std::mutex> lock(kf::loader_mutex());
    kf::LoadingScope loading;
    kf::load_one_plugin(kf::LoadRequest{path, "kf_load_plugin"});
  });
}

KF_API kf_status_t kf_synchronize(kf_device_t device) {
  return kf::guard([&] {
    kf::ensure_initialized();
    kf::require_device(device).synchronize(device.index);
  });
}

KF_API kf_status_t kf_manual_seed(uint64_t seed) {
  return kf::guard([&] {
    ensure_all_started();
    kf::for_each_backend([&](const kf::Backend& b) { b.manual_seed(seed); });
  });
}

KF_API kf_status_t kf_set_num_threads(int32_t n) {
  return kf::guard([&] {
    if (n < 1 || n > kf::max_thread_count()) {
      kf::fail(KF_INVALID_ARGUMENT,
               "kf_set_num_threads: n must be between 1 and {} (four times this machine's "
               "hardware threads, at least 64), got {}",
               kf::max_thread_count(), n);
    }
    ensure_all_started();
    kf::for_each_backend([&](const kf::Backend& b) { b.set_num_threads(n); });
    g_num_threads.store(n, std::memory_order_relaxed);
  });
}

KF_API kf_status_t kf_get_num_threads(int32_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_get_num_threads: out is NULL");
    int32_t n = g_num_threads.load(std::memory_order_relaxed);
    if (n <= 0) n = kf::env::num_threads().value_or(0);  // what start-up applied
    *out = n > 0 ? n : static_cast<int32_t>(std::thread::hardware_concurrency());
  });
}

KF_API kf_status_t kf_memory_stats(kf_device_t device, kf_memory_stats_t* out) {
  return kf::guard([&] {
    kf::ensure_initialized();
    kf::require_backend(device);
    constexpr size_t kMinSize = offsetof(kf_memory_stats_t, num_cache_hits) + sizeof(uint64_t);
    kf::fill_struct_out(out, kf::cache_stats(device), kMinSize, "kf_memory_stats");
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
