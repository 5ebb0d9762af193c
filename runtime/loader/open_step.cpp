#include "loader/open_step.hpp"

#include <algorithm>
#include <cstddef>
#include <set>

#include <fmt/format.h>

#include "loader/collective_step.hpp"
#include "loader/os.hpp"
#include "loader/step_record.hpp"
#include "loader/security.hpp"

namespace kf {
namespace {

// The fields every plugin ABI 1.x has (the start of kf_plugin_t up to register_kernels).
constexpr size_t kMinPluginStruct = offsetof(kf_plugin_t, register_kernels) + sizeof(void*);

std::set<std::string>& loaded_real_paths() {
  static auto* s = new std::set<std::string>();
  return *s;
}

// The dynamic loader names the object that failed first: when that is not the plugin itself,
// a library it needs is missing (an unavailable plugin, not a broken one).
bool about_a_dependency(const std::string& error, const std::string& real,
                        const std::string& given) {
#if defined(_WIN32)
  // os_windows.cpp: ERROR_MOD_NOT_FOUND for a DLL that exists is a missing import; the text
  // then names it.
  (void)real;
  (void)given;
  return error.find("(error 126)") != std::string::npos;
#else
  return error.rfind(real, 0) != 0 && error.rfind(given, 0) != 0 &&
         error.find("cannot open shared object file") != std::string::npos;
#endif
}

bool open_library_file(PluginRecord& b, const std::string& real, const StepTimer& t) {
  const os::OpenResult r = os::open_library(real, false);
  if (r.library != nullptr) {
    b.library = r.library;
    step(b, "dlopen", real, "ok", "", t);
    return true;
  }
  if (about_a_dependency(r.error, real, b.library_path)) {
    return fail_step(b, "dlopen", real, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                     "cannot load " + real + ": a library it needs is missing: " + r.error +
                         ". List it in the manifest's \"preload\" with the folders to search",
                     t);
  }
  const std::string header = os::diagnose_library_file(real);
  return fail_step(b, "dlopen", real, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT,
                   "cannot load " + real + ": " + (header.empty() ? "" : header + "; ") +
                       "the dynamic loader said: " + r.error +
                       ". Reinstall a build of the plugin for this system", t);
}

// A plugin with streams (ABI 1.2) must have every slot the host calls for them.
std::string stream_slots_problem(const PluginRecord& b, const kf_plugin_t& p) {
  const size_t size = std::min<size_t>(p.struct_size, sizeof(kf_plugin_t));
  if (!plugin_has_slot(size, KF_PLUGIN_SLOT_END(stream_create)) || p.stream_create == nullptr) {
    return "";
  }
  if (!plugin_has_slot(size, KF_PLUGIN_SLOT_END(event_synchronize)) ||
      p.stream_destroy == nullptr || p.stream_synchronize == nullptr ||
      p.event_create == nullptr || p.event_destroy == nullptr || p.event_record == nullptr ||
      p.event_wait == nullptr || p.event_synchronize == nullptr) {
    return b.library_path + ": kf_plugin_t sets stream_create but not every stream and event "
                            "slot (stream_destroy, stream_synchronize, event_create, "
                            "event_destroy, event_record, event_wait, event_synchronize)";
  }
  return "";
}

std::string abi_problem(const PluginRecord& b, const kf_plugin_t* p) {
  if (p == nullptr) {
    return fmt::format("{}: kf_plugin_get returned NULL for host plugin ABI {}.{}",
                       b.library_path, KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR);
  }
  if (p->abi_major != KF_PLUGIN_ABI_MAJOR) {
    return fmt::format("{}: plugin ABI {}.{} does not match the host's {}.{}; install a build of "
                       "the plugin for this kernforge", b.library_path, p->abi_major,
                       p->abi_minor, KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR);
  }
  if (p->struct_size < kMinPluginStruct || p->name == nullptr || p->device_type == nullptr ||
      p->init == nullptr || p->allocate == nullptr || p->deallocate == nullptr ||
      p->copy == nullptr || p->device_count == nullptr || p->register_kernels == nullptr) {
    return b.library_path + ": kf_plugin_t is too small or lacks a required slot";
  }
  return stream_slots_problem(b, *p);
}

// ABI negotiation: same major; the host uses only the slots the plugin's struct has.
bool check_plugin(PluginRecord& b, const kf_plugin_t* p) {
  StepTimer t;
  if (std::string why = abi_problem(b, p); !why.empty()) {
    const bool major = p != nullptr && p->abi_major != KF_PLUGIN_ABI_MAJOR;
    return fail_step(b, "abi", b.library_path, KF_BACKEND_REJECTED,
                     major ? KF_ABI_MISMATCH : KF_INVALID_ARGUMENT, std::move(why), t);
  }
  if (!b.device_type_name.empty() && b.device_type_name != p->device_type) {
    // The manifest decides which plugins compete for a device type; the plugin decides what it
    // serves. They must agree, or a plugin could be selected against the wrong ones.
    return fail_step(b, "abi", b.library_path, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT,
                     fmt::format("{}: its manifest {} declares device_type '{}' but the plugin "
                                 "says (kf_plugin_t.device_type) it serves '{}'; fix the "
                                 "manifest's device_type", b.library_path, b.manifest_path,
                                 b.device_type_name, p->device_type), t);
  }
  b.plugin = p;
  b.plugin_struct_size = std::min<size_t>(p->struct_size, sizeof(kf_plugin_t));
  if (b.name.empty()) b.name = p->name;
  b.version = p->version != nullptr ? p->version : "";
  if (b.device_type_name.empty()) b.device_type_name = p->device_type;
  const int64_t minor_diff =
      static_cast<int64_t>(p->abi_minor) - static_cast<int64_t>(KF_PLUGIN_ABI_MINOR);
  const char* note = minor_diff > 0   ? "; newer minor: the host's slots only"
                     : minor_diff < 0 ? "; older minor: only its own slots"
                                      : "";
  step(b, "abi", b.library_path, "ok",
       fmt::format("plugin ABI {}.{}{}", p->abi_major, p->abi_minor, note), t);
  StepTimer st;
  b.score = KF_RECORD_HAS(b, score) ? p->score() : 1;
  if (b.score <= 0) {
    return fail_step(b, "score", b.library_path, KF_BACKEND_UNAVAILABLE, KF_UNAVAILABLE,
                     b.library_path + ": score 0: the plugin says it cannot run on this machine",
                     st);
  }
  step(b, "score", b.library_path, "ok", fmt::format("score {}", b.score), st);
  return true;
}

}  // namespace

bool open_plugin(PluginRecord& b) {
  StepTimer t;
  const TrustedFile file = trust_file(b.library_path, "plugin library");
  if (file.status == KF_NOT_FOUND) {
    return fail_step(b, "dlopen", b.library_path, KF_BACKEND_UNAVAILABLE, KF_NOT_FOUND,
                     "plugin library " + b.library_path + " does not exist", t);
  }
  if (!file.ok()) {
    return fail_step(b, "security", file.real, KF_BACKEND_REJECTED, file.status, file.why, t);
  }
  const std::string& real = file.real;
  if (loaded_real_paths().count(real) != 0) {
    set_state(b, KF_BACKEND_SHADOWED, "the same library " + real +
                  " is already loaded (reached through another path or a symlink); it loads once",
              KF_ALREADY_EXISTS);
    step(b, "dlopen", real, "skipped", b.reason, t);
    return false;
  }
  b.library_path = real;
  if (!open_library_file(b, real, t)) return false;
  loaded_real_paths().insert(real);  // forget_opened_library() takes it back
  const char* symbol = b.collective ? KF_COLLECTIVE_ENTRY_SYMBOL : KF_PLUGIN_ENTRY_SYMBOL;
  void* get = os::find_symbol(static_cast<os::Library*>(b.library), symbol);
  if (get == nullptr) {
    StepTimer at;
    return fail_step(b, "abi", real, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT,
                     real + " does not export " + symbol + "; is it a kernforge " +
                         (b.collective ? "collective plugin (its manifest says so)?" : "plugin?"),
                     at);
  }
  if (b.collective) {
    return check_collective(b, reinterpret_cast<kf_collective_get_fn>(get)(
                                   KF_COLLECTIVE_ABI_MAJOR, KF_COLLECTIVE_ABI_MINOR));
  }
  return check_plugin(b, reinterpret_cast<kf_plugin_get_fn>(get)(KF_PLUGIN_ABI_MAJOR,
                                                                 KF_PLUGIN_ABI_MINOR));
}

void forget_opened_library(const PluginRecord& r) noexcept {
  if (r.library != nullptr) loaded_real_paths().erase(r.library_path);
}

}  // namespace kf
