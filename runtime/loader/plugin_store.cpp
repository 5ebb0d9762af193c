// Note [The plugins' file stores] is in plugin_store.hpp.
#include "loader/plugin_store.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "core/environment.hpp"
#include "core/logging.hpp"
#include "loader/private_files.hpp"
#include "loader/security.hpp"

namespace kf {
namespace {

constexpr size_t kMaxStoreName = 32;
constexpr size_t kMaxFileName = 128;
constexpr size_t kMaxStores = 64;  // the table of stores never grows past this

bool valid_store_name(const char* s) {
  if (s == nullptr || *s == '\0' || std::strlen(s) > kMaxStoreName) return false;
  for (; *s != '\0'; ++s) {
    const char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}

bool valid_file_name(const char* s) {
  if (s == nullptr || *s == '\0' || *s == '.' || std::strlen(s) > kMaxFileName) return false;
  for (; *s != '\0'; ++s) {
    const char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '-' || c == '.')) {
      return false;
    }
  }
  return true;
}

/// A store as this process sees it: its folder (the real path, checked), or why it is off.
struct Store {
  std::string name;
  std::string folder;
  std::string off;
};

std::mutex& stores_mutex() {
  static std::mutex m;
  return m;
}

std::vector<Store>& stores() {
  static std::vector<Store> s;
  return s;
}

void warn_off(Store& s, const std::string& why, const char* advice) {
  s.folder.clear();
  s.off = why;
  log().warn("the '{}' cache is off for this process: {}. Nothing is read from it or written to "
             "it; what it would hold is made again. {}", s.name, why, advice);
}

constexpr char kFolderAdvice[] =
    "Make the folder this user's and writable by no one else (chown, chmod go-w), or set "
    "KERNFORGE_CACHE_DIR to a folder only this user can write";

// Decides the store's folder: the cache root, the folder made, then checked.
void open_store(Store& s) {
  const env::CacheRoot root = env::cache_root();
  if (!root.ignored.empty()) log().warn("cache folder: {}", root.ignored);
  if (root.path.empty()) return warn_off(s, root.problem, "");
  const std::string folder = root.path + "/" + s.name;
  if (const std::string why = os::make_private_folders(folder); !why.empty()) {
    return warn_off(s, why + " (the cache folder comes from " + root.from + ")", kFolderAdvice);
  }
  const TrustedFile t = trust_own_folder(folder, "cache folder");
  if (!t.ok()) return warn_off(s, t.why + " (it comes from " + root.from + ")", kFolderAdvice);
  s.folder = t.real;
}

/// The store called `name` (a valid name), opened on first use. A copy: the table may grow.
Store find_store(const char* name) {
  std::lock_guard<std::mutex> lock(stores_mutex());
  for (const Store& s : stores()) {
    if (s.name == name) return s;
  }
  Store s;
  s.name = name;
  if (stores().size() >= kMaxStores) {
    s.off = "more than 64 stores were asked for";
    return s;
  }
  open_store(s);
  stores().push_back(s);
  return s;
}

/// Turns an open store off after its folder failed a later check (one warning).
void turn_off(const std::string& name, const std::string& why) {
  std::lock_guard<std::mutex> lock(stores_mutex());
  for (Store& s : stores()) {
    if (s.name == name && s.off.empty()) warn_off(s, why, kFolderAdvice);
  }
}

kf_status_t read_file(const char* store, const char* name, void* buf, size_t cap,
                      size_t* out_size) {
  const Store s = find_store(store);
  if (!s.off.empty()) return KF_UNAVAILABLE;
  const std::string path = s.folder + "/" + name;
  const TrustedFile t = trust_own_file(path, "cache file");
  if (t.status == KF_NOT_FOUND) return KF_NOT_FOUND;
  if (!t.ok()) {
    log().warn("{}; it is ignored, made again and replaced", t.why);
    return t.status;
  }
  const os::FileRead r = os::read_file_into(t.real, t.identity, buf, cap);
  *out_size = r.size;
  if (r.status != KF_OK && r.status != KF_BUFFER_TOO_SMALL) {
    log().warn("ignoring cache file {}: {}", path, r.error);
  }
  return r.status;
}

kf_status_t write_file(const char* store, const char* name, const void* data, size_t size) {
  const Store s = find_store(store);
  if (!s.off.empty()) return KF_UNAVAILABLE;
  const TrustedFile t = trust_own_folder(s.folder, "cache folder");
  if (!t.ok() || t.real != s.folder) {
    turn_off(s.name, t.ok() ? "cache folder " + s.folder + " now resolves to " + t.real : t.why);
    return KF_UNAVAILABLE;
  }
  if (const std::string why = os::replace_file(s.folder, name, data, size); !why.empty()) {
    log().info("the '{}' cache could not keep {}: {}", s.name, name, why);
    return KF_UNAVAILABLE;
  }
  return KF_OK;
}

void copy_text(const std::string& text, char* buf, size_t cap) {
  if (buf != nullptr && cap > 0) std::snprintf(buf, cap, "%s", text.c_str());
}

// The one place the store slots turn exceptions into statuses (nothing crosses the ABI).
template <class F>
kf_status_t guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  } catch (...) {
    return KF_INTERNAL;
  }
}

}  // namespace

kf_status_t store_read(const char* store, const char* name, void* buf, size_t cap,
                       size_t* out_size) noexcept {
  if (out_size != nullptr) *out_size = 0;
  if (!valid_store_name(store) || !valid_file_name(name) || out_size == nullptr ||
      (buf == nullptr && cap > 0)) {
    return KF_INVALID_ARGUMENT;
  }
  return guarded([&] { return read_file(store, name, buf, cap, out_size); });
}

kf_status_t store_write(const char* store, const char* name, const void* data,
                        size_t size) noexcept {
  if (!valid_store_name(store) || !valid_file_name(name) || (data == nullptr && size > 0)) {
    return KF_INVALID_ARGUMENT;
  }
  return guarded([&] { return write_file(store, name, data, size); });
}

kf_status_t store_folder(const char* store, char* buf, size_t cap) noexcept {
  if (!valid_store_name(store)) return KF_INVALID_ARGUMENT;
  return guarded([&] {
    const Store s = find_store(store);
    copy_text(s.off.empty() ? s.folder : s.off, buf, cap);
    return s.off.empty() ? KF_OK : KF_UNAVAILABLE;
  });
}

}  // namespace kf
