#include "core/environment.hpp"

#include <cctype>

#include "core/thread_count.hpp"

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <stdlib.h>
#include <unistd.h>
#endif

namespace kf::env {
namespace {

#if defined(_WIN32)
std::wstring widen(const std::string& s) {
  if (s.empty()) return std::wstring();
  const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
  return w;
}

std::string narrow(const std::wstring& w) {
  if (w.empty()) return std::string();
  const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0,
                                    nullptr, nullptr);
  std::string s(static_cast<size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr,
                      nullptr);
  return s;
}

std::optional<std::string> system_read(const char* name) {
  const std::wstring wname = widen(name);
  std::wstring value(256, L'\0');
  for (;;) {
    SetLastError(ERROR_SUCCESS);
    const DWORD n =
        GetEnvironmentVariableW(wname.c_str(), value.data(), static_cast<DWORD>(value.size()));
    if (n == 0) {
      if (GetLastError() == ERROR_ENVVAR_NOT_FOUND) return std::nullopt;
      return std::string();  // set, and empty
    }
    if (n < value.size()) {
      value.resize(n);
      return narrow(value);
    }
    value.resize(n);  // n is the size needed, terminator included
  }
}
#else
std::optional<std::string> system_read(const char* name) {
#if defined(__GLIBC__)
  const char* v = secure_getenv(name);
#else
  const char* v = (getuid() == geteuid() && getgid() == getegid()) ? std::getenv(name) : nullptr;
#endif
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}
#endif

// An absolute path on this system: "/x"; Windows also "C:\x", "C:/x" and "\\server\x"
// (os::is_absolute in the loader's floor says the same; this floor is below it).
bool absolute(const std::string& p) {
#if defined(_WIN32)
  if (p.size() >= 3 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':' &&
      (p[2] == '\\' || p[2] == '/')) {
    return true;
  }
  return p.size() >= 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/');
#else
  return !p.empty() && p[0] == '/';
#endif
}

// The value of `name` when it is set and not empty.
std::optional<std::string> non_empty(const char* name) {
  std::optional<std::string> v = read(name);
  if (v && v->empty()) v.reset();
  return v;
}

bool equals(const char* name, const char* expected) {
  const std::optional<std::string> v = read(name);
  return v && *v == expected;
}

}  // namespace

std::optional<std::string> read(const char* name) {
  if (name == nullptr || *name == '\0') return std::nullopt;
  return system_read(name);
}

const std::vector<const char*>& runtime_variables() {
  static const std::vector<const char*> names{
      "KERNFORGE_PLUGIN_PATH", "KERNFORGE_AUTOLOAD", "KERNFORGE_DISABLE_PLUGINS",
      "KERNFORGE_ALLOW_INSECURE_PLUGINS", "KERNFORGE_PREFER_PLUGINS", "KERNFORGE_LOG_LEVEL",
      "KERNFORGE_CPU_FALLBACK", "KERNFORGE_NUM_THREADS", "KERNFORGE_CACHE_DIR",
      "LD_LIBRARY_PATH"};
  return names;
}

std::optional<std::string> plugin_path() { return read("KERNFORGE_PLUGIN_PATH"); }

std::optional<int32_t> num_threads(std::string* bad_value) {
  const std::optional<std::string> v = read("KERNFORGE_NUM_THREADS");
  if (!v || v->empty()) return std::nullopt;
  const int64_t bound = max_thread_count();
  int64_t n = 0;
  for (const char c : *v) {
    if (c < '0' || c > '9' || n > bound) {
      if (bad_value != nullptr) *bad_value = *v;
      return std::nullopt;
    }
    n = n * 10 + (c - '0');
  }
  if (n < 1 || n > bound) {
    if (bad_value != nullptr) *bad_value = *v;
    return std::nullopt;
  }
  return static_cast<int32_t>(n);
}

bool autoload_disabled() { return equals("KERNFORGE_AUTOLOAD", "0"); }

bool plugin_disabled(const std::string& plugin) {
  const std::optional<std::string> v = read("KERNFORGE_DISABLE_PLUGINS");
  if (!v) return false;
  // Compared in place, not read with a stringstream: iostreams swallow std::bad_alloc, which
  // would load a disabled plugin when memory runs out.
  size_t start = 0;
  while (start < v->size()) {
    size_t end = v->find(',', start);
    if (end == std::string::npos) end = v->size();
    if (v->compare(start, end - start, plugin) == 0) return true;
    start = end + 1;
  }
  return false;
}

bool insecure_plugins_allowed() { return equals("KERNFORGE_ALLOW_INSECURE_PLUGINS", "1"); }

std::optional<std::string> preferred_plugin(const std::string& device_type) {
  const std::optional<std::string> v = read("KERNFORGE_PREFER_PLUGINS");
  if (!v) return std::nullopt;
  // "type=name,type=name"; split in place, not with a stringstream (see plugin_disabled).
  size_t start = 0;
  while (start < v->size()) {
    size_t end = v->find(',', start);
    if (end == std::string::npos) end = v->size();
    const size_t eq = v->find('=', start);
    if (eq != std::string::npos && eq < end && eq - start == device_type.size() &&
        v->compare(start, eq - start, device_type) == 0 && eq + 1 < end) {
      return v->substr(eq + 1, end - eq - 1);
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> log_level() { return read("KERNFORGE_LOG_LEVEL"); }

std::optional<std::string> job_variable(const char* name) {
  std::optional<std::string> v = read(name);
  if (v && v->empty()) return std::nullopt;
  return v;
}

bool cpu_fallback_enabled() {
  static const bool enabled = !equals("KERNFORGE_CPU_FALLBACK", "0");
  return enabled;
}

CacheRoot cache_root() {
  CacheRoot r;
  if (const std::optional<std::string> dir = non_empty("KERNFORGE_CACHE_DIR")) {
    r.from = "KERNFORGE_CACHE_DIR";
    if (absolute(*dir)) {
      r.path = *dir;
    } else {
      r.problem = "KERNFORGE_CACHE_DIR='" + *dir + "' is not an absolute path (a cache is "
                  "never kept relative to the current directory); give an absolute path";
    }
    return r;
  }
  if (const std::optional<std::string> xdg = non_empty("XDG_CACHE_HOME")) {
    if (absolute(*xdg)) {
      r.from = "XDG_CACHE_HOME";
      r.path = *xdg + "/kernforge";
      return r;
    }
    r.ignored = "XDG_CACHE_HOME='" + *xdg + "' is not an absolute path and was passed over";
  }
  r.from = "HOME";
  const std::optional<std::string> home = non_empty("HOME");
  if (home && absolute(*home)) {
    r.path = *home + "/.cache/kernforge";
  } else {
    r.problem = home ? "HOME='" + *home + "' is not an absolute path"
                     : std::string("neither KERNFORGE_CACHE_DIR, XDG_CACHE_HOME nor HOME is set");
    r.problem += "; set KERNFORGE_CACHE_DIR to an absolute path";
  }
  return r;
}

}  // namespace kf::env
